// The Dis heap inside the cage: typed blocks with a 16-byte header just
// before the data (reference count, type index, block size, colour), size
// classes with free lists linked through the free blocks' headers (a link
// is checked before it is followed), and reference counting with
// iterative destruction. Blocks are laid end to end from kHeapStart to top(),
// free ones included, so a collector can walk them in address order.
//
// Contract: alloc() returns data zeroed with pointer slots set to H and a
// reference count of 1; decref() at zero destroys children through the type's
// pointer map without deep recursion. A block header is validated before it
// is trusted (a module can store an integer where a pointer belongs): an
// invalid one raises a Dis error, it never corrupts the allocator.
//
// Collector support (gc.h drives it): every block carries a colour; new
// blocks get the mutator colour, and incref() is the write barrier (a stored
// pointer whose colour is not the mutator's becomes a propagator). With
// refcounting off (--gc=ms) decref() does nothing and only the collector
// frees. Blocks never move or merge, so a sweep cursor stays valid while the
// mutator frees blocks.
//
// Memory goes back to the system two ways: a freed block of 64 KiB or more
// releases its data pages at once, and free space at the top of the heap is
// cut off (trim) once enough has been freed since the last look; a look
// walks at most one region of the heap (see region_live_).
// A trim only happens at a safe point (trim_point()), never inside a
// collector step, and moves the registered sweep cursor down with the top.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "cage.h"
#include "fault_injection.h"

namespace dis::vm {

// A Dis run-time error: becomes a Dis exception with this message.
struct DisError {
  std::string msg;
  std::uint32_t value = 0xFFFFFFFFu;  // raised object (one reference), or H
};
[[noreturn, gnu::cold]] void raise_error(const char* msg);
// The one message of every allocation that fails: the heap limit, the cage,
// or a host allocation made for the program (std::bad_alloc).
inline constexpr const char* kOutOfMemory = "out of memory: heap";

enum class TypeKind : std::uint8_t {
  Plain,    // record with a pointer map (adt, tuple, frame, module data)
  String,   // {len, max, chars}
  Array,    // {len, elemtype, root, data, elements...}
  List,     // {tail, elemtype, element}
  Channel,  // {channel index}
  Module,   // {modlink index}
  Stack,    // a stack chunk: not reference counted
};

struct TypeInfo {
  TypeKind kind = TypeKind::Plain;
  // Set by add_type (they live in what would be padding, so the table's
  // layout is unchanged): kPtrsInSize when every pointer slot lies inside
  // `size`; kSmallRecord when, besides, size <= kSmallRecordMax and
  // ptr_bits marks the pointer words (bit i: the word at byte 4 * i), so a
  // new object's data is written in one pass.
  std::uint8_t flags = 0;
  std::uint16_t ptr_bits = 0;
  std::uint32_t size = 0;           // bytes (Plain)
  std::vector<std::uint32_t> ptrs;  // byte offsets of pointer words
  std::vector<std::uint8_t> map;    // as in the module, for tools
  std::string name;                 // for diagnostics
  // Releases host state an object of this type holds (a Sys->FD's file):
  // called with its data when the block is freed (count zero, collector) or,
  // still live, when the heap goes.
  std::function<void(std::uint8_t*)> on_free;
};

inline constexpr std::uint8_t kPtrsInSize = 1, kSmallRecord = 2;
inline constexpr std::uint32_t kSmallRecordMax = 64;

struct BlockHeader {
  std::uint32_t ref;
  std::uint32_t type;  // of a free block: the next free block of its size
  std::uint32_t size;  // whole block, header included
  std::uint8_t colour;
  std::uint8_t magic;  // kLive, kFree or kStack
  // kCollected once a sweep has cut its references; before, the heap's
  // fresh_stamp() when the block was made
  std::uint16_t spare;
};
static_assert(sizeof(BlockHeader) == 16);
static_assert(offsetof(BlockHeader, magic) == offsetof(BlockHeader, colour) + 1);
inline constexpr std::uint32_t kBlockHeader = sizeof(BlockHeader);

// Sanitizer builds end every block with a poisoned red zone, so an overrun
// of one object into the next is caught; other builds have none, so their
// layout and speed are unchanged. The red zone is part of the block's size:
// walks by size need not know about it, but the room for data does.
#if defined(DIS_SANITIZE)
inline constexpr std::uint32_t kRedZone = 16;
inline constexpr bool kRangeFirst = true;
#else
inline constexpr std::uint32_t kRedZone = 0;
inline constexpr bool kRangeFirst = false;
#endif
// The bytes of data a block may hold (its header's size less overheads).
inline std::uint32_t block_room(const BlockHeader& h) { return h.size - kBlockHeader - kRedZone; }
// The smallest block size a header may claim.
inline constexpr std::uint32_t kMinBlock = kBlockHeader + kRedZone;

inline constexpr std::uint8_t kLive = 0xD5;
inline constexpr std::uint8_t kFree = 0xF4;
// A stack chunk (type kTypeStack): a magic of its own, so a pointer move
// refuses one by the magic test alone.
inline constexpr std::uint8_t kStack = 0xA7;
// A block whose count reached zero, waiting to be destroyed: its `ref`
// links the next such block. The list lives in the headers, so releasing a
// structure of any size needs no host memory (a free cannot throw).
inline constexpr std::uint8_t kPending = 0x9B;
inline constexpr Ptr kHeapStart = 1u << 16;
inline constexpr std::uint16_t kCollected =
    1;  // BlockHeader::spare: cut by a sweep  // low offsets are never objects

// A module object (the value Dis code holds for a loaded module) is laid out
// as Inferno's Modlink begins: word 0 is its module data pointer (MP), which
// Inferno's compiler reads to address another module's variables (`movw
// 0(m),t` then `x(t)`); the host's instance index follows.
inline constexpr std::uint32_t kModuleMp = 0;
inline constexpr std::uint32_t kModuleIndex = 4;
inline constexpr std::uint32_t kModuleSize = 8;

// Well-known type indices installed by the Heap constructor.
enum WellKnownType : std::uint32_t {
  kTypeString = 0,
  kTypeArray,
  kTypeList,
  kTypeChannel,
  kTypeModule,
  kTypeStack,
  kTypePtr,   // one pointer word (list of pointers, channel of pointers)
  kTypeNone,  // no pointers, size 0
  kTypeByte,  // pointer-free elements of 1, 4 and 8 bytes
  kTypeWord,
  kTypeBig,
  kNumWellKnown,
};

// The roots as the runtime walks them for the collector and the heap
// verifier: each live thread, then each of its frames, bottom up.
struct RootVisitor {
  virtual ~RootVisitor() = default;
  // A live thread and the object of the module it runs (H when gone).
  virtual void thread(std::uint32_t id, Ptr module) = 0;
  // Its frame `index`: `size` bytes at `fp`, pointer slots from `type`,
  // run by `module` (H when gone).
  virtual void frame(std::size_t index, Ptr fp, std::uint32_t type, std::uint32_t size,
                     Ptr module) = 0;
};

// What the heap, the collector and the heap verifier need from the runtime
// that owns the host side of channel and module objects, and the threads.
struct HeapHooks {
  virtual ~HeapHooks() = default;
  virtual void free_channel(std::uint32_t index) = 0;
  virtual void free_module(std::uint32_t index) = 0;
  virtual void visit_roots(RootVisitor& v) = 0;
  // The data (MP) of module instance `index`; false when it is gone.
  virtual bool module_data(std::uint32_t index, Ptr& mp) = 0;
  // Calls f with the element type and the bytes of each element buffered
  // in channel `index`; false when the channel is gone.
  virtual bool channel_items(
      std::uint32_t index,
      const std::function<void(std::uint32_t elemtype, const std::uint8_t* item)>& f) = 0;
};

struct HeapStats {
  std::uint64_t allocs = 0, frees = 0;
  std::uint64_t bytes_live = 0, bytes_peak = 0, bytes_allocated = 0;
  std::uint64_t freed_refcount = 0, freed_collector = 0;  // blocks
  std::uint64_t live_blocks = 0;                          // heap objects, stacks excluded
  // Address space from the heap's start to its top, now and at most; bytes
  // given back to the system (each page counted once per release) and trims.
  std::uint64_t extent = 0, extent_peak = 0;
  std::uint64_t bytes_returned = 0, trims = 0;
  // Charged against the limit besides the objects: stack chunks (and other
  // blocks from alloc_stack), and what the runtime holds for the program
  // outside the cage (channel buffers: charge()).
  std::uint64_t bytes_stacks = 0, bytes_charged = 0;
};

// The fixed colour of a block reached but whose children are not yet scanned.
inline constexpr std::uint8_t kPropagator = 3;

// Told about each reference-count destruction (the outermost one; blocks
// freed counts the whole cascade). gc.h's GcObserver implements it.
struct FreeObserver {
  virtual ~FreeObserver() = default;
  virtual void free_begin() = 0;
  virtual void free_end(std::uint64_t blocks) = 0;
};

// Told of every heap object allocated and freed (cost --mem attributes
// them to instructions): after an allocation, and before a block is freed
// by reference counting or by the collector (a block the collector cut and
// whose count then reached zero is the collector's, as HeapStats counts
// it). Stack chunks are no heap objects and are not told. Must not touch
// the Dis heap.
struct BlockObserver {
  virtual ~BlockObserver() = default;
  virtual void allocated(Ptr p, const BlockHeader& h) = 0;
  virtual void freed(Ptr p, const BlockHeader& h, bool by_collector) = 0;
};

class Heap {
 public:
  explicit Heap(Cage& cage, std::uint64_t limit);
  ~Heap();
  Heap(const Heap&) = delete;
  Heap& operator=(const Heap&) = delete;

  Cage& cage() { return cage_; }
  void set_hooks(HeapHooks* h) { hooks_ = h; }
  void set_limit(std::uint64_t limit) { limit_ = limit; }
  std::uint64_t limit() const { return limit_; }

  std::uint32_t add_type(TypeInfo t);
  // A Plain type from a Dis descriptor (size and map).
  std::uint32_t add_type(std::int32_t size, const std::vector<std::uint8_t>& map,
                         std::string name = {});
  const TypeInfo& type(std::uint32_t i) const { return types_[i]; }
  std::size_t num_types() const { return num_types_; }

  // A new block of `type` with `bytes` of data; ref = 1.
  Ptr alloc(std::uint32_t type, std::uint32_t bytes);
  // A Plain object of its type's size, pointer slots H.
  Ptr new_object(std::uint32_t type);
  // Stack chunks: no heap objects (no count, no colour), but counted
  // against the limit, as Inferno's stacks come from its heap.
  Ptr alloc_stack(std::uint32_t bytes);
  void free_stack(Ptr p);
  // Host memory held for the program (a channel's buffered items): counted
  // against the limit; charge() raises "out of memory: heap" past it.
  void charge(std::uint64_t bytes);
  void uncharge(std::uint64_t bytes) { stats_.bytes_charged -= bytes; }
  // Whether `block` more bytes fit under the limit.
  bool fits(std::uint64_t block) const {
    return stats_.bytes_live + stats_.bytes_stacks + stats_.bytes_charged + block <= limit_;
  }
  // Whether a cage allocation of `block` bytes may go ahead: past the limit
  // (or at an injected failure) the exhaustion hook collects once first.
  bool room(std::uint64_t block) {
    const bool injected = fault::cage_alloc_fails();
    if (fits(block) && !injected) [[likely]]
      return true;
    exhausted();
    return fits(block) && !injected;
  }
  // Called when a cage allocation would fail, before it raises "out of
  // memory: heap" (the collector's emergency collection); never re-entered.
  void set_exhausted_hook(void (*fn)(void*), void* ctx) {
    exhausted_hook_ = fn;
    exhausted_ctx_ = ctx;
  }
  // Stamped on every block as it is made (BlockHeader::spare) and moved on
  // at each safe point, so a collection inside an instruction can find the
  // blocks made since, which only C++ locals may hold yet.
  std::uint16_t fresh_stamp() const { return fresh_stamp_; }
  void next_safe_point() {
    if (++fresh_stamp_ <= kCollected) fresh_stamp_ = kCollected + 1;
  }

  BlockHeader* header(Ptr p) { return reinterpret_cast<BlockHeader*>(cage_.at(p - 16)); }
  // Whether p is where a block's data could start (aligned, inside the heap).
  // (A single rotated compare has fewer instructions but ran calls.b 20%
  // slower: perf/LOG.md, 2026-12-06.)
  bool could_be_block(Ptr p) const { return p >= kFirstData && p <= top_ && (p & 7) == 0; }
  // The header if p is a live block, else nullptr.
  BlockHeader* checked_header(Ptr p) {
    if (!could_be_block(p)) [[unlikely]]
      return nullptr;
    BlockHeader* h = header(p);
    if (h->magic != kLive || !valid_type(h->type)) [[unlikely]]
      return nullptr;
    return h;
  }
  // Pointer moves are 40% of a list-heavy program's instructions, so their
  // fast paths read the header first and test only a live magic: the whole
  // cage is mapped readable and writable (cage.h), so the read and the count
  // stay in the cage whatever p is, and a block's range and alignment are
  // checked only where they matter, before a destruction or a barrier
  // (which index the allocator's and the type table's host structures).
  // A forged header can at worst change a count in the cage. Sanitizer
  // builds test the range first, as their red zones must not be read.
  void incref(Ptr p) {
    if (p == H) return;
    if constexpr (kRangeFirst)
      if (!could_be_block(p)) [[unlikely]]
        return incref_slow(p);
    BlockHeader* h = header(p);
    // colour and magic side by side: one compare for "live, and already
    // the mutator's colour" (no barrier due).
    std::uint16_t tag;
    std::memcpy(&tag, &h->colour, sizeof tag);
    if (tag != live_tag_) [[unlikely]]
      return incref_slow(p);
    ++h->ref;
  }
  void decref(Ptr p) {
    if (p == H || !refcounting_) return;
    if constexpr (kRangeFirst)
      if (!could_be_block(p)) [[unlikely]]
        return;
    BlockHeader* h = header(p);
    if (h->magic != kLive) [[unlikely]]
      return;  // not a block: nothing to release
    if (h->ref > 1) [[likely]] {
      --h->ref;
      return;
    }
    if (could_be_block(p) && valid_type(h->type)) destroy(p);
  }
  // Store pointer v into slot at host address `slot`, with counts.
  void store_ptr(std::uint8_t* slot, Ptr v) {
    incref(v);
    Ptr old = ld<Ptr>(slot);
    st<Ptr>(slot, v);
    decref(old);
  }
  // Release the pointers of a record of `type` at `data` (frames, unwinding).
  void release_record(std::uint8_t* data, std::uint32_t type) {
    for (std::uint32_t off : types_[type].ptrs) {
      Ptr v = ld<Ptr>(data + off);
      st<Ptr>(data + off, H);
      decref(v);
    }
  }
  // Set the pointer slots of a record to H.
  void init_record(std::uint8_t* data, std::uint32_t type) {
    for (std::uint32_t off : types_[type].ptrs) st<Ptr>(data + off, H);
  }
  // Copy a record of `type`, adjusting counts (movmp semantics).
  void copy_record(std::uint8_t* dst, const std::uint8_t* src, std::uint32_t type);

  // Walk every block (live or free) in address order.
  template <class F>
  void walk(F&& f) {
    for (Ptr p = kHeapStart; p < top_;) {
      auto* h = reinterpret_cast<BlockHeader*>(cage_.at(p));
      f(p + 16, *h);
      p += h->size;
    }
  }
  Ptr top() const { return top_; }
  // Calls f(list's block size, block address (of its header)) for each entry
  // of the free lists until f returns false (the verifier's check).
  template <class F>
  void walk_free(F&& f) {
    auto list = [&](std::uint32_t size, Ptr b) {
      for (; b != 0; b = reinterpret_cast<BlockHeader*>(cage_.at(b))->type)
        if (!f(size, b)) return false;
      return true;
    };
    for (std::uint32_t i = 0; i < small_free_.size(); ++i)
      if (!list(i * 8, small_free_[i])) return;
    for (const auto& [size, head] : large_free_)
      if (!list(size, head)) return;
  }
  // Large free blocks left off the lists because the host had no memory
  // for a new size's entry (free_block cannot fail): at most this many free
  // blocks are on no list; a trim may have cut some of them since.
  std::uint64_t unlisted_free() const { return unlisted_free_; }
  // Destroys what a release interrupted by a host allocation failure left
  // pending (a hook or observer threw); nothing when none is.
  void finish_pending() {
    if (pending_ != 0 && !destroying_) run_destroy(false);
  }
  const HeapStats& stats() const { return stats_; }

  // A safe point (no collector step running, no free block address held):
  // cuts free space off the top of the heap when enough was freed.
  void trim_point() {
    if (freed_since_trim_ >= kTrimMin) [[unlikely]]
      trim();
  }
  // The collector's walk position: kept at or below top() by trims.
  void set_sweep_cursor(Ptr* cursor) { sweep_cursor_ = cursor; }

  // ---- collector interface (gc.cpp) ----
  std::uint8_t mutator_colour() const { return mutator_colour_; }
  void set_mutator_colour(std::uint8_t c) {
    mutator_colour_ = c;
    live_tag_ = static_cast<std::uint16_t>(c | kLive << 8);
  }
  bool nprop = false;  // a propagator was made outside the sweep's view
  Ptr scan_guard = H;  // reset to H when this block is freed (resumable scans)
  void barrier(BlockHeader* h) {
    h->colour = kPropagator;
    nprop = true;
  }
  bool refcounting() const { return refcounting_; }
  void set_refcounting(bool on) { refcounting_ = on; }
  // Reclaims a block the collector found unreachable. With counts, its
  // references are cut (children released, slots set to H) and the block
  // itself is freed when its count reaches zero; without, it is freed now.
  void collect(Ptr p);
  // Called after every allocation (stress mode); may not allocate.
  void set_alloc_hook(void (*fn)(void*, Ptr), void* ctx) {
    alloc_hook_ = fn;
    alloc_ctx_ = ctx;
    watched_ = alloc_hook_ || block_observer_;
  }
  void set_block_observer(BlockObserver* o) {
    block_observer_ = o;
    watched_ = alloc_hook_ || block_observer_;
  }
  void set_free_observer(FreeObserver* o) { free_observer_ = o; }

 private:
  void destroy(Ptr p);
  // incref's rare case, out of line: a barrier due, or not a live block.
  // Raises "dereference of nil" unless p is a live block; runs the barrier.
  [[gnu::noinline, gnu::cold]] void incref_slow(Ptr p);
  void run_destroy(bool observed);
  void pend(Ptr p, BlockHeader* h);
  void clear_children(Ptr p);
  void push_children(Ptr p);
  void release_child(Ptr c);
  Ptr carve(std::uint32_t block);
  Ptr carve_top(std::uint32_t block);
  Ptr take_free(Ptr& head, std::uint32_t block);
  Ptr cut_above(Ptr head, Ptr new_top);
  BlockHeader* init_block(Ptr b, std::uint32_t block, std::uint32_t type, std::uint8_t colour);
  void free_block(Ptr p);
  void trim();
  void finalize(Ptr p) {
    const TypeInfo& t = types_[header(p)->type];
    if (t.on_free) t.on_free(cage_.at(p));
  }

  Cage& cage_;
  std::uint64_t limit_;
  std::vector<TypeInfo> types_;
  // types_.size(), kept apart: every pointer move tests a block's type
  // against it, and one load is cheaper than the vector's two and a shift.
  std::uint32_t num_types_ = 0;
  Ptr top_ = kHeapStart;
  std::uint8_t mutator_colour_ = 0;
  std::uint16_t live_tag_ = kLive << 8;  // colour and magic of a live block needing no barrier
  static constexpr Ptr kFirstData = kHeapStart + kBlockHeader;
  bool valid_type(std::uint32_t t) const { return t < num_types_ && t != kTypeStack; }
  void set_top(Ptr t) { top_ = t; }
  // Trimming: the heap is cut into regions of 2^kRegionShift bytes, each
  // with the bytes of live blocks starting in it and its first block, so a
  // trim finds the last live block by walking one region, not the heap.
  static constexpr unsigned kRegionShift = 18;
  static std::uint64_t region_index(Ptr p) { return p >> kRegionShift; }
  std::vector<std::uint32_t> region_live_;
  std::vector<Ptr> region_first_;  // 0: no block starts there
  std::uint64_t freed_since_trim_ = 0;
  Ptr* sweep_cursor_ = nullptr;
  static constexpr std::uint64_t kTrimMin = 4u << 20;  // frees between looks; least cut
  static constexpr std::uint32_t kReleaseAtFree = 64 * 1024;
  static constexpr std::uint32_t kSmallMax = 4096;
  // Intrusive free lists: a free block's header links to the next free
  // block of its size (BlockHeader::type; 0 ends a list, no block starts
  // there), so a free or a reuse touches the block and the head only. The
  // last freed is the first reused.
  std::vector<Ptr> small_free_;  // heads (block addresses); index: block size / 8
  std::map<std::uint32_t, Ptr> large_free_;
  Ptr pending_ = 0;  // the kPending blocks, linked through their `ref`
  std::uint64_t unlisted_free_ = 0;
  bool destroying_ = false;
  HeapHooks* hooks_ = nullptr;
  HeapStats stats_;
  bool refcounting_ = true;
  void (*alloc_hook_)(void*, Ptr) = nullptr;
  void* alloc_ctx_ = nullptr;
  void (*exhausted_hook_)(void*) = nullptr;
  void* exhausted_ctx_ = nullptr;
  bool exhausting_ = false;
  std::uint16_t fresh_stamp_ = kCollected + 1;
  void exhausted();
  BlockObserver* block_observer_ = nullptr;
  // An allocation hook or a block observer is set: allocations take the
  // slow path and call after_alloc (one flag, as the hook alone was).
  bool watched_ = false;
  void after_alloc(Ptr p);
  FreeObserver* free_observer_ = nullptr;
};

}  // namespace dis::vm
