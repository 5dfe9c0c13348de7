// The Count, Time and Sampled probe policies of the interpreter loop and the
// recorder behind them (issue `cost`, DESIGN decisions 5-6).
//
// A CostRecorder is installed in a VM (install()); from then on every
// scheduler slice runs interpret<> with the chosen policy. The policies'
// before() is inlined into the loop: Count adds one to a dense per-pc
// counter; Time reads the timestamp once per instruction (chained: the read
// closes the previous instruction and opens this one); Sampled counts every
// execution and times about one in N. All three watch the thread's current
// frame index and, only when it changes, update a shadow call stack for
// inclusive time per function and per call site.
//
// Time outside instruction bodies goes to named buckets: the gap between two
// slices is "scheduler" (or "idle" when the scheduler slept), less the GC
// events timed inside it ("gc.mark" / "gc.sweep" apportioned by the blocks
// each step marked and swept, "gc.roots", "gc.idle"). Builtin functions are
// wrapped so each call is timed into its own record ("Sys->print") while the
// time stays inside the mcall. Reference-count frees are counted, and one in
// kFreeSampleEvery is timed.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "gc.h"
#include "interp.h"
#include "probe_timing.h"
#include "runtime.h"

namespace dis::vm {

enum class ProbeMode : std::uint8_t { Count, Time, Sampled };

// Everything one costed run recorded for one program (module code).
struct ProgramRecords {
  const Program* program = nullptr;
  std::vector<std::uint64_t> counts;     // Count mode
  std::vector<ProbeRecord> records;      // Time and Sampled modes
  std::vector<std::int32_t> fn_entries;  // sorted entry pcs of Module::functions
};

struct ActivationTotals {
  std::uint64_t calls = 0, ticks = 0, instructions = 0;
};

class CostRecorder final : public SliceRunner, public GcObserver {
 public:
  static constexpr std::uint32_t kFreeSampleEvery = 64;

  // sample_every: Sampled mode's mean gap (ignored otherwise).
  CostRecorder(ProbeMode mode, Base base, std::uint32_t sample_every = 100);
  ~CostRecorder() override;

  // Routes the VM's slices through this recorder, observes its collector and
  // wraps its builtins. The recorder must outlive the VM's runs.
  void install(VM& vm);

  ProbeMode mode() const { return mode_; }
  std::uint64_t instructions() const { return instructions_; }
  // Records per program, in the order programs first ran.
  const std::vector<ProgramRecords>& programs() const { return programs_; }
  // (program index, function entry pc or -1) -> totals (outermost activations).
  const std::map<std::pair<std::uint32_t, std::int32_t>, ActivationTotals>& functions() const {
    return functions_;
  }
  // (caller program, call pc, callee program or -1, callee entry pc) -> totals.
  using SiteKey = std::tuple<std::uint32_t, std::int32_t, std::int32_t, std::int32_t>;
  const std::map<SiteKey, ActivationTotals>& sites() const { return sites_; }
  // Builtin calls by (caller program, call pc, builtin name).
  const std::map<std::tuple<std::uint32_t, std::int32_t, std::string>, ActivationTotals>&
  builtin_sites() const {
    return builtin_sites_;
  }
  const std::map<std::string, ProbeRecord>& buckets() const { return buckets_; }
  const std::map<std::string, ProbeRecord>& builtins() const { return builtins_; }
  const ProbeRecord& refcount_frees() const { return frees_; }

  // SliceRunner
  std::uint32_t run_slice(Impl& vm, Prog& p, std::uint32_t budget) override;
  // A blocking builtin released the interpreter: other slices run with fresh
  // timers meanwhile; resuming restores this slice's, so the mcall's open
  // interval closes with the wait inside it (kproc.h).
  void suspend_slice(Impl& vm, Prog& p) override;
  void resume_slice(Impl& vm, Prog& p) override;
  // GcObserver
  void gc_begin(GcEvent e) override;
  void gc_end(GcEvent e, const GcWork& work) override;

  // ---- used by the inlined policies ----
  struct Activation {
    std::uint32_t prog;
    std::int32_t fn;     // entry pc, -1 unknown
    std::int32_t frame;  // Prog::frames index
    bool outermost;
    std::int32_t site_prog, site_pc;  // -1: none
    std::uint64_t ticks, instructions;
  };
  struct ThreadState {
    std::int32_t cur_frame = -2;  // never a frame index: the first instruction enters
    std::vector<Activation> stack;
    std::uint64_t ticks = 0, instructions = 0;  // running totals of this thread
    std::map<std::pair<std::uint32_t, std::int32_t>, std::uint32_t> active;
  };
  struct Current {
    const Program* program = nullptr;
    std::uint32_t index = 0;
    std::uint64_t* counts = nullptr;
    ProbeRecord* records = nullptr;
  };
  void switch_program(const Program& pr, Current& cur);
  void frame_changed(Impl& vm, Prog& p, std::int32_t pc);

  ChainedTimer<> chained;
  SampledTimer<> sampled;
  std::uint64_t instructions_ = 0;
  ThreadState* thread_ = nullptr;  // of the running slice
  Current current_;

 private:
  std::uint64_t thread_ticks_now() const;
  void leave_one(ThreadState& t, std::uint64_t ticks, std::uint64_t instructions);
  void wrap_builtins(Impl& vm);
  ProbeRecord& bucket(const char* name) { return buckets_[name]; }

  ProbeMode mode_;
  Base base_;
  std::vector<ProgramRecords> programs_;
  std::unordered_map<const Program*, std::uint32_t> program_index_;
  std::vector<ThreadState> threads_;  // by Prog::id
  std::map<std::pair<std::uint32_t, std::int32_t>, ActivationTotals> functions_;
  std::map<SiteKey, ActivationTotals> sites_;
  std::map<std::tuple<std::uint32_t, std::int32_t, std::string>, ActivationTotals> builtin_sites_;
  std::map<std::string, ProbeRecord> buckets_;
  std::map<std::string, ProbeRecord> builtins_;
  ProbeRecord frees_;
  struct SuspendedSlice {
    ChainedTimer<> chained;
    SampledTimer<> sampled;
    Current current;
    std::uint64_t attr0, instr0;
  };
  std::map<std::uint32_t, SuspendedSlice> suspended_;  // by Prog::id
  // Slice bookkeeping.
  std::uint64_t slice_attr0_ = 0, slice_instr0_ = 0;
  std::uint64_t last_close_ = 0;
  bool have_close_ = false;
  bool idled_ = false;
  std::uint64_t gc_in_gap_ = 0;
  // GC events.
  std::uint64_t step_t0_ = 0, roots_t0_ = 0, idle_t0_ = 0, roots_in_step_ = 0;
  int idle_depth_ = 0;
  int free_depth_ = 0;
  std::uint32_t free_left_ = kFreeSampleEvery;
  std::uint64_t free_t0_ = 0;
  bool free_timing_ = false;
  Impl* vm_ = nullptr;
};

// ---- the policies (inlined into interpret<>) ----

struct ProbeCount {
  static constexpr bool active = true;
  CostRecorder& r;
  [[gnu::always_inline]] void before(Impl& vm, Prog& p, const Program& pr, std::int32_t pc) {
    if (&pr != r.current_.program) [[unlikely]]
      r.switch_program(pr, r.current_);
    ++r.current_.counts[pc];
    ++r.instructions_;
    if (p.cur != r.thread_->cur_frame) [[unlikely]]
      r.frame_changed(vm, p, pc);
  }
};

struct ProbeTime {
  static constexpr bool active = true;
  CostRecorder& r;
  [[gnu::always_inline]] void before(Impl& vm, Prog& p, const Program& pr, std::int32_t pc) {
    if (&pr != r.current_.program) [[unlikely]]
      r.switch_program(pr, r.current_);
    r.chained.begin(r.current_.records[pc]);
    ++r.instructions_;
    if (p.cur != r.thread_->cur_frame) [[unlikely]]
      r.frame_changed(vm, p, pc);
  }
};

struct ProbeSampled {
  static constexpr bool active = true;
  CostRecorder& r;
  [[gnu::always_inline]] void before(Impl& vm, Prog& p, const Program& pr, std::int32_t pc) {
    if (&pr != r.current_.program) [[unlikely]]
      r.switch_program(pr, r.current_);
    r.sampled.begin(r.current_.records[pc]);
    ++r.instructions_;
    if (p.cur != r.thread_->cur_frame) [[unlikely]]
      r.frame_changed(vm, p, pc);
  }
};

extern template void interpret<ProbeCount>(Impl&, Prog&, std::uint32_t&, ProbeCount&);
extern template void interpret<ProbeTime>(Impl&, Prog&, std::uint32_t&, ProbeTime&);
extern template void interpret<ProbeSampled>(Impl&, Prog&, std::uint32_t&, ProbeSampled&);

}  // namespace dis::vm
