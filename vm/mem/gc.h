// The incremental tri-colour mark-sweep collector, in the style of Inferno's
// libinterp/gc.c (DIS-FACTS 6), over the heap of heap.h.
//
// Colours: propagator (3) is fixed; mutator, marker and sweeper rotate each
// epoch. A step (rungc) continues a linear walk over the heap's blocks:
// a propagator becomes mutator and its children are marked; a sweeper block
// is freed. The budget is adaptive (50..750 units, a unit being one block
// inspected or one pointer followed) unless fixed by Options::gc_quanta.
// At a quantum's end it also pays an allocation debt (as Lua's collector
// does): each block the heap gained since the last step owes `rate` units,
// set at every epoch's end to that epoch's work over the blocks it marked
// (at least 32768), so the next epoch ends before the heap gains as many
// blocks as were live and garbage (freed two epochs after it was made)
// stays a bounded share of the heap (as Lua's pause of 200%). A step pays at most 48000 units of it
// unless the debt exceeds a whole epoch's work: then all at once.
// When a pass over the whole heap made no propagator the epoch ends: the
// colours rotate and the roots (every thread's frames through their type
// maps, the modules they run, pinned pointers) become propagators.
// Differences from Inferno: large pointer arrays are scanned resumably
// across steps, marking follows children depth-first through a small stack
// (Inferno recurses 64 deep), and a collector free releases the children's
// counts so reference counts stay exact.
//
// Rest between epochs (not in Inferno, whose collector steps at every
// quantum): under --gc=dis an epoch finished by a quantum end's step waits,
// its colours not yet rotated, until the heap has made max(1024, live
// blocks / 4) more allocations; quantum ends meanwhile run no step. Garbage
// the counts miss (cycles) can only pile up through allocation, so this
// bounds it as Lua's pause does, while a program whose garbage the counts
// free (most) no longer pays an epoch, its root scan and a barrier on every
// block's first incref every few quanta: List ran 35,720 epochs in 0.8 s.
// Any other step (idle, step(), a full collection) ends the rest first;
// --gc=ms and --gc=stress never rest. (It replaced a rule that skipped steps
// only after three epochs with nothing allocated or freed.)
// Safe points: steps run only between scheduler quanta (or at idle), where
// no C++ code holds heap pointers. Stress mode collects at every allocation
// and keeps every block allocated since the last quantum alive; its
// collections inside an instruction verify everything but the reference
// counts, its quantum-end steps verify the counts too.
// Verification (Options::gc_verify = N > 0): the heap verifier runs after
// every Nth step and at the end of every epoch (a pass over the whole heap,
// so it costs about what the epoch did), once at the end of each full
// collection (the one after an out-of-memory error included) and at the
// program's end (verify_at_exit). N = 1 verifies after every step.
// Emergency collection: an allocation that would pass the heap limit first
// gets a full collection (off a safe point, the blocks made since the last
// one kept as stress mode keeps them) and is tried once more.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "heap.h"

namespace dis::vm {

enum class GcMode : std::uint8_t {
  Dis,        // reference counting plus the incremental collector
  MarkSweep,  // no reference counts: the collector reclaims everything
  Stress,     // as Dis, plus a full collection at every allocation
};

// What the probes time: each step, the root marking inside a step, each idle
// episode (containing steps) and each reference-count destruction.
enum class GcEvent : std::uint8_t { Step, RootSet, Idle, Free };

// Work done by one event: blocks marked (propagators scanned), swept
// (freed by the collector), inspected (walked), and pointers followed.
struct GcWork {
  std::uint64_t marked = 0, swept = 0, inspected = 0, followed = 0, freed = 0;
};

// Implemented by the cost tool. Called at the start and end of each event;
// the observer reads its own clock. Events nest: RootSet inside Step, Step
// inside Idle. Must not touch the Dis heap.
struct GcObserver {
  virtual ~GcObserver() = default;
  virtual void gc_begin(GcEvent e) = 0;
  virtual void gc_end(GcEvent e, const GcWork& work) = 0;
  // An observer that also takes Free events straight from the heap (one
  // virtual call each instead of two: a string-heavy program frees every
  // few instructions) returns itself; otherwise the collector bridges them
  // to gc_begin/gc_end.
  virtual FreeObserver* direct_free_observer() { return nullptr; }
};

struct GcStats {
  std::uint64_t steps = 0, epochs = 0, passes = 0;
  std::uint64_t inspected = 0, marked = 0, followed = 0;
  std::uint64_t freed_refcount = 0, freed_collector = 0;
  std::uint64_t bytes_allocated = 0, bytes_live = 0, bytes_peak = 0, live_blocks = 0;
  std::uint64_t extent = 0, extent_peak = 0, bytes_returned = 0, trims = 0;  // HeapStats
  std::uint64_t idle_episodes = 0, idle_steps = 0, full_collections = 0;
  std::uint64_t emergency_collections = 0;  // at an allocation that would fail
  std::uint64_t rested_quanta = 0;          // quantum ends that ran no step: resting between epochs
  std::uint64_t verify_runs = 0, verify_failures = 0;
  std::uint64_t verify_count_runs = 0;  // runs that also recounted references
  std::string first_verify_error;
};

// An observer that records the duration of every step (for `dis
// --gc-step-times` and perf/gc): report() gives count, percentiles and max.
class GcStepTimes : public GcObserver {
 public:
  void gc_begin(GcEvent e) override;
  void gc_end(GcEvent e, const GcWork& work) override;
  std::string report() const;

 private:
  std::chrono::steady_clock::time_point start_[4];
  std::vector<std::uint64_t> steps_, idle_;
  std::uint64_t max_work_ = 0;
};

// Prints the counters, one "name value" line each.
std::string format_gc_stats(const GcStats& s);
// "dis", "ms", "stress" -> mode; false for anything else.
bool parse_gc_mode(const std::string& name, GcMode& mode);

class Collector {
 public:
  // `host` gives the roots and the host side of channels and modules.
  // verify_every: 0 no verification, N verifies as above.
  Collector(Heap& heap, HeapHooks& host, GcMode mode, std::uint32_t fixed_quanta,
            std::uint32_t verify_every);
  ~Collector();
  Collector(const Collector&) = delete;
  Collector& operator=(const Collector&) = delete;

  GcMode mode() const { return mode_; }
  // One increment (rungc); nothing while halted.
  void step();
  // The scheduler's hook after each quantum.
  void quantum_end();
  // Idle GC: up to three epochs, stopping at `deadline` (when a sleeper
  // wakes) or when `interrupted` (asked after each step) says so.
  void idle(std::chrono::steady_clock::time_point deadline,
            const std::function<bool()>& interrupted = {});
  // Frees everything unreachable now (completes the epoch and two more).
  // Off a safe point (inside an instruction or a builtin, where a count may
  // be one off until the instruction ends) the verifier skips the counts.
  void full_collect(bool safe_point = true);
  // With verification on, verifies the heap now (halted or not): the
  // program has ended. Off a safe point the counts are not checked.
  void verify_at_exit(bool safe_point);

  void halt() { ++halt_; }  // Bench->disablegc()
  void resume() {           // Bench->enablegc()
    if (halt_ > 0) --halt_;
  }
  bool halted() const { return halt_ > 0; }

  // Extra roots held by the host (Inferno's ptradd).
  void pin(Ptr p) { pinned_.push_back(p); }
  void unpin(Ptr p);

  void set_observer(GcObserver* o);
  GcStats stats() const;
  std::uint32_t quanta() const;  // the budget of the next step
  // Colours of the current epoch.
  std::uint8_t mutator() const;
  std::uint8_t marker() const;
  std::uint8_t sweeper() const;
  std::uint64_t epoch() const { return colour_epoch_; }

 private:
  struct FreeBridge;
  void rootset();
  void mark_root(Ptr p);
  void grey(Ptr p);
  // Scans a propagator's children; false when the budget ran out inside a
  // large array (resumed by the next step).
  bool scan(Ptr p, std::int64_t& budget);
  bool scan_array(Ptr p, std::uint32_t from, std::int64_t& budget);
  void drain(std::int64_t& budget);
  void end_pass();
  void next_epoch();  // the colours rotate, the roots become propagators
  void run_step(std::int64_t budget);
  void pace_epoch_end();
  void verify_now();
  static void on_alloc(void* self, Ptr p);
  static void on_exhausted(void* self);

  Heap& heap_;
  Cage& cage_;
  HeapHooks& host_;
  GcMode mode_;
  std::uint32_t fixed_quanta_;
  std::uint32_t verify_every_;
  bool verify_due_ = false;         // an epoch ended in this step
  bool collecting_all_ = false;     // inside full_collect: it verifies at its end
  std::uint64_t colour_epoch_ = 3;  // Inferno's gccolor
  Ptr cursor_ = kHeapStart;         // next block of the walk
  std::int64_t gce_ = 0, gct_ = 0;  // adaptive budget inputs, since the epoch began
  int halt_ = 0;
  bool in_step_ = false;
  bool mid_instruction_ = false;  // collecting off a safe point
  std::vector<Ptr> stack_;        // propagators behind the cursor to scan now
  Ptr partial_ = H;               // array whose elements are being scanned
  std::uint32_t partial_next_ = 0;
  std::vector<Ptr> pinned_;
  std::uint64_t live_at_step_ = 0;  // live blocks after the last quantum's step
  std::int64_t debt_ = 0;           // units of work owed for the heap's growth
  std::int64_t rate_ = 4;           // units owed per block gained (pace_epoch_end)
  std::uint64_t epoch_units_ = 0, epoch_marked_ = 0;  // since the epoch began
  std::uint64_t last_epoch_units_ = 0;
  std::uint64_t epoch_swept_ = 0;   // blocks swept since the epoch began
  std::uint64_t epoch_passes_ = 0;  // passes when the epoch began
  bool may_rest_ = false;           // the step is a quantum end's (under --gc=dis)
  bool resting_ = false;            // an epoch finished; the next waits for rest_until_
  std::uint64_t rest_until_ = 0;    // the heap's allocation count that ends the rest
  std::vector<Ptr> fresh_;          // stress mode: allocated since the last safe point
  bool unlisted_ = false;           // a block since the safe point is missing from fresh_
  GcObserver* observer_ = nullptr;
  FreeBridge* bridge_ = nullptr;
  GcWork work_;  // of the current step
  GcStats stats_;
};

}  // namespace dis::vm
