#include "heap.h"

#include <algorithm>
#include <cstring>

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
  small_free_.resize(kSmallMax / 8 + 1);
  auto special = [&](TypeKind k, const char* name, std::uint32_t size = 0) {
    TypeInfo t;
    t.kind = k;
    t.size = size;
    t.name = name;
    types_.push_back(std::move(t));
  };
  special(TypeKind::String, "string");
  special(TypeKind::Array, "array");
  special(TypeKind::List, "list");
  special(TypeKind::Channel, "chan", 4);
  special(TypeKind::Module, "module", 4);
  special(TypeKind::Stack, "stack");
  add_type(4, {0x80}, "ptr");
  add_type(0, {}, "none");
  add_type(1, {}, "byte");
  add_type(4, {}, "int");
  add_type(8, {}, "big");
}

Heap::~Heap() {
  walk([&](Ptr p, const BlockHeader& h) {
    if (h.magic == kLive && h.type < types_.size()) finalize(p);
  });
  DIS_UNPOISON(cage_.at(kHeapStart), top_ - kHeapStart);
}

std::uint32_t Heap::add_type(TypeInfo t) {
  types_.push_back(std::move(t));
  return static_cast<std::uint32_t>(types_.size() - 1);
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

Ptr Heap::carve(std::uint32_t block) {
  if (block <= kSmallMax) {
    auto& fl = small_free_[block / 8];
    if (!fl.empty()) {
      Ptr p = fl.back();
      fl.pop_back();
      return p;
    }
  } else {
    auto it = large_free_.find(block);
    if (it != large_free_.end() && !it->second.empty()) {
      Ptr p = it->second.back();
      it->second.pop_back();
      return p;
    }
  }
  std::uint64_t end = std::uint64_t{top_} + block;
  if (end >= Cage::kSize - 4096) raise_error("out of memory: heap");
  Ptr p = top_;
  top_ = static_cast<Ptr>(end);
  return p;
}

// Blocks handed out again lose their poison (the header never has any: the
// collector's walk reads it).
static inline void unpoison_block(Cage& cage, Ptr b, std::uint32_t block) {
  DIS_UNPOISON(cage.at(b + 16), block - 16);
  (void)cage;
  (void)b;
  (void)block;
}

Ptr Heap::alloc(std::uint32_t type, std::uint32_t bytes) {
  std::uint64_t block64 = (std::uint64_t{bytes} + 16 + 7) & ~std::uint64_t{7};
  if (block64 > 0xF0000000u || stats_.bytes_live + block64 > limit_)
    raise_error("out of memory: heap");
  auto block = static_cast<std::uint32_t>(block64);
  Ptr b = carve(block);
  unpoison_block(cage_, b, block);
  auto* h = reinterpret_cast<BlockHeader*>(cage_.at(b));
  h->ref = 1;
  h->type = type;
  h->size = block;
  h->colour = mutator_colour;
  h->magic = kLive;
  h->spare = 0;
  std::memset(cage_.at(b + 16), 0, block - 16);
  stats_.allocs++;
  stats_.live_blocks++;
  stats_.bytes_allocated += block;
  stats_.bytes_live += block;
  if (stats_.bytes_live > stats_.bytes_peak) stats_.bytes_peak = stats_.bytes_live;
  if (alloc_hook_) alloc_hook_(alloc_ctx_, b + 16);
  return b + 16;
}

Ptr Heap::new_object(std::uint32_t type) {
  const TypeInfo& t = types_[type];
  Ptr p = alloc(type, t.size);
  init_record(cage_.at(p), type);
  return p;
}

Ptr Heap::alloc_stack(std::uint32_t bytes) {
  std::uint32_t block = (bytes + 16 + 7) & ~7u;
  Ptr b = carve(block);
  unpoison_block(cage_, b, block);
  auto* h = reinterpret_cast<BlockHeader*>(cage_.at(b));
  h->ref = 1;
  h->type = kTypeStack;
  h->size = block;
  h->colour = 0;
  h->magic = kLive;
  h->spare = 0;
  return b + 16;
}

void Heap::free_stack(Ptr p) { free_block(p); }

void Heap::free_block(Ptr p) {
  BlockHeader* h = header(p);
  std::uint32_t block = h->size;
  if (h->type != kTypeStack) {
    stats_.frees++;
    stats_.live_blocks--;
    stats_.bytes_live -= block;
  }
  if (p == scan_guard) scan_guard = H;
  h->magic = kFree;
  h->ref = 0;
  DIS_POISON(cage_.at(p), block - 16);
  if (block <= kSmallMax)
    small_free_[block / 8].push_back(p - 16);
  else {
    if (block >= 64 * 1024) cage_.release(p, block - 16);
    large_free_[block].push_back(p - 16);
  }
}

void Heap::copy_record(std::uint8_t* dst, const std::uint8_t* src, std::uint32_t type) {
  const TypeInfo& t = types_[type];
  for (std::uint32_t off : t.ptrs) incref(ld<Ptr>(src + off));
  std::vector<Ptr> old;
  old.reserve(t.ptrs.size());
  for (std::uint32_t off : t.ptrs) old.push_back(ld<Ptr>(dst + off));
  std::memmove(dst, src, t.size);
  for (Ptr o : old) decref(o);
}

void Heap::release_child(Ptr c, std::vector<Ptr>& work) {
  if (c == H) return;
  BlockHeader* h = checked_header(c);
  if (!h) return;
  if (h->ref > 1)
    --h->ref;
  else
    work.push_back(c);
}

void Heap::push_children(Ptr p, std::vector<Ptr>& work) {
  BlockHeader* h = header(p);
  std::uint8_t* d = cage_.at(p);
  const TypeInfo& t = types_[h->type];
  switch (t.kind) {
    case TypeKind::Plain:
      for (std::uint32_t off : t.ptrs)
        if (off + 4 <= h->size - 16) release_child(ld<Ptr>(d + off), work);
      break;
    case TypeKind::Array: {
      Ptr root = ld<Ptr>(d + 8);
      if (root != H) {
        release_child(root, work);
        break;
      }
      std::uint32_t et = ld<std::uint32_t>(d + 4);
      if (et >= types_.size()) break;
      const TypeInfo& e = types_[et];
      if (e.ptrs.empty() || e.size == 0) break;
      auto n = static_cast<std::uint32_t>(ld<std::int32_t>(d));
      std::uint8_t* el = d + 16;
      for (std::uint32_t i = 0; i < n; ++i, el += e.size)
        for (std::uint32_t off : e.ptrs) release_child(ld<Ptr>(el + off), work);
      break;
    }
    case TypeKind::List: {
      std::uint32_t et = ld<std::uint32_t>(d + 4);
      if (et < types_.size())
        for (std::uint32_t off : types_[et].ptrs) release_child(ld<Ptr>(d + 8 + off), work);
      release_child(ld<Ptr>(d), work);
      break;
    }
    case TypeKind::Channel:
      if (hooks_) hooks_->free_channel(ld<std::uint32_t>(d));
      break;
    case TypeKind::Module:
      if (hooks_) hooks_->free_module(ld<std::uint32_t>(d));
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
    if (hooks_ && k == TypeKind::Module) hooks_->free_module(ld<std::uint32_t>(cage_.at(p)));
    stats_.freed_collector++;
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
  destroying_ = true;  // releases inside the hooks join work_
  clear_children(p, work_);
  run_destroy(false);  // timed as part of the step
}

void Heap::clear_children(Ptr p, std::vector<Ptr>& work) {
  BlockHeader* h = header(p);
  std::uint8_t* d = cage_.at(p);
  const TypeInfo& t = types_[h->type];
  const std::uint32_t room = h->size - 16;
  auto cut = [&](std::uint8_t* slot) {
    Ptr v = ld<Ptr>(slot);
    st<Ptr>(slot, H);
    release_child(v, work);
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
      std::uint32_t idx = ld<std::uint32_t>(d);
      st<std::uint32_t>(d, 0xFFFFFFFFu);
      if (hooks_ && t.kind == TypeKind::Channel) hooks_->free_channel(idx);
      if (hooks_ && t.kind == TypeKind::Module) hooks_->free_module(idx);
      break;
    }
    case TypeKind::String:
    case TypeKind::Stack:
      break;
  }
}

void Heap::destroy(Ptr p) {
  // Hooks may release further objects while we destroy: those join the
  // same work list instead of recursing.
  work_.push_back(p);
  if (destroying_) return;
  run_destroy(true);
}

void Heap::run_destroy(bool observed) {
  destroying_ = true;
  const bool notify = observed && free_observer_ != nullptr;
  if (notify) free_observer_->free_begin();
  std::uint64_t freed = 0;
  while (!work_.empty()) {
    Ptr q = work_.back();
    work_.pop_back();
    BlockHeader* h = header(q);
    if (h->magic != kLive) continue;
    h->ref = 0;
    push_children(q, work_);
    if (h->spare == kCollected)
      stats_.freed_collector++;
    else
      stats_.freed_refcount++;
    finalize(q);
    free_block(q);
    ++freed;
  }
  destroying_ = false;
  if (notify) free_observer_->free_end(freed);
}

}  // namespace dis::vm
