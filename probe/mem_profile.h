// The memory profile of a costed run (cost --mem; Inferno's mprof view):
// every heap object is charged to the instruction that allocated it (its
// program and pc, or the runtime when no instruction ran: loading, the
// scheduler), by kind, with the bytes of its block (header included, as
// HeapStats counts them); when it is freed, by reference counting or by
// the collector, its allocating instruction is credited with the free; what
// is still allocated when the run ends is live at exit. The collector's
// time is taken per cycle (an epoch: the colours rotate once).
//
// The heap tells of blocks through vm::BlockObserver; the instruction
// running is set by the count view's ProbeMem policy (cost_probe.h), which
// keeps the plain interpreter free of all of it.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <unordered_map>
#include <vector>

#include "gc.h"
#include "heap.h"
#include "runtime.h"

namespace dis::vm {

// The kinds an allocation is counted under (TypeKind less Stack).
enum class MemKind : std::uint8_t { Adt, Array, List, String, Channel, Module };
inline constexpr std::size_t kNumMemKinds = 6;
// "adt", "array", "list", "string", "channel", "module"
const char* mem_kind_name(MemKind k);

// What one allocating site (an instruction, or the runtime) did.
struct MemSite {
  std::array<std::uint64_t, kNumMemKinds> allocs{}, bytes{};
  std::uint64_t freed_refcount = 0, freed_refcount_bytes = 0;
  std::uint64_t freed_collector = 0, freed_collector_bytes = 0;
  std::uint64_t live = 0, live_bytes = 0;  // at the end of the run
  std::uint64_t all_allocs() const;
  std::uint64_t all_bytes() const;
  bool empty() const { return all_allocs() == 0; }
  void merge(const MemSite& o);
};

// One collector cycle: from the end of the last epoch to the end of this
// one (the last, still open at the end of the run, is not a cycle).
struct GcCycle {
  std::uint64_t steps = 0;
  std::uint64_t ns = 0;                      // the steps' time (root marking included)
  std::uint64_t freed = 0, freed_bytes = 0;  // by the collector
};

class MemProfile final : public BlockObserver {
 public:
  // Observes `heap` (and, for cycles, `gc`, which may be null); the
  // profile must outlive neither.
  void install(Heap& heap, const Collector* gc);
  // Stops observing, and counts what is still allocated as live.
  void finish();

  // The running instruction (ProbeMem sets them; at == nullptr: the
  // runtime's).
  const Program* program = nullptr;
  const DInst* at = nullptr;

  // The collector's step events (CostRecorder forwards them).
  void gc_begin(GcEvent e);
  void gc_end(GcEvent e);

  // BlockObserver
  void allocated(Ptr p, const BlockHeader& h) override;
  void freed(Ptr p, const BlockHeader& h, bool by_collector) override;

  // Per program that allocated, per pc of its code.
  const std::map<const Program*, std::vector<MemSite>>& sites() const { return sites_; }
  const MemSite& runtime() const { return runtime_; }
  const std::vector<GcCycle>& cycles() const { return cycles_; }
  // The open cycle's part: steps after the last epoch ended.
  const GcCycle& unfinished() const { return open_; }
  // The heap's own counters from install() to finish(): allocations,
  // their bytes, and frees by reference counting and by the collector.
  const HeapStats& heap_delta() const { return delta_; }

 private:
  MemSite& site_now();
  Heap* heap_ = nullptr;
  const Collector* gc_ = nullptr;
  HeapStats at_install_{};
  HeapStats delta_{};
  std::map<const Program*, std::vector<MemSite>> sites_;
  const Program* last_program_ = nullptr;
  std::vector<MemSite>* last_sites_ = nullptr;
  MemSite runtime_;
  struct Block {
    MemSite* site;
    std::uint32_t bytes;
  };
  std::unordered_map<Ptr, Block> blocks_;
  std::vector<GcCycle> cycles_;
  GcCycle open_;
  std::uint64_t epoch_ = 0;
  std::uint64_t step_t0_ = 0;
  int step_depth_ = 0;
};

}  // namespace dis::vm
