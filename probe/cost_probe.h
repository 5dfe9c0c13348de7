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
// each step marked and swept, "gc.roots", "gc.idle"). Each GC step outside
// idle GC adds exactly one observation to gc.mark and one to gc.sweep (zero
// ticks when it did none of that work), each root marking one to gc.roots,
// so their counts equal the collector's. A GC step that runs inside an
// instruction (--gc=stress collects at every allocation) is taken out of
// that instruction's interval: it is in its bucket only. Builtin functions
// are wrapped so each call is timed into its own record ("Sys->print") while
// the time stays inside the mcall. Reference-count frees are counted, and
// one in kFreeSampleEvery is timed.
//
// The probes' own bookkeeping (the shadow call stack at calls and returns,
// the builtin wrapper's records) is followed by a fresh clock read and goes
// to the "probe" bucket (kProbeBucket), which is not part of the attributed
// total: it is time the plain run does not spend.
//
// The base (measure_interpreter_base): the cost of the real per-instruction
// probe path around an empty instruction, measured by running a stream of
// `runt` instructions (whose handler does nothing) through the same
// interpreter instantiation and recorder, so observation - base is the
// instruction's own time.
#pragma once

#include <pthread.h>

#include <cstdint>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "gc.h"
#include "interp.h"
#include "mem_profile.h"
#include "probe_timing.h"
#include "runtime.h"

// DIS_PROBES=0 (cmake -DDIS_PROBES=OFF sets it for interp_probes.cpp and
// cost_probe.cpp only): the policies below are declared but the interpreter
// is not instantiated over them; the recorder refuses to run.
#ifndef DIS_PROBES
#define DIS_PROBES 1
#endif

namespace dis::vm {

// False in a -DDIS_PROBES=OFF build (the cost tool then refuses to run).
bool probes_built();

enum class ProbeMode : std::uint8_t { Count, Time, Sampled };

// Everything one costed run recorded for one program (module code).
struct ActivationTotals {
  std::uint64_t calls = 0, ticks = 0, instructions = 0;
};

// Calls from one call pc (the callee seen first there; others go to a map).
struct SiteSlot {
  std::int32_t callee_prog = -1, callee_fn = -1;
  ActivationTotals totals;
};

struct ProgramRecords {
  const Program* program = nullptr;
  std::vector<std::uint64_t> counts;  // Count mode (gathered by programs())
  // Count and Sampled modes count in DInst::probe_count (gathered into
  // counts or records[i].count); per pc, the times a fused handler whose
  // followers' counts are derived declined to run fused.
  std::vector<std::uint64_t> declined;
  std::vector<ProbeRecord> records;      // Time and Sampled modes
  std::vector<std::int32_t> fn_entries;  // sorted entry pcs of Module::functions
  std::vector<std::uint32_t> fn_of_pc;   // per pc: its function index
  // Where this program's functions start in a thread's live-activation
  // counters (ThreadState::active).
  std::uint32_t fn_base = 0;
  // Per function index (fn_entries order; the last slot: code before the
  // first function), totals of its activations.
  std::vector<ActivationTotals> fn_totals;
  std::vector<SiteSlot> sites;  // per call pc
};

class CostRecorder final : public SliceRunner, public GcObserver, public FreeObserver {
 public:
  static constexpr std::uint32_t kFreeSampleEvery = 64;

  // sample_every: Sampled mode's mean gap (ignored otherwise). Per-pc
  // records and inclusive ticks are raw (the instruction base is applied
  // after the run: ProbeRecord::rebased, ticks - base x instructions);
  // buckets, builtins and frees have one clock read's cost subtracted.
  CostRecorder(ProbeMode mode, Base base, std::uint32_t sample_every = 100);
  const Base& base() const { return base_; }
  ~CostRecorder() override;

  // Routes the VM's slices through this recorder, observes its collector and
  // wraps its builtins. The recorder must outlive the VM's runs.
  void install(VM& vm);
  // Whether the shadow call stack is kept (inclusive time and instructions
  // per function and call site: functions(), sites()); on by default. A
  // report that shows none of it turns it off before the run, and calls
  // and returns then cost nothing beyond the plain run's.
  void track_calls(bool on) { calls_ = on; }
  bool tracks_calls() const { return calls_; }
  // Whether the shadow call stack also builds the call-path tree (paths():
  // a flame graph's data); off by default, and it needs track_calls. Each
  // call then finds its path's node (a cached last child, else a hash
  // lookup) out of line, in the probe's bookkeeping.
  void track_paths(bool on) { paths_on_ = on; }
  // The count view only: slices run under ProbeMem (every instruction
  // stepped on its own, none fused) and `m` charges each heap object to
  // the instruction that allocated it (mem_profile.h). Set before install();
  // finish() ends the profile.
  void track_memory(MemProfile* m) { mem_ = m; }
  MemProfile* memory() const { return mem_; }

  ProbeMode mode() const { return mode_; }
  std::uint64_t instructions() const { return instructions_; }
  // Records per program, in the order programs first ran.
  // (Count mode: gathers the counts from the hot counters first.)
  const std::vector<ProgramRecords>& programs() const;
  // (program index, function entry pc or -1) -> totals (outermost activations).
  std::map<std::pair<std::uint32_t, std::int32_t>, ActivationTotals> functions() const;
  // (caller program, call pc, callee program or -1, callee entry pc) -> totals.
  using SiteKey = std::tuple<std::uint32_t, std::int32_t, std::int32_t, std::int32_t>;
  std::map<SiteKey, ActivationTotals> sites() const;
  // Builtin calls by (caller program, call pc, builtin name). In Sampled
  // mode only the calls inside a sampled mcall are timed, and the ticks are
  // estimated from them (timed ticks x calls / timed calls).
  std::map<std::tuple<std::uint32_t, std::int32_t, std::string>, ActivationTotals> builtin_sites()
      const;
  // The call-path tree (track_paths): one node per distinct chain of
  // activations from a thread's first function, parents before children;
  // every activation's ticks and instructions go to its path's node (a
  // recursive call is a deeper node, so a node's totals never overlap its
  // siblings'). Chains deeper than kMaxPathDepth stop growing: the deeper
  // activations are inside their ancestor's totals only.
  static constexpr std::uint32_t kNoPath = 0xffffffffu;
  static constexpr std::size_t kMaxPathDepth = 256;
  struct PathNode {
    std::uint32_t parent = kNoPath;  // kNoPath: a thread's first function
    std::uint32_t prog = 0;          // program index (programs())
    std::int32_t entry = -1;         // the function's entry pc, -1: code before the first
    ActivationTotals totals;
    std::uint32_t last_child = kNoPath;  // the child found last (a cache)
  };
  const std::vector<PathNode>& paths() const { return paths_; }
  const std::map<std::string, ProbeRecord>& buckets() const { return buckets_; }
  const std::map<std::string, ProbeRecord>& builtins() const { return builtins_; }
  const ProbeRecord& refcount_frees() const { return frees_; }
  // Host preemption, in ns (0 in the count view): elapsed time less the
  // running host thread's CPU time, over batches of consecutive slices on
  // one host thread (about kBatchNs each, ended early by an idle sleep, a
  // release of the interpreter long enough to have slept, or a thread's
  // end; the short gaps between their slices and short releases included),
  // so the CPU clock, a system call, is read about once a millisecond
  // rather than twice a slice or a handover. Host time is no instruction's:
  // what can be found in one interval is moved to a bucket (kSuspectNs),
  // the rest is reported beside the records. Call finish() after the run to
  // close the last batch (records are complete only then).
  double preempted_ns() const { return preempted_ns_ > 0 ? preempted_ns_ : 0; }
  // Reads of a host thread's CPU clock by the batches (system calls).
  std::uint64_t cpu_clock_reads() const { return cpu_clock_reads_; }
  // Ticks recorded twice: a thread released in a blocking builtin keeps its
  // mcall's interval open over the wait (as in Dis), so whatever else is
  // recorded meanwhile (other threads' slices and the gaps before them, idle
  // GC) is also in that mcall, and two threads waiting at once cover the
  // same time twice. The records' and buckets' sum less this is the time
  // they cover.
  std::uint64_t overlap_ticks() const { return overlap_ticks_; }
  // Work between two slices that is no part of the run (the stream base's
  // calibration rounds), done from the VM's quantum hook between pause()
  // and resume(): its time is in no bucket, no batch and no gap, as if it
  // never ran. Only when pausable(): a timed view, after a slice, and no
  // thread released in a builtin (its mcall's open interval would hold
  // the work). hidden_ticks(): the ticks paused so far.
  bool pausable() const { return mode_ != ProbeMode::Count && have_close_ && suspended_.empty(); }
  void pause();
  void resume();
  std::uint64_t hidden_ticks() const { return hidden_ticks_; }
  void finish();
  static constexpr double kBatchNs = 1e6;
  // An instruction interval of at least kSuspectNs waits for its batch's
  // preemption to be measured; the batch's preemption is then taken out of
  // its longest such intervals (into the bucket kPreemptedBucket), and an
  // interrupt out of what is left (into kInterruptsBucket, probe_timing.h
  // Interrupts), so the per-instruction figures hold the instruction's own
  // time. A preemption spread thinner stays where it fell.
  static constexpr double kSuspectNs = 1e3;

  // SliceRunner
  std::uint32_t run_slice(Runtime& vm, Prog& p, std::uint32_t budget) override;
  // A blocking builtin released the interpreter: other slices run with fresh
  // timers meanwhile; resuming restores this slice's, so the mcall's open
  // interval closes with the wait inside it (kproc.h).
  void suspend_slice(Runtime& vm, Prog& p) override;
  void resume_slice(Runtime& vm, Prog& p) override;
  // GcObserver
  void gc_begin(GcEvent e) override;
  void gc_end(GcEvent e, const GcWork& work) override;
  FreeObserver* direct_free_observer() override { return this; }
  // FreeObserver: reference-count frees, counted, one in kFreeSampleEvery
  // timed.
  void free_begin() override;
  void free_end(std::uint64_t blocks) override;

  // ---- used by the inlined policies ----
  struct Activation {
    ActivationTotals* fn;    // the function's totals
    ActivationTotals* site;  // the call site's, or nullptr
    std::uint32_t active;    // its index in ThreadState::active
    std::int32_t frame;      // Prog::frames index
    std::uint64_t ticks, instructions;
    std::uint32_t path;  // its node in paths_, or kNoPath
  };
  struct ThreadState {
    std::int32_t cur_frame = -2;  // never a frame index: the first instruction enters
    std::vector<Activation> stack;
    std::uint64_t ticks = 0, instructions = 0;  // running totals of this thread
    // Live activations per function (fn_base + function index).
    std::vector<std::uint32_t> active;
  };
  struct Current {
    const Program* program = nullptr;
    std::uint32_t index = 0;
    std::uint64_t* declined = nullptr;
    ProbeRecord* records = nullptr;
  };
  [[gnu::noinline]] void switch_program(const Program& pr, Current& cur);
  // executed: instructions of the running slice so far, the current one
  // included (interpret<> counts them in its budget).
  [[gnu::noinline]] void frame_changed(Runtime& vm, Prog& p, std::int32_t pc,
                                       std::uint64_t executed);
  // After frame_changed in a timed mode: restart the open interval so the
  // bookkeeping lands in the probe bucket, not in the instruction.
  void probe_overhead(std::uint64_t ticks) { add_probe(ticks); }
  // Moves `ticks` of the probe's own work out of the open instruction
  // interval into the probe bucket.
  void probe_time(std::uint64_t ticks);

  ChainedTimer<> chained;
  SampledTimer<> sampled;
  std::uint64_t instructions_ = 0;  // of the slices finished
  ThreadState* thread_ = nullptr;   // of the running slice
  Current current_;

 private:
  std::uint64_t thread_ticks_now() const;
  void enter_one(Runtime& vm, Prog& p, ThreadState& t, std::int32_t pc, std::uint64_t ticks,
                 std::uint64_t instructions);
  void leave_one(ThreadState& t, std::uint64_t ticks, std::uint64_t instructions);
  ActivationTotals& site_totals(std::uint32_t site_prog, std::int32_t site_pc, std::uint32_t prog,
                                std::int32_t entry);
  void wrap_builtins(Runtime& vm);
  ProbeRecord& bucket(const char* name) { return buckets_[name]; }
  // The probe bucket's share of `ticks`; one long enough to hold a host
  // preemption waits for its batch's as an instruction's would, so the
  // preemption lands in its bucket, not in the bookkeeping.
  void add_probe(std::uint64_t ticks);
  ProbeRecord& gc_bucket(ProbeRecord*& slot, const char* name);

  std::uint32_t path_of(std::uint32_t parent, std::uint32_t prog, std::uint32_t fn);

  ProbeMode mode_;
  Base base_;
  MemProfile* mem_ = nullptr;
  bool calls_ = true;
  bool paths_on_ = false;
  std::vector<PathNode> paths_;
  // (parent + 1, program, function index) -> node, for children not cached.
  struct PathKey {
    std::uint32_t parent, prog, fn;
    bool operator==(const PathKey&) const = default;
  };
  struct PathKeyHash {
    std::size_t operator()(const PathKey& k) const noexcept {
      return (static_cast<std::size_t>(k.parent) * 0x9e3779b97f4a7c15u) ^
             (static_cast<std::size_t>(k.prog) << 32) ^ k.fn;
    }
  };
  std::unordered_map<PathKey, std::uint32_t, PathKeyHash> path_index_;
  std::vector<std::uint32_t> path_fn_;  // per node: its function index (the cache's check)
  mutable std::vector<ProgramRecords> programs_;
  std::unordered_map<const Program*, std::uint32_t> program_index_;
  std::uint32_t fn_slots_ = 0;                       // function slots of all programs (fn_base)
  std::vector<ThreadState> threads_;                 // by Prog::id
  std::map<SiteKey, ActivationTotals> extra_sites_;  // a second callee at one pc
  struct BuiltinSites {
    std::string name;
    struct Site {
      std::uint64_t calls = 0, timed = 0, ticks = 0;
    };
    std::map<std::pair<std::uint32_t, std::int32_t>, Site> by_site;
    // The site of the last call (map nodes do not move): a builtin called in
    // a loop finds its totals without a lookup.
    const Program* last_prog = nullptr;
    std::int32_t last_pc = -1;
    Site* last = nullptr;
    Site* site(const CostRecorder& r, const Program* prog, std::int32_t pc);
  };
  std::vector<std::unique_ptr<BuiltinSites>> builtin_sites_;
  std::map<std::string, ProbeRecord> buckets_;
  ProbeRecord* probe_bucket_ = nullptr;
  ProbeRecord *gc_mark_ = nullptr, *gc_sweep_ = nullptr, *gc_roots_ = nullptr, *gc_idle_ = nullptr;
  std::uint64_t read_ticks_ = 0;  // one clock read: the base of non-instruction timings
  bool in_slice_ = false;
  double preempted_ns_ = 0;
  struct CpuBatch {
    bool open = false;
    clockid_t clock{};
    pthread_t owner{};                  // the host thread whose CPU clock it reads
    std::uint64_t wall0 = 0, cpu0 = 0;  // ticks, CPU ns at its start
    std::uint64_t released_at = 0;      // ticks: its thread released the interpreter
  };
  CpuBatch batch_;
  std::uint64_t batch_ticks_ = 0;
  // A release this short never slept (a sleep and its wake-up take longer):
  // the batch goes on over it.
  static constexpr double kShortReleaseNs = 20000;
  std::uint64_t short_release_ticks_ = 0;
  std::uint64_t cpu_clock_reads_ = 0;
  bool own_batch() const;
  void open_batch(std::uint64_t now);
  void close_batch(std::uint64_t now);
  void init_timers();
  mutable std::vector<Suspect> suspects_;
  std::uint64_t suspect_ticks_ = 0;  // 0: nothing set aside (the count view)
  ProbeRecord spare_;                // the probe bucket of the count view (never reported)
  std::map<std::string, ProbeRecord> builtins_;
  ProbeRecord frees_;
  struct SuspendedSlice {
    ChainedTimer<>::Position chained;
    SampledTimer<>::State sampled;
    Current current;
    const Program* mem_program;  // the memory profile's running instruction
    const DInst* mem_at;
    std::uint64_t attr0;
    std::uint64_t bookkeeping;  // ticks suspend_slice took
  };
  std::map<std::uint32_t, SuspendedSlice> suspended_;  // by Prog::id
  // Ticks of suspend_slice and resume_slice inside the builtin call that
  // released the interpreter: its wrapper takes them out of its own timing.
  std::uint64_t release_bookkeeping_ = 0;
  // Slice bookkeeping.
  std::uint64_t slice_attr0_ = 0;
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
  Runtime* vm_ = nullptr;
  std::uint64_t overlap_ticks_ = 0;
  std::uint64_t waiting_since_ = 0;  // when suspended_ last changed
  // The running part of a slice: from its start or resumption to its end or
  // suspension. No other thread suspends or resumes meanwhile, so whether
  // one waits (its mcall holding the segment too) is known at the start.
  std::uint64_t segment_start_ = 0;
  bool segment_overlaps_ = false;
  void begin_segment(std::uint64_t now);
  void end_segment(std::uint64_t now);
  // Before suspended_ changes: the time since the last change, once for
  // each thread waiting beyond the first.
  void count_waits(std::uint64_t now);
  // pause(): when it began, and the scheduler's time since the last slice,
  // which stays in the next gap.
  std::uint64_t paused_at_ = 0, paused_gap_ = 0, hidden_ticks_ = 0;
};

// Times each scheduler slice of a plain run (the interpreter without probes,
// as the VM runs it) between two clock reads, so the VM's setup and the
// scheduler between slices stay outside: the plain side of the stream
// base's streams. Routes the VM's slices through itself until destroyed.
class PlainSliceTimer final : public SliceRunner {
 public:
  explicit PlainSliceTimer(VM& vm);
  ~PlainSliceTimer() override;
  PlainSliceTimer(const PlainSliceTimer&) = delete;
  PlainSliceTimer& operator=(const PlainSliceTimer&) = delete;
  std::uint64_t ticks() const { return ticks_; }
  std::uint64_t instructions() const { return instructions_; }
  std::uint32_t run_slice(Runtime& vm, Prog& p, std::uint32_t budget) override;

 private:
  Runtime& vm_;
  std::uint64_t ticks_ = 0, instructions_ = 0;
};

// ---- the policies (inlined into interpret<>: interp.h InlinedProbe) ----

// What every policy shares: the program switch and the out-of-line frame
// change (the shadow call stack).
struct ProbeCommon {
  CostRecorder& r;
  struct Hot {};
  Hot enter(std::uint32_t&) const noexcept { return {}; }
  static std::uint32_t leave(const Hot&, std::uint32_t budget) noexcept { return budget; }
  static std::uint32_t outside(const Hot&) noexcept { return 0; }
  static constexpr bool chunks = false;
  std::int32_t seen_frame() const noexcept { return r.thread_->cur_frame; }
  bool tracks_calls() const noexcept { return r.tracks_calls(); }
  [[gnu::always_inline]] void sync(const Program& pr) {
    if (&pr != r.current_.program) [[unlikely]]
      r.switch_program(pr, r.current_);
  }
};

// Count and Sampled modes' exact counts: one add inside the decoded
// instruction itself (no table, so no register holds where it is).
[[gnu::always_inline]] inline void count_in(const DInst* in) noexcept { ++in->probe_count; }

// What the count and sampled views share: exact counts in the code, fused
// pairs and triples run fused (the sampled view's chunk, the loop's budget,
// keeps a timed execution out of them), array fills counted in bulk.
struct ProbeCounting : ProbeCommon {
  static constexpr bool active = true;
  static constexpr bool fuses = true;
  // The counters are in the code: no slots to hold.
  struct Slots {};
  Slots slots(const Program& pr, const DInst*) {
    sync(pr);
    return {};
  }
  template <class Hot>
  [[gnu::always_inline]] static void step(const DInst* in, const DInst*, Slots, Hot&) noexcept {
    count_in(in);
  }
  template <class Hot>
  [[gnu::always_inline]] static void fused_step(const DInst* in, Slots, Hot&) noexcept {
    count_in(in);
  }
  template <class Hot>
  static constexpr bool can_fuse(const Hot&, std::uint32_t) noexcept {
    return true;
  }
  template <class Hot>
  static void fused_derived(Hot&, std::uint32_t) noexcept {}
  // `n` more executions of `in`, run without a step (an array fill's loop).
  static void bulk(const DInst* in, std::uint64_t n) noexcept { in->probe_count += n; }
  // A fused handler whose followers' counts are derived (derived_followers)
  // declined to run fused (the budget or the chunk ended), so the recorder
  // can take it off.
  void fused_declined(const DInst* in, const DInst* code) const noexcept {
    ++r.current_.declined[in - code];
  }
};

struct ProbeCount : ProbeCounting {
  void frame(Runtime& vm, Prog& p, std::int32_t pc, std::uint64_t executed) {
    r.frame_changed(vm, p, pc, executed);
  }
};

struct ProbeTime : ProbeCommon {
  static constexpr bool active = true;
  using Slots = ProbeRecord*;
  ProbeRecord* slots(const Program& pr, const DInst*) {
    sync(pr);
    return r.current_.records;
  }
  [[gnu::always_inline]] void step(const DInst* in, const DInst* code, Slots s, Hot&) noexcept {
    r.chained.begin(s[in - code]);
  }
  [[gnu::noinline]] void frame(Runtime& vm, Prog& p, std::int32_t pc, std::uint64_t executed) {
    r.frame_changed(vm, p, pc, executed);
    settle_before_read();
    r.probe_overhead(r.chained.restart());
  }
  // An array loop ran fused, as in the plain run: timing each of its
  // instructions alone would time code the plain run never executes (the
  // loop costs a fraction of a timer read per instruction there). Its one
  // interval is shared among its executions.
  [[gnu::noinline]] void bulk_timed(const DInst* code, Slots s, const BulkPart* parts,
                                    std::size_t n) noexcept {
    const auto ticks = static_cast<double>(r.chained.end_bulk());
    std::uint64_t all = 0;
    for (std::size_t i = 0; i < n; ++i) all += parts[i].n;
    if (all == 0) return;
    for (std::size_t i = 0; i < n; ++i) {
      const double share = static_cast<double>(parts[i].n) / static_cast<double>(all);
      s[parts[i].in - code].add_bulk(ticks * share, share, parts[i].n);
    }
  }
};

struct ProbeSampled : ProbeCounting {
  // Counts in the code as in Count mode; the record only at a sampling
  // event, found then through the recorder. The countdown to the sampled
  // timer's next event is the loop's own budget: the slice's budget is cut
  // into chunks that end where the countdown does, so a step is Count
  // mode's add and nothing else, and the event runs where a slice's end
  // would (chunk_end).
  struct Hot {
    std::uint32_t rest = 0;      // the slice's budget beyond the chunk
    std::uint32_t chunk = 0;     // the chunk's length
    std::uint32_t to_event = 1;  // the countdown when the chunk began
  };
  static constexpr bool chunks = true;
  // A chunk is what is left of the countdown before its last instruction,
  // or of the slice if that ends first.
  static void cut(Hot& h, std::uint32_t to_event, std::uint32_t& budget) noexcept {
    h.to_event = to_event;
    h.chunk = std::min(h.rest, to_event - 1);
    h.rest -= h.chunk;
    budget = h.chunk;
  }
  Hot enter(std::uint32_t& budget) const noexcept {
    Hot h;
    h.rest = budget;
    cut(h, r.sampled.countdown(), budget);
    return h;
  }
  std::uint32_t leave(const Hot& h, std::uint32_t budget) const noexcept {
    r.sampled.set_countdown(h.to_event - (h.chunk - budget));
    return budget + h.rest;
  }
  static std::uint32_t outside(const Hot& h) noexcept { return h.rest; }
  // The chunk is used up: unless the slice is too, the countdown ends at
  // `in`, which is counted and dispatched after the event.
  bool chunk_end(const DInst* in, const DInst* code, Hot& h, std::uint32_t& budget) const noexcept {
    if (h.rest == 0) return false;
    --h.rest;
    count_in(in);
    cut(h, r.sampled.event(r.current_.records[in - code]), budget);
    return true;
  }
  [[gnu::noinline]] void frame(Runtime& vm, Prog& p, std::int32_t pc, std::uint64_t executed) {
    r.frame_changed(vm, p, pc, executed);
    if (r.sampled.open()) {
      settle_before_read();
      r.probe_overhead(r.sampled.restart());
    }
  }
};

// The memory profile's (CostRecorder::track_memory): Count mode's exact
// counts in the code, every instruction stepped on its own (nothing fused,
// so no count is derived), and the running instruction kept where the
// heap's allocations find it.
struct ProbeMem : ProbeCommon {
  static constexpr bool active = true;
  struct Slots {};
  Slots slots(const Program& pr, const DInst*) {
    sync(pr);
    r.memory()->program = &pr;
    return {};
  }
  template <class Hot>
  [[gnu::always_inline]] void step(const DInst* in, const DInst*, Slots, Hot&) noexcept {
    count_in(in);
    r.memory()->at = in;
  }
  void frame(Runtime& vm, Prog& p, std::int32_t pc, std::uint64_t executed) {
    r.frame_changed(vm, p, pc, executed);
  }
};

// The base through the real probe path: a stream of `runt` instructions run
// by interpret<> under `mode`'s policy (Time, or Sampled timing every one),
// `instructions` of them; min exact, median from the histogram (within 1/16).
Base measure_interpreter_base(BasePolicy policy, ProbeMode mode,
                              std::uint32_t instructions = 200000);

// Each follows the protocol of interp.h as the loop expects it: all three
// count or time per instruction, Count and Sampled count fused handlers
// and array loops without leaving them, Time times an array loop's run as
// one interval, Sampled also cuts slices into chunks ending at its
// sampling events.
static_assert(FusingProbe<ProbeCount> && BulkProbe<ProbeCount> && !ChunkingProbe<ProbeCount>);
static_assert(InlinedProbe<ProbeTime> && !FusingProbe<ProbeTime> && !ChunkingProbe<ProbeTime> &&
              TimedBulkProbe<ProbeTime>);
static_assert(FusingProbe<ProbeSampled> && BulkProbe<ProbeSampled> && ChunkingProbe<ProbeSampled>);
static_assert(CallbackProbe<ProbeNone> && CallbackProbe<ProbeTrace> && !InlinedProbe<ProbeTrace>);
static_assert(InlinedProbe<ProbeMem> && !FusingProbe<ProbeMem> && !BulkProbe<ProbeMem> &&
              !ChunkingProbe<ProbeMem>);

extern template void interpret<ProbeCount>(Runtime&, Prog&, std::uint32_t&, ProbeCount&);
extern template void interpret<ProbeTime>(Runtime&, Prog&, std::uint32_t&, ProbeTime&);
extern template void interpret<ProbeSampled>(Runtime&, Prog&, std::uint32_t&, ProbeSampled&);
extern template void interpret<ProbeMem>(Runtime&, Prog&, std::uint32_t&, ProbeMem&);

}  // namespace dis::vm
