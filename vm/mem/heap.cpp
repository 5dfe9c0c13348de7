#include "heap.h"

#include <algorithm>
#include <boost/container/small_vector.hpp>
#include <cstring>
#include <new>
#include <stdexcept>

#include "fault_injection.h"

// In sanitizer builds free blocks are poisoned, so AddressSanitizer reports a
// use after free inside our allocator. The shadow outlives the mapping: a
// later cage mapped at the same address would inherit stale poison, so the
// heap unpoisons what it used when it goes (~Heap).
#if defined(DIS_SANITIZE)
#include <sanitizer/asan_interface.h>
#define DIS_POISON(p, n) ASAN_POISON_MEMORY_REGION(p, n)
#define DIS_UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION(p, n)
#else
#define DIS_POISON(p, n) ((void)(p), (void)(n))
#define DIS_UNPOISON(p, n) ((void)(p), (void)(n))
#endif

namespace dis::vm {

void raise_error(const char* msg) { throw DisError{msg}; }

Heap::Heap(Cage& cage, std::uint64_t limit) : cage_(cage), limit_(limit) {
  small_free_.resize(kSmallMax / 8 + 1, 0);
  region_live_.resize(Cage::kSize >> kRegionShift);
  region_first_.resize(Cage::kSize >> kRegionShift);
  auto special = [&](TypeKind k, const char* name, std::uint32_t size = 0) {
    TypeInfo t;
    t.kind = k;
    t.size = size;
    t.name = name;
    types_.push_back(std::move(t));
    num_types_ = static_cast<std::uint32_t>(types_.size());
  };
  special(TypeKind::String, "string");
  special(TypeKind::Array, "array");
  special(TypeKind::List, "list");
  special(TypeKind::Channel, "chan", 4);
  special(TypeKind::Module, "module", kModuleSize);
  special(TypeKind::Stack, "stack");
  add_type(4, {0x80}, "ptr");
  add_type(0, {}, "none");
  add_type(1, {}, "byte");
  add_type(4, {}, "int");
  add_type(8, {}, "big");
}

Heap::~Heap() {
  walk([&](Ptr p, const BlockHeader& h) {
    if ((h.magic == kLive || h.magic == kPending) && h.type < types_.size()) finalize(p);
  });
  DIS_UNPOISON(cage_.at(kHeapStart), top_ - kHeapStart);
}

std::uint32_t Heap::add_type(TypeInfo t) {
  if (t.kind == TypeKind::Stack) throw std::logic_error("heap: a second stack type");
  bool in_size = true, words = true;
  std::uint32_t bits = 0;
  for (std::uint32_t off : t.ptrs) {
    in_size = in_size && off + std::uint64_t{4} <= t.size;
    words = words && off % 4 == 0;
    if (off < kSmallRecordMax) bits |= 1u << (off / 4);
  }
  t.flags = 0;
  t.ptr_bits = 0;
  if (in_size) t.flags |= kPtrsInSize;
  if (in_size && words && t.size <= kSmallRecordMax) {
    t.flags |= kSmallRecord;
    t.ptr_bits = static_cast<std::uint16_t>(bits);
  }
  types_.push_back(std::move(t));
  num_types_ = static_cast<std::uint32_t>(types_.size());
  return num_types_ - 1;
}

std::uint32_t Heap::add_type(std::int32_t size, const std::vector<std::uint8_t>& map,
                             std::string name) {
  TypeInfo t;
  t.kind = TypeKind::Plain;
  t.size = static_cast<std::uint32_t>(size < 0 ? 0 : size);
  t.map = map;
  t.name = std::move(name);
  for (std::size_t j = 0; j < map.size(); ++j)
    for (int i = 0; i < 8; ++i)
      if (map[j] & (0x80 >> i)) {
        std::uint32_t off = static_cast<std::uint32_t>(4 * (8 * j + i));
        if (off + 4 <= t.size) t.ptrs.push_back(off);
      }
  return add_type(std::move(t));
}

namespace {

BlockHeader* block_at(Cage& cage, Ptr b) { return reinterpret_cast<BlockHeader*>(cage.at(b)); }

void push_free(Cage& cage, Ptr& head, Ptr b) {
  block_at(cage, b)->type = head;
  head = b;
}

void count_alloc(HeapStats& s, std::uint32_t block) {
  s.allocs++;
  s.live_blocks++;
  s.bytes_allocated += block;
  s.bytes_live += block;
  if (s.bytes_live > s.bytes_peak) s.bytes_peak = s.bytes_live;
}

}  // namespace

// The links live in the cage, where a module's stray write could reach
// them: a block is taken only if it is a free block of the list's size,
// else the rest of the list is dropped (its blocks leak, nothing is
// handed out twice). The header read is the one init_block writes.
Ptr Heap::take_free(Ptr& head, std::uint32_t block) {
  const Ptr b = head;
  if (b == 0) return 0;
  const BlockHeader* h = block_at(cage_, b);
  if (b < kHeapStart || b >= top_ || (b & 7) != 0 || h->magic != kFree || h->size != block)
      [[unlikely]] {
    head = 0;
    return 0;
  }
  head = h->type;
  return b;
}

Ptr Heap::carve(std::uint32_t block) {
  Ptr b = 0;
  if (block <= kSmallMax) {
    b = take_free(small_free_[block / 8], block);
  } else {
    // An emptied size keeps its entry (head 0) until a trim, as a vector's
    // capacity did: no map node is made and freed per reuse.
    auto it = large_free_.find(block);
    if (it != large_free_.end()) b = take_free(it->second, block);
  }
  return b != 0 ? b : carve_top(block);
}

Ptr Heap::carve_top(std::uint32_t block) {
  std::uint64_t end = std::uint64_t{top_} + block;
  if (end >= Cage::kSize - 4096) raise_error(kOutOfMemory);
  Ptr p = top_;
  set_top(static_cast<Ptr>(end));
  if (region_first_[region_index(p)] == 0) region_first_[region_index(p)] = p;
  stats_.extent = top_ - kHeapStart;
  if (stats_.extent > stats_.extent_peak) stats_.extent_peak = stats_.extent;
  return p;
}

// A block handed out (again) has its data unpoisoned and its red zone
// poisoned; the header never has poison (the collector's walk reads it).
BlockHeader* Heap::init_block(Ptr b, std::uint32_t block, std::uint32_t type, std::uint8_t colour) {
  DIS_UNPOISON(cage_.at(b + kBlockHeader), block - kBlockHeader - kRedZone);
  if constexpr (kRedZone != 0) DIS_POISON(cage_.at(b + block - kRedZone), kRedZone);
  region_live_[region_index(b)] += block;
  auto* h = reinterpret_cast<BlockHeader*>(cage_.at(b));
  h->ref = 1;
  h->type = type;
  h->size = block;
  h->colour = colour;
  h->magic = kLive;
  h->spare = fresh_stamp_;
  return h;
}

Ptr Heap::alloc(std::uint32_t type, std::uint32_t bytes) {
  std::uint64_t block64 =
      ((std::uint64_t{bytes} + kBlockHeader + 7) & ~std::uint64_t{7}) + kRedZone;
  if (block64 > 0xF0000000u || !room(block64)) raise_error(kOutOfMemory);
  auto block = static_cast<std::uint32_t>(block64);
  Ptr b = carve(block);
  init_block(b, block, type, mutator_colour_);
  std::memset(cage_.at(b + kBlockHeader), 0, block - kBlockHeader - kRedZone);
  count_alloc(stats_, block);
  if (watched_) [[unlikely]]
    after_alloc(b + kBlockHeader);
  return b + kBlockHeader;
}

void Heap::exhausted() {
  if (!exhausted_hook_ || exhausting_) return;
  exhausting_ = true;
  struct Reset {
    bool& b;
    ~Reset() { b = false; }
  } reset{exhausting_};
  exhausted_hook_(exhausted_ctx_);
}

void Heap::after_alloc(Ptr p) {
  if (block_observer_) block_observer_->allocated(p, *header(p));
  if (alloc_hook_) alloc_hook_(alloc_ctx_, p);
}

Ptr Heap::new_object(std::uint32_t type) {
  const TypeInfo& t = types_[type];
  const std::uint32_t block = ((t.size + kBlockHeader + 7) & ~7u) + kRedZone;
  // With fault injection every allocation goes through alloc(), which counts.
  if (!(t.flags & kSmallRecord) || watched_ || fault::kEnabled || !fits(block)) [[unlikely]] {
    Ptr p = alloc(type, t.size);
    init_record(cage_.at(p), type);
    return p;
  }
  // A small record (most `new`s): its free list popped here, its data
  // written once, zero words and H pointer slots from the type's bits.
  Ptr b = take_free(small_free_[block / 8], block);
  if (b == 0) b = carve_top(block);
  init_block(b, block, type, mutator_colour_);
  std::uint8_t* d = cage_.at(b + kBlockHeader);
  std::uint32_t bits = t.ptr_bits;
  for (std::uint32_t off = 0; off < block - kBlockHeader - kRedZone; off += 4, bits >>= 1)
    st<Ptr>(d + off, Ptr{0} - (bits & 1));
  count_alloc(stats_, block);
  return b + kBlockHeader;
}

Ptr Heap::alloc_stack(std::uint32_t bytes) {
  const std::uint64_t block64 =
      ((std::uint64_t{bytes} + kBlockHeader + 7) & ~std::uint64_t{7}) + kRedZone;
  if (block64 > 0xF0000000u || !room(block64)) raise_error(kOutOfMemory);
  const auto block = static_cast<std::uint32_t>(block64);
  Ptr b = carve(block);
  init_block(b, block, kTypeStack, 0)->magic = kStack;
  stats_.bytes_stacks += block;
  return b + kBlockHeader;
}

void Heap::free_stack(Ptr p) { free_block(p); }

void Heap::charge(std::uint64_t bytes) {
  if (!fits(bytes)) raise_error(kOutOfMemory);
  stats_.bytes_charged += bytes;
}

inline void Heap::free_block(Ptr p) {
  BlockHeader* h = header(p);
  std::uint32_t block = h->size;
  if (h->type != kTypeStack) {
    stats_.frees++;
    stats_.live_blocks--;
    stats_.bytes_live -= block;
  } else {
    stats_.bytes_stacks -= block;
  }
  if (p == scan_guard) scan_guard = H;
  h->magic = kFree;
  h->ref = 0;
  freed_since_trim_ += block;
  region_live_[region_index(p - kBlockHeader)] -= block;
  DIS_POISON(cage_.at(p), block - kBlockHeader);
  if (block <= kSmallMax)
    push_free(cage_, small_free_[block / 8], p - kBlockHeader);
  else {
    if (block >= kReleaseAtFree) stats_.bytes_returned += cage_.release(p, block - kBlockHeader);
    auto it = large_free_.find(block);
    if (it == large_free_.end()) {
      try {
        it = large_free_.emplace(block, 0).first;
      } catch (const std::bad_alloc&) {
        ++unlisted_free_;  // free but never reused: a trim may still cut it
        return;
      }
    }
    push_free(cage_, it->second, p - kBlockHeader);
  }
}

// The list without its blocks at or above new_top, in the same order.
Ptr Heap::cut_above(Ptr head, Ptr new_top) {
  Ptr first = 0;
  BlockHeader* last = nullptr;
  for (Ptr b = head; b != 0;) {
    BlockHeader* h = block_at(cage_, b);
    const Ptr next = h->type;
    if (b < new_top) {
      if (last)
        last->type = b;
      else
        first = b;
      last = h;
    }
    b = next;
  }
  if (last) last->type = 0;
  return first;
}

void Heap::trim() {
  freed_since_trim_ = 0;
  // Every block starting above region r is free; the last live block starts
  // in r, so only r's blocks are walked to find the new top.
  std::uint64_t r = (std::uint64_t{top_} - 1) >> kRegionShift;
  while (r > (kHeapStart >> kRegionShift) && region_live_[r] == 0) --r;
  if (top_ - (r << kRegionShift) < kTrimMin) return;  // the cut could not be worth it
  Ptr new_top = kHeapStart;
  if (region_live_[r] != 0) {
    const std::uint64_t region_end = (r + 1) << kRegionShift;
    for (Ptr p = region_first_[r]; p < top_ && p < region_end;) {
      const BlockHeader* h = header(p + kBlockHeader);
      if (h->magic != kFree) new_top = p + h->size;
      p += h->size;
    }
  }
  const Ptr old_top = top_;
  if (old_top - new_top < kTrimMin) return;
  // Large free blocks in the cut gave their data pages back when freed:
  // those pages are not counted twice.
  std::uint64_t already = 0;
  for (Ptr p = new_top; p < old_top;) {
    const BlockHeader* h = header(p + kBlockHeader);
    if (h->size >= kReleaseAtFree)
      already += Cage::page_span(p + kBlockHeader, h->size - kBlockHeader);
    p += h->size;
  }
  for (Ptr& head : small_free_)
    if (head != 0) head = cut_above(head, new_top);
  for (auto it = large_free_.begin(); it != large_free_.end();) {
    it->second = cut_above(it->second, new_top);
    it = it->second == 0 ? large_free_.erase(it) : std::next(it);
  }
  for (std::uint64_t q = region_index(new_top); q <= region_index(old_top - 1); ++q)
    if (region_first_[q] >= new_top) region_first_[q] = 0;
  set_top(new_top);
  if (sweep_cursor_ && *sweep_cursor_ > top_) *sweep_cursor_ = top_;
  // Memory above the top is as if never used: no poison, no pages.
  DIS_UNPOISON(cage_.at(new_top), old_top - new_top);
  stats_.bytes_returned += cage_.release(new_top, old_top - new_top) - already;
  stats_.extent = top_ - kHeapStart;
  stats_.trims++;
}

void Heap::copy_record(std::uint8_t* dst, const std::uint8_t* src, std::uint32_t type) {
  const TypeInfo& t = types_[type];
  for (std::uint32_t off : t.ptrs) incref(ld<Ptr>(src + off));
  // Records rarely hold more than a few pointers: no allocation per copy.
  boost::container::small_vector<Ptr, 8> old;
  old.reserve(t.ptrs.size());
  for (std::uint32_t off : t.ptrs) old.push_back(ld<Ptr>(dst + off));
  std::memmove(dst, src, t.size);
  for (Ptr o : old) decref(o);
}

inline void Heap::pend(Ptr p, BlockHeader* h) {
  h->magic = kPending;
  h->ref = pending_;
  pending_ = p;
}

inline void Heap::release_child(Ptr c) {
  if (c == H) return;
  BlockHeader* h = checked_header(c);
  if (!h) return;
  if (h->ref > 1)
    --h->ref;
  else
    pend(c, h);
}

void Heap::push_children(Ptr p) {
  BlockHeader* h = header(p);
  std::uint8_t* d = cage_.at(p);
  const TypeInfo& t = types_[h->type];
  switch (t.kind) {
    case TypeKind::Plain:
      for (std::uint32_t off : t.ptrs)
        if (off + 4 <= block_room(*h)) release_child(ld<Ptr>(d + off));
      break;
    case TypeKind::Array: {
      Ptr root = ld<Ptr>(d + 8);
      if (root != H) {
        release_child(root);
        break;
      }
      std::uint32_t et = ld<std::uint32_t>(d + 4);
      if (et >= types_.size()) break;
      const TypeInfo& e = types_[et];
      if (e.ptrs.empty() || e.size == 0) break;
      // The length word is Dis-writable: the block bounds the elements.
      auto n = static_cast<std::uint32_t>(std::max(ld<std::int32_t>(d), 0));
      n = std::min(n, (block_room(*h) - 16) / e.size);
      std::uint8_t* el = d + 16;
      for (std::uint32_t i = 0; i < n; ++i, el += e.size)
        for (std::uint32_t off : e.ptrs) release_child(ld<Ptr>(el + off));
      break;
    }
    case TypeKind::List: {
      std::uint32_t et = ld<std::uint32_t>(d + 4);
      if (et < types_.size())
        for (std::uint32_t off : types_[et].ptrs) release_child(ld<Ptr>(d + 8 + off));
      release_child(ld<Ptr>(d));
      break;
    }
    case TypeKind::Channel:
      if (hooks_) hooks_->free_channel(ld<std::uint32_t>(d));
      break;
    case TypeKind::Module:
      if (hooks_) hooks_->free_module(ld<std::uint32_t>(d + kModuleIndex));
      break;
    case TypeKind::String:
    case TypeKind::Stack:
      break;
  }
}

void Heap::collect(Ptr p) {
  BlockHeader* h = header(p);
  if (!refcounting_) {
    // Without counts the children are left to the collector; host state
    // (channels, module instances) is still released.
    TypeKind k = types_[h->type].kind;
    if (hooks_ && k == TypeKind::Channel) hooks_->free_channel(ld<std::uint32_t>(cage_.at(p)));
    if (hooks_ && k == TypeKind::Module)
      hooks_->free_module(ld<std::uint32_t>(cage_.at(p) + kModuleIndex));
    stats_.freed_collector++;
    if (block_observer_) [[unlikely]]
      block_observer_->freed(p, *h, true);
    finalize(p);
    free_block(p);
    return;
  }
  // Garbage may still be referenced by other garbage not yet swept. Freeing
  // it now would leave those referrers pointing at a block the mutator may
  // reuse, so the sweep only cuts its outgoing references (counts stay
  // exact) and the block goes when its own count reaches zero, which it does
  // once its referrers are swept in turn.
  h->spare = kCollected;
  destroying_ = true;  // releases inside the hooks join the pending list
  clear_children(p);
  run_destroy(false);  // timed as part of the step
}

void Heap::clear_children(Ptr p) {
  BlockHeader* h = header(p);
  std::uint8_t* d = cage_.at(p);
  const TypeInfo& t = types_[h->type];
  const std::uint32_t room = block_room(*h);
  auto cut = [&](std::uint8_t* slot) {
    Ptr v = ld<Ptr>(slot);
    st<Ptr>(slot, H);
    release_child(v);
  };
  switch (t.kind) {
    case TypeKind::Plain:
      for (std::uint32_t off : t.ptrs)
        if (off + 4 <= room) cut(d + off);
      break;
    case TypeKind::Array: {
      if (ld<Ptr>(d + 8) != H) {
        cut(d + 8);
        break;
      }
      std::uint32_t et = ld<std::uint32_t>(d + 4);
      if (et >= types_.size()) break;
      const TypeInfo& e = types_[et];
      if (e.ptrs.empty() || e.size == 0) break;
      auto n = static_cast<std::uint32_t>(std::max(ld<std::int32_t>(d), 0));
      n = std::min(n, (room - 16) / e.size);
      for (std::uint32_t i = 0; i < n; ++i)
        for (std::uint32_t off : e.ptrs) cut(d + 16 + std::uint64_t{i} * e.size + off);
      break;
    }
    case TypeKind::List: {
      std::uint32_t et = ld<std::uint32_t>(d + 4);
      if (et < types_.size())
        for (std::uint32_t off : types_[et].ptrs)
          if (8 + off + 4 <= room) cut(d + 8 + off);
      cut(d);
      break;
    }
    case TypeKind::Channel:
    case TypeKind::Module: {
      // The host entry goes now; the index must not name a reused one later.
      std::uint8_t* at = t.kind == TypeKind::Module ? d + kModuleIndex : d;
      std::uint32_t idx = ld<std::uint32_t>(at);
      st<std::uint32_t>(at, 0xFFFFFFFFu);
      if (hooks_ && t.kind == TypeKind::Channel) hooks_->free_channel(idx);
      if (hooks_ && t.kind == TypeKind::Module) hooks_->free_module(idx);
      break;
    }
    case TypeKind::String:
    case TypeKind::Stack:
      break;
  }
}

void Heap::incref_slow(Ptr p) {
  BlockHeader* h = checked_header(p);
  if (h == nullptr) raise_error("dereference of nil");
  barrier(h);
  ++h->ref;
}

void Heap::destroy(Ptr p) {
  // Hooks may release further objects while we destroy: those join the
  // same pending list instead of recursing.
  pend(p, header(p));
  if (destroying_) return;
  run_destroy(true);
}

void Heap::run_destroy(bool observed) {
  destroying_ = true;
  struct Done {  // a hook that throws leaves the rest pending (finish_pending)
    bool& destroying;
    ~Done() { destroying = false; }
  } done{destroying_};
  const bool notify = observed && free_observer_ != nullptr;
  if (notify) free_observer_->free_begin();
  std::uint64_t freed = 0;
  while (pending_ != 0) {
    const Ptr q = pending_;
    BlockHeader* h = header(q);
    pending_ = h->ref;
    h->magic = kLive;
    h->ref = 0;
    const TypeInfo& t = types_[h->type];
    // A record holding all its pointer slots (most frees) is released here,
    // without push_children's checks per slot; no hook runs meanwhile.
    if (t.kind == TypeKind::Plain && (t.flags & kPtrsInSize) && block_room(*h) >= t.size) {
      const std::uint8_t* d = cage_.at(q);
      for (std::uint32_t off : t.ptrs) release_child(ld<Ptr>(d + off));
      if (t.on_free) [[unlikely]]
        t.on_free(cage_.at(q));
    } else {
      push_children(q);
      finalize(q);
    }
    ++(h->spare == kCollected ? stats_.freed_collector : stats_.freed_refcount);
    if (block_observer_) [[unlikely]]
      block_observer_->freed(q, *h, h->spare == kCollected);
    free_block(q);
    ++freed;
  }
  destroying_ =
      false;  // before the observer and the trim, whose releases must run (Done: on a throw)
  if (notify) free_observer_->free_end(freed);
  if (observed) trim_point();  // a mutator release: no collector step is running
}

}  // namespace dis::vm
