#include "mem_profile.h"

#include "timer.h"

namespace dis::vm {

const char* mem_kind_name(MemKind k) {
  switch (k) {
    case MemKind::Adt:
      return "adt";
    case MemKind::Array:
      return "array";
    case MemKind::List:
      return "list";
    case MemKind::String:
      return "string";
    case MemKind::Channel:
      return "channel";
    case MemKind::Module:
      return "module";
  }
  return "?";
}

namespace {

MemKind kind_of(TypeKind k) {
  switch (k) {
    case TypeKind::Array:
      return MemKind::Array;
    case TypeKind::List:
      return MemKind::List;
    case TypeKind::String:
      return MemKind::String;
    case TypeKind::Channel:
      return MemKind::Channel;
    case TypeKind::Module:
      return MemKind::Module;
    case TypeKind::Plain:
    case TypeKind::Stack:
      break;
  }
  // Records: adts, tuples, ref types, module data.
  return MemKind::Adt;
}

HeapStats minus(const HeapStats& a, const HeapStats& b) {
  HeapStats d = a;
  d.allocs -= b.allocs;
  d.frees -= b.frees;
  d.bytes_allocated -= b.bytes_allocated;
  d.freed_refcount -= b.freed_refcount;
  d.freed_collector -= b.freed_collector;
  return d;
}

}  // namespace

std::uint64_t MemSite::all_allocs() const {
  std::uint64_t n = 0;
  for (std::uint64_t a : allocs) n += a;
  return n;
}

std::uint64_t MemSite::all_bytes() const {
  std::uint64_t n = 0;
  for (std::uint64_t b : bytes) n += b;
  return n;
}

void MemSite::merge(const MemSite& o) {
  for (std::size_t k = 0; k < kNumMemKinds; ++k) {
    allocs[k] += o.allocs[k];
    bytes[k] += o.bytes[k];
  }
  freed_refcount += o.freed_refcount;
  freed_refcount_bytes += o.freed_refcount_bytes;
  freed_collector += o.freed_collector;
  freed_collector_bytes += o.freed_collector_bytes;
  live += o.live;
  live_bytes += o.live_bytes;
}

void MemProfile::install(Heap& heap, const Collector* gc) {
  heap_ = &heap;
  gc_ = gc;
  epoch_ = gc ? gc->epoch() : 0;
  at_install_ = heap.stats();
  heap.set_block_observer(this);
}

void MemProfile::finish() {
  if (!heap_) return;
  heap_->set_block_observer(nullptr);
  delta_ = minus(heap_->stats(), at_install_);
  for (const auto& [p, b] : blocks_) {
    ++b.site->live;
    b.site->live_bytes += b.bytes;
  }
  blocks_.clear();
  heap_ = nullptr;
}

MemSite& MemProfile::site_now() {
  if (!at || !program) return runtime_;
  if (program != last_program_) {
    auto [it, added] = sites_.try_emplace(program);
    if (added) it->second.resize(program->code.size());
    last_program_ = program;
    last_sites_ = &it->second;
  }
  const auto pc = static_cast<std::size_t>(at - program->code.data());
  return pc < last_sites_->size() ? (*last_sites_)[pc] : runtime_;
}

void MemProfile::allocated(Ptr p, const BlockHeader& h) {
  MemSite& s = site_now();
  const auto k = static_cast<std::size_t>(kind_of(heap_->type(h.type).kind));
  ++s.allocs[k];
  s.bytes[k] += h.size;
  blocks_[p] = {&s, h.size};
}

void MemProfile::freed(Ptr p, const BlockHeader& h, bool by_collector) {
  auto it = blocks_.find(p);
  if (it == blocks_.end()) return;  // allocated before install()
  MemSite& s = *it->second.site;
  if (by_collector) {
    ++s.freed_collector;
    s.freed_collector_bytes += h.size;
    ++open_.freed;
    open_.freed_bytes += h.size;
  } else {
    ++s.freed_refcount;
    s.freed_refcount_bytes += h.size;
  }
  blocks_.erase(it);
}

void MemProfile::gc_begin(GcEvent e) {
  if (e == GcEvent::Step && step_depth_++ == 0) step_t0_ = MonoClock::now();
}

void MemProfile::gc_end(GcEvent e) {
  if (e != GcEvent::Step || --step_depth_ != 0) return;
  ++open_.steps;
  open_.ns += MonoClock::now() - step_t0_;
  const std::uint64_t epoch = gc_ ? gc_->epoch() : epoch_;
  if (epoch != epoch_) {
    // The step ended an epoch: a whole cycle of the collector.
    epoch_ = epoch;
    cycles_.push_back(open_);
    open_ = {};
  }
}

}  // namespace dis::vm
