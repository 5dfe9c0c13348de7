// Hot-path helpers for the Count and Time probe policies, independent of the
// interpreter's internals, so a policy is a few lines around them.
//
// ChainedTimer: one timestamp read per instruction; each read closes the
// previous instruction's interval (recorded raw: the base is subtracted
// when the records are reported, ProbeRecord::rebased) and opens the next
// one's. close() ends the open interval without
// opening another: call it wherever time must stop belonging to an
// instruction (end of a slice before a GC step or scheduler switch, a
// blocking builtin releasing the interpreter), then time the outside work
// into a bucket and begin() again. Every begin() is eventually closed by the
// next begin() or a close(), so counts stay exact.
//
// SampledTimer: counts every execution exactly, times about one in N: runs
// of kBurst consecutive executions, whose starts are random gaps of mean
// kBurst x N apart (so no loop period can alias with the sampling, and
// every execution has the same 1/N chance of being timed).
//
// CallTracker: a shadow call stack per Dis thread for inclusive time per
// function (outermost activations only, so recursion is not counted twice)
// and per call site (every activation, as callgrind expects). Callers pass
// running totals of *attributed* ticks and instructions of that thread, so
// inclusive and exclusive times are on the same footing (base subtracted,
// probe overhead excluded).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "probe_base.h"
#include "probe_record.h"
#include "timer.h"

namespace dis::vm {

// The bucket of the probes' own bookkeeping (cost_probe.h): reported, but
// not part of the attributed total.
inline constexpr const char* kProbeBucket = "probe";
// The bucket of host preemption taken out of instruction intervals.
inline constexpr const char* kPreemptedBucket = "preempted";
// The bucket of the guest kernel's time (interrupts, faults) found inside
// instruction intervals: see Interrupts.
inline constexpr const char* kInterruptsBucket = "interrupts";

// A clock read, and its low 32 bits as the clock gave them.
struct Split {
  std::uint64_t full;
  std::uint32_t low;
};

// Clock::now_split() if the clock has one, else now() split.
template <class Clock>
[[gnu::always_inline]] inline Split read_split() noexcept {
  if constexpr (requires { Clock::now_split(); }) {
    return Clock::now_split();
  } else {
    const std::uint64_t t = Clock::now();
    return {t, static_cast<std::uint32_t>(t)};
  }
}

// The run-time-chosen clock (one predictable branch per read).
// The plain TSC read is laid out as the expected path (inline, no jump out
// and back); the other reads go through now_ticks().
struct DefaultClock {
  static std::uint64_t now() noexcept {
#if DIS_HAVE_TSC
    if (detail::g_clock.load(std::memory_order_relaxed) == ClockRead::TscPlain) [[likely]]
      return __rdtsc();
#endif
    return now_ticks();
  }
  // The same read with its low 32 bits apart: from `rdtsc`, EAX before it
  // is joined to EDX (see ChainedTimer::begin).
  static Split now_split() noexcept {
#if DIS_HAVE_TSC
    if (detail::g_clock.load(std::memory_order_relaxed) == ClockRead::TscPlain) [[likely]] {
      std::uint32_t lo, hi;
      asm volatile("rdtsc" : "=a"(lo), "=d"(hi));
      return {(std::uint64_t{hi} << 32) | lo, lo};
    }
#endif
    const std::uint64_t t = now_ticks();
    return {t, static_cast<std::uint32_t>(t)};
  }
};

// Waits for the instructions before it to complete before a clock read that
// ends the probe's own bookkeeping (the shadow call stack, a builtin call's
// records): the TSC read does not wait, so without it the bookkeeping's tail
// ran on into the interval of the instruction after each call and return
// (perf/LOG.md, "Figures moved out of the code"). Off the per-instruction path:
// one fence per call, return or builtin call.
[[gnu::always_inline]] inline void settle_before_read() noexcept {
#if DIS_HAVE_TSC
  _mm_lfence();
#endif
}

// An interval long enough to hold a host preemption, kept out of its record
// until the preemption measured around it is known (CostRecorder settles
// it: the preempted part goes to a bucket, the rest to the record).
struct Suspect {
  ProbeRecord* rec;
  std::uint64_t ticks;
  bool counted;  // a chained interval (an execution); else a sampled observation
};

// Interrupts: the kernel's timer tick and device interrupts land at random
// in the run and are charged to the thread's CPU time (without
// IRQ_TIME_ACCOUNTING nothing tells them apart), at 1.2 us to tens of
// microseconds each under a hypervisor. The timed run is ten to thirty times longer
// than the plain one, so it holds that many times more of them: about 1% of
// a sieve's timed intervals, a third of its plain run time. An interval is
// taken as interrupted when it is at least `ticks` long and at least
// kFactor times its record's p99.9 so far, on a record with at least
// kMinTimed observations (so the p99.9 is the instruction's own: a hot pc
// is interrupted once in about 10^5 executions); it keeps its record's
// median, and the rest goes to `bucket`. A legitimately slow execution
// rarer than one in a thousand of its pc (a large free) is taken too.
struct Interrupts {
  static constexpr std::uint64_t kMinTimed = 1000;
  static constexpr std::uint64_t kFactor = 16;
  ProbeRecord* bucket = nullptr;  // nullptr: nothing is taken
  std::uint64_t ticks = 0;
};

// Settles intervals set aside against `preempted` ticks of host preemption
// measured around them: longest first (one preemption of a millisecond or
// more lands whole in one interval, then the longest), each gives to
// `bucket` what it took beyond its record's minimum so far (all of it when
// the record has none) until the preemption is used up; then what is left
// of an interrupted one goes to `interrupts.bucket` beyond its record's
// median; the rest to its record. Empties `suspects`.
void settle_suspects(std::vector<Suspect>& suspects, double preempted, ProbeRecord& bucket,
                     Interrupts interrupts = {});

// The interval a timer has open, if any, and the queue of closed ones:
// what ChainedTimer and SampledTimer share. Closed intervals are queued
// (record, ticks), and the statistics added to the records in a batch (when
// the queue is full, the batch timed into the overhead record, not into any
// instruction; and at flush()), so their work is not done in the shadow of
// the timestamp read. `kCounted`: each interval is an execution (add), or
// an observation of one counted elsewhere (observe).
template <class Clock, std::uint32_t kQueueLength, bool kCounted>
class OpenInterval {
 public:
  static constexpr std::uint32_t kQueue = kQueueLength;
  // Where the time of a batch goes (the probe bucket), or nowhere.
  void set_overhead(ProbeRecord* r) noexcept { overhead_ = r; }
  // Adds the queued intervals to their records.
  void flush() {
    for (std::uint32_t i = 0; i < queued_; ++i)
      record_interval(queue_[i].rec, queue_[i].ticks, kCounted);
    queued_ = 0;
  }
  // Intervals of at least `ticks` go to `sink` instead of their records;
  // nullptr (the default) records every interval as it is.
  void set_suspects(std::vector<Suspect>* sink, std::uint64_t ticks) noexcept {
    suspects_ = sink;
    suspect_ticks_ = sink ? ticks : ~std::uint64_t{0};
  }
  bool open() const noexcept { return open_ != nullptr; }
  // Where the timer stands, without its queue: what a slice suspended over
  // a release keeps. The queue is kilobytes, and copying whole timers at
  // each release took about a microsecond of BASE's handovers and evicted
  // the interpreter's working set. position() wants the queue flushed;
  // set_position() flushes what is queued before it moves.
  struct Position {
    ProbeRecord* open = nullptr;
    std::uint64_t start = 0;
    std::uint64_t skipped = 0;
  };
  Position position() const noexcept { return {open_, start_, skipped_}; }
  void set_position(const Position& p) {
    flush();
    open_ = p.open;
    start_ = p.start;
    skipped_ = p.skipped;
  }
  // Restarts the open interval now (after probe bookkeeping that must not
  // be charged to the instruction); returns the ticks since it began, 0 if
  // none is open.
  std::uint64_t restart() noexcept {
    if (!open_) return 0;
    std::uint64_t now = Clock::now();
    std::uint64_t d = now > start_ ? now - start_ : 0;
    move_start(now);
    return d;
  }
  // Takes `ticks` out of the open interval (work timed into a bucket while
  // an instruction ran, e.g. a GC step in stress mode, or a probe's own
  // bookkeeping inside a builtin call).
  void exclude(std::uint64_t ticks) noexcept {
    if (open_) move_start(start_ + ticks);
  }

 protected:
  // The start moved by anything but a recorded interval: the ticks skipped
  // are no instruction's (modulo 2^64, so a move backwards is exact too).
  void move_start(std::uint64_t to) noexcept {
    skipped_ += to - start_;
    start_ = to;
  }
  // start_ - skipped_ is the sum of the intervals recorded (ChainedTimer).
  std::uint64_t skipped_ = 0;
  // The open interval's length at `now`, minus `base`, never below zero.
  std::uint64_t length(std::uint64_t now, std::uint64_t base) const noexcept {
    return now > start_ ? minus_base(now - start_, base) : 0;
  }
  // Records an interval (outside the timed path), or sets it aside.
  void record_interval(ProbeRecord* rec, std::uint64_t ticks, bool counted) {
    if (ticks >= suspect_ticks_) [[unlikely]]
      suspects_->push_back({rec, ticks, counted});
    else if (counted)
      rec->add(ticks);
    else
      rec->observe(ticks);
  }
  // Queues the open interval as `ticks`; true when the queue is full.
  [[gnu::always_inline]] bool queue_closed(std::uint64_t ticks) noexcept {
    queue_[queued_] = {open_, ticks};
    return ++queued_ == kQueue;
  }
  // A full queue, at `now`: adds the batch; returns the tick after it.
  [[gnu::noinline]] std::uint64_t drain_queue(std::uint64_t now) noexcept {
    flush();
    const std::uint64_t after = Clock::now();
    // A preemption here is set aside as an instruction's would be.
    if (overhead_) record_interval(overhead_, after > now ? after - now : 0, true);
    return after;
  }
  ProbeRecord* open_ = nullptr;
  std::uint64_t start_ = 0;
  std::vector<Suspect>* suspects_ = nullptr;
  std::uint64_t suspect_ticks_ = ~std::uint64_t{0};

 private:
  struct Closed {
    ProbeRecord* rec;
    std::uint64_t ticks;
  };
  std::uint32_t queued_ = 0;
  ProbeRecord* overhead_ = nullptr;
  Closed queue_[kQueue];
};

// The hot path keeps no running total: the ticks recorded so far are
// start_ - skipped_ (every interval recorded moves the start by its own
// length; anything else that moves the start adds to skipped_). Nor does it
// update the statistics (OpenInterval's queue). After close() the records
// are complete once settled (ProbeRecord::settle()).
template <class Clock = DefaultClock>
class ChainedTimer : public OpenInterval<Clock, 256, true> {
  using Base = OpenInterval<Clock, 256, true>;
  using Base::open_;
  using Base::skipped_;
  using Base::start_;

 public:
  // Before an instruction whose record is `rec`.
  [[gnu::always_inline]] void begin(ProbeRecord& rec) noexcept {
    const Split read = read_split<Clock>();
    std::uint64_t now = read.full;
    // A short interval is one add to its record's tally; a long one (or a
    // clock that went back) is queued, and nothing is open after close().
    // The tally's address comes from this read, and on an AMD EPYC that
    // holds the next read back until this one is done: reads then no longer
    // overlap each other or the instruction between them. Tallying one step
    // later made a step cheaper there, but the reads ran ahead and the
    // stream base no longer matched. The tally's index is t, taken from the
    // read's low half: the next read waits for the address, and the low
    // half comes without the shift and or that join EDX:EAX. (Figures:
    // perf/LOG.md, "Figures moved out of the code".)
    const std::uint64_t t = now - start_;
    if (t < ProbeRecord::kTally && open_) [[likely]]
      open_->add_tallied(read.low - static_cast<std::uint32_t>(start_));
    else
      now = begin_long(now);
    open_ = &rec;
    start_ = now;
  }
  // Ends the open interval, if any, and adds the queued ones to their
  // records (short ones wait in the tally); returns the tick at which it
  // ended (the start of whatever is timed next; the batch is after it).
  std::uint64_t close() noexcept {
    const std::uint64_t now = Clock::now();
    if (open_) {
      if (now - start_ < ProbeRecord::kTally)
        open_->add_tallied(now - start_);
      else
        queue(now);
      start_ = now;
    }
    open_ = nullptr;
    this->flush();
    return now;
  }
  // Ends the open interval without recording it and returns its ticks
  // (the caller records them: a fused loop's run, shared among its pcs);
  // they count as recorded. Nothing is open after it: the next begin()
  // starts afresh, the time between being no instruction's.
  std::uint64_t end_bulk() noexcept {
    const std::uint64_t now = Clock::now();
    std::uint64_t t = 0;
    if (open_) {
      if (now >= start_)
        t = now - start_;
      else
        skipped_ += now - start_;  // a clock that went back: nothing recorded
      start_ = now;
    }
    open_ = nullptr;
    return t;
  }
  // Sum of the (raw) ticks recorded so far, queued included.
  std::uint64_t attributed() const noexcept { return start_ - skipped_; }

 private:
  // Queues the open interval ending at `now`; true when the queue is full.
  [[gnu::always_inline]] bool queue(std::uint64_t now) noexcept {
    std::uint64_t t = now - start_;
    if (now < start_) [[unlikely]] {
      // A clock that went back (or an exclusion past now): nothing
      // recorded, and the start moves back without counting as recorded.
      t = 0;
      skipped_ += now - start_;
    }
    return this->queue_closed(t);
  }
  // begin() at `now` with no short interval open; returns the start.
  [[gnu::noinline]] std::uint64_t begin_long(std::uint64_t now) noexcept {
    if (!open_) {
      this->move_start(now);  // the time since close() is no instruction's
      return now;
    }
    return queue(now) ? drain(now) : now;
  }
  // A full queue: the batch is skipped time; returns the tick after it.
  std::uint64_t drain(std::uint64_t now) noexcept {
    const std::uint64_t after = this->drain_queue(now);
    skipped_ += after - now;
    return after;
  }
};

// Sampled observations are queued as ChainedTimer's are (a close is one
// read and two stores). The records are complete after close() or flush().
template <class Clock = DefaultClock>
class SampledTimer : public OpenInterval<Clock, 64, false> {
  using Base = OpenInterval<Clock, 64, false>;
  using Base::open_;
  using Base::start_;

 public:
  // Executions timed in a row at each sample point. A timed execution costs
  // two reads and two trips out of the interpreter (and out of a fused
  // array loop, which then runs an iteration as plain instructions); in a
  // run of k the read that closes one interval opens the next, so a timed
  // execution costs (k + 1) / k of them and a loop's trip out 1 / k. Each
  // observation is still one execution's interval, as in the timed view.
  static constexpr std::uint32_t kBurst = 4;

  // every: mean gap between timed executions (>= 1; 1 times everything).
  SampledTimer(std::uint32_t every, std::uint64_t base_ticks,
               std::uint64_t seed = 0x9E3779B97F4A7C15u)
      : every_(every < 1 ? 1 : every),
        range_(2 * std::uint64_t{kBurst} * (every_ - 1) + 1),
        base_(base_ticks),
        rng_(seed | 1) {
    left_ = next_gap();
  }

  void begin(ProbeRecord& rec) noexcept { step(rec, left_); }
  // Counts the execution; the rare event when the countdown ends. (The
  // cost tool's Sampled policy keeps the countdown itself, as the length of
  // interpret<>'s budget chunks: countdown() and set_countdown() at a
  // slice's start and end, event() where a chunk ends.)
  [[gnu::always_inline]] void step(ProbeRecord& rec, std::uint32_t& left) noexcept {
    rec.add_count();
    if (--left == 0) [[unlikely]]
      left = event(rec);
  }
  std::uint32_t countdown() const noexcept { return left_; }
  void set_countdown(std::uint32_t left) noexcept { left_ = left; }
  std::uint64_t close() noexcept {
    std::uint64_t now = Clock::now();
    if (open_) {
      queue(now);
      open_ = nullptr;
    }
    this->flush();
    return now;
  }
  std::uint32_t every() const noexcept { return every_; }
  // position() and the sampling's progress: the state a suspended slice
  // keeps (every() and the base are the timer's own and stay).
  struct State {
    typename Base::Position at;
    std::uint64_t rng;
    std::uint32_t left, after, run_left;
  };
  State state() const noexcept { return {this->position(), rng_, left_, after_, run_left_}; }
  void set_state(const State& s) {
    this->set_position(s.at);
    rng_ = s.rng;
    left_ = s.left;
    after_ = s.after;
    run_left_ = s.run_left;
  }

  // (Public for a caller that counts executions itself, as cost's Sampled
  // policy does, and calls this only when its countdown ends.)
  // The countdown ended at the execution whose record is `rec`: after a
  // timed execution it closes the interval (one read) and, within a run,
  // opens the next on `rec` (the same read); at a sample point it opens one
  // on `rec` (the same read, when both fall together). Returns the
  // countdown to the next event.
  [[gnu::noinline]] std::uint32_t event(ProbeRecord& rec) noexcept {
    std::uint64_t now = Clock::now();
    if (after_ > 0) {
      // open_ is null only when a slice's close ended it.
      if (open_) [[likely]] {
        if (queue(now)) [[unlikely]]
          now = this->drain_queue(now);
        open_ = nullptr;
      }
      if (run_left_ > 0) {
        --run_left_;
        open_ = &rec;
        start_ = now;
        return 1;
      }
      const std::uint32_t to_sample = after_ - 1;
      after_ = 0;
      if (to_sample > 0) [[likely]]
        return to_sample;
    }
    open_ = &rec;
    start_ = now;
    run_left_ = kBurst - 1;
    after_ = next_gap();
    return 1;
  }

 private:
  // Queues the open interval's observation ending at `now`; true when the
  // queue is full.
  [[gnu::always_inline]] bool queue(std::uint64_t now) noexcept {
    return this->queue_closed(this->length(now, base_));
  }
  // The countdown from the close of a run's last execution to the next
  // run's first, plus one: a run starts kBurst + U executions after the
  // last one started, U uniform in [0, 2 kBurst (N - 1)], i.e. a mean of
  // kBurst x N (and back to back when N is 1). U from the top 32 bits, by a
  // multiply rather than a division (Lemire's reduction; the bias is under
  // 2^-32 of the range).
  std::uint32_t next_gap() noexcept {
    rng_ ^= rng_ << 13;
    rng_ ^= rng_ >> 7;
    rng_ ^= rng_ << 17;
    return 1 + static_cast<std::uint32_t>(((rng_ >> 32) * range_) >> 32);
  }
  std::uint32_t every_;
  std::uint64_t range_;  // 2 kBurst (N - 1) + 1: the gaps' choices
  std::uint64_t base_;
  std::uint64_t rng_;
  std::uint32_t left_ = 1;
  // After a sample point: the countdown to the next one once the run has
  // closed, plus one (0: none pending).
  std::uint32_t after_ = 0;
  std::uint32_t run_left_ = 0;  // executions of the run still to open
};

// Per function slot (an index the caller assigns, e.g. per module entry pc)
// and per call-site slot: activations, inclusive attributed ticks and
// instructions.
struct InclusiveTotals {
  std::uint64_t calls = 0;
  std::uint64_t ticks = 0;
  std::uint64_t instructions = 0;
};

class CallTracker {
 public:
  static constexpr std::uint32_t kNoSite = ~std::uint32_t{0};

  CallTracker(std::size_t functions, std::size_t sites)
      : fn_(functions), site_(sites), active_(functions) {}

  // A call into function `fn` from call site `site` (or kNoSite), at the
  // thread's running totals `ticks` / `instructions`.
  void enter(std::uint32_t fn, std::uint32_t site, std::uint64_t ticks, std::uint64_t instructions);
  // The innermost activation returns.
  void leave(std::uint64_t ticks, std::uint64_t instructions);
  // Unwinds to `depth` activations (an exception caught in an outer frame,
  // or a thread ending with frames live: leave_to(0)).
  void leave_to(std::size_t depth, std::uint64_t ticks, std::uint64_t instructions);
  std::size_t depth() const { return stack_.size(); }

  const std::vector<InclusiveTotals>& functions() const { return fn_; }
  const std::vector<InclusiveTotals>& sites() const { return site_; }
  // Adds another tracker's totals (another thread, another --repeat run).
  void merge_totals(const CallTracker& o);

 private:
  struct Frame {
    std::uint32_t fn, site;
    std::uint64_t ticks, instructions;
  };
  std::vector<InclusiveTotals> fn_, site_;
  std::vector<std::uint32_t> active_;  // activations of each function on the stack
  std::vector<Frame> stack_;
};

// The base from the records of empty instructions (one per instruction of
// the measuring stream): min exact (the smallest observation of at least
// `floor_ticks`, from the histogram when smaller ones were seen: a stepped
// timer's artefacts lie below its step), median from the merged histogram
// (within 1/16), mean as the median of the records' means (exact sums; a
// preemption lands in one record and cannot move it).
Base base_from_records(BasePolicy policy, std::span<const ProbeRecord> empties,
                       std::uint64_t floor_ticks = 0);

}  // namespace dis::vm
