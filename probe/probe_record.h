// Per-pc probe records (DESIGN decision 5): what the Count and Time probe
// policies accumulate for each instruction, and what the cost reports read.
//
// The hot path only adds and compares: count, an exact 64-bit tick sum, an
// exact 128-bit sum of squares, min, max and one histogram bucket; or, for
// a short execution in the timed view, one counter per tick value (the
// tally), from which settle() adds all of those exactly after the run.
// Means, deviations and percentiles are computed after the run.
//
// Counts and timings are separate: `count` is every execution (always
// exact), `timed` the executions that carried a time. With sampled timing
// (cost --sample N) timed < count and the timing statistics rest on
// `timed` samples; sampled() says so. The timed view runs an array fill or
// scan loop as the plain run does, one handler for the whole loop, and
// times it as one interval: its executions are in `count` and
// `bulk_count`, never in `timed`, and the interval's ticks and its one
// probe step are shared among the loop's pcs by executions (bulk_ticks,
// bulk_runs); total_estimate() adds them.
//
// The histogram is log-linear: values 0..7 have a bucket each, and every
// power of two [2^e, 2^(e+1)) from e = 3 is split into 8 equal sub-buckets,
// so a percentile is within 1/16 (6.25%) of the true value, and is clamped to
// [min, max]. Ticks from 2^36 upward (about 20 s at 3 GHz) share the last
// bucket; min, max and the sums stay exact.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <limits>

namespace dis::vm {

class LogHistogram {
 public:
  static constexpr int kSubBits = 3;  // 8 sub-buckets per power of two
  static constexpr int kSub = 1 << kSubBits;
  static constexpr int kMaxExp = 35;  // last exact power: [2^35, 2^36)
  static constexpr int kBuckets = kSub + (kMaxExp - kSubBits + 1) * kSub;

  // Branch-free (it runs once per timed instruction): values from 2^36 are
  // clamped into the last bucket; below kSub the exponent is taken as
  // kSubBits, which makes the shift 0 and the bucket the value itself. For
  // v >= kSub, v >> (e - kSubBits) is the leading one and the kSubBits
  // following bits, i.e. kSub + sub.
  static int bucket_of(std::uint64_t v) noexcept {
    constexpr std::uint64_t kTop = (std::uint64_t{1} << (kMaxExp + 1)) - 1;
    v = v < kTop ? v : kTop;
    const int shift = (63 - kSubBits) - std::countl_zero(v | kSub);
    return (shift << kSubBits) + static_cast<int>(v >> shift);
  }
  // The smallest value of bucket i, and its width.
  static std::uint64_t bucket_low(int i) noexcept {
    if (i < kSub) return static_cast<std::uint64_t>(i);
    int e = (i - kSub) / kSub + kSubBits;
    std::uint64_t sub = static_cast<std::uint64_t>((i - kSub) % kSub);
    return (std::uint64_t{1} << e) + (sub << (e - kSubBits));
  }
  static std::uint64_t bucket_width(int i) noexcept {
    if (i < kSub) return 1;
    int e = (i - kSub) / kSub + kSubBits;
    return std::uint64_t{1} << (e - kSubBits);
  }

  void add(std::uint64_t v) noexcept { ++counts_[static_cast<std::size_t>(bucket_of(v))]; }
  void add_n(std::uint64_t v, std::uint64_t n) noexcept {
    counts_[static_cast<std::size_t>(bucket_of(v))] += n;
  }
  void merge(const LogHistogram& o) noexcept {
    for (std::size_t i = 0; i < counts_.size(); ++i) counts_[i] += o.counts_[i];
  }
  std::uint64_t at(int i) const noexcept { return counts_[static_cast<std::size_t>(i)]; }

 private:
  std::array<std::uint64_t, kBuckets> counts_{};
};

struct ProbeRecord {
  std::uint64_t count = 0;  // executions, exact
  std::uint64_t timed = 0;  // executions with a time observation
  std::uint64_t sum = 0;    // ticks, over the timed executions
  unsigned __int128 sumsq = 0;
  std::uint64_t min = std::numeric_limits<std::uint64_t>::max();
  std::uint64_t max = 0;
  // Executions of fewer than kTally ticks, counted by value (the timed
  // view's batches add one to a counter here instead of updating nine
  // statistics); settle() adds them to the statistics exactly. Everything
  // above is complete only after settle().
  static constexpr std::size_t kTally = 128;
  std::array<std::uint16_t, kTally> tally{};
  LogHistogram hist;
  std::uint64_t bulk_count = 0;  // executions inside fused loops' intervals
  double bulk_ticks = 0;         // this pc's share of those intervals' ticks
  double bulk_runs = 0;          // its share of the intervals (probe steps)

  // `n` executions inside a fused loop's interval, with their share of its
  // ticks and of the interval itself.
  void add_bulk(double ticks, double runs, std::uint64_t n) noexcept {
    count += n;
    bulk_count += n;
    bulk_ticks += ticks;
    bulk_runs += runs;
  }
  // Executions timed one by one, or counted to be (all but the bulk ones).
  std::uint64_t single_count() const noexcept { return count - bulk_count; }

  // One execution, counted only.
  void add_count() noexcept { ++count; }
  // One execution that took `ticks` (base already subtracted).
  void add(std::uint64_t ticks) noexcept {
    ++count;
    observe(ticks);
  }
  // A time observation without an execution (a sampled timing of an
  // execution counted separately, or a bucket's timed event).
  void observe(std::uint64_t ticks) noexcept {
    ++timed;
    sum += ticks;
    sumsq += static_cast<unsigned __int128>(ticks) * ticks;
    // Unconditional stores: conditional moves, no branch to mispredict.
    min = ticks < min ? ticks : min;
    max = ticks > max ? ticks : max;
    hist.add(ticks);
  }

  // One execution of `ticks` (< kTally), tallied until settle().
  [[gnu::always_inline]] void add_tallied(std::uint64_t ticks) noexcept {
    if (++tally[ticks] == 0) [[unlikely]]
      add_n(ticks, std::uint64_t{1} << 16);  // the counter wrapped: 2^16 of them
  }
  // `n` executions of `ticks` each.
  void add_n(std::uint64_t ticks, std::uint64_t n) noexcept;
  // Moves the tallied executions into the statistics (idempotent).
  void settle() noexcept;
  // The shortest time seen so far, tallied executions included (none: the
  // maximum value).
  std::uint64_t min_so_far() const noexcept;

  // The record of the same executions with `base` subtracted from each
  // observation: min, max and the histogram clamp each one at zero, the sum
  // and mean subtract base x timed from the exact sum and clamp only the
  // result (clamping each observation would turn the noise of the probe's
  // own cost into a bias), the deviation is unchanged (the sum of squares is
  // recentred exactly). The probes record raw ticks; the cost tool rebases.
  ProbeRecord rebased(std::uint64_t base) const noexcept;
  // The same for a base with a fraction of a tick (the stream base is a
  // difference of means): the sum and mean lose the whole base (to 1/256
  // tick), max and the histogram its whole ticks only, min the base rounded
  // up (so it never passes the mean).
  ProbeRecord rebased_exact(double base) const noexcept;
  // rebased_exact(base) with `run_base` taken from the fused loops' ticks
  // per interval (clamped at zero as a whole).
  ProbeRecord rebased_exact(double base, double run_base) const noexcept;

  // The union of both records' observations: for --repeat, and to aggregate
  // pcs into lines, functions and opcodes.
  void merge(const ProbeRecord& o) noexcept;

  bool has_time() const noexcept { return timed > 0; }
  // Timed alone or inside a fused loop's interval: mean() means something.
  bool has_estimate() const noexcept { return timed > 0 || bulk_count > 0; }
  bool sampled() const noexcept { return timed < single_count(); }
  // Ticks per execution: over the timed observations and, when there are
  // any, the fused loops' executions with their share; 0 when neither.
  double mean() const noexcept;
  // Sample standard deviation (n - 1), from the exact sums; 0 when timed < 2.
  double stddev() const noexcept;
  std::uint64_t min_or_zero() const noexcept { return timed ? min : 0; }
  // Nearest-rank percentile (p in [0, 100]) from the histogram: the middle of
  // the bucket holding rank ceil(p/100 * timed), clamped to [min, max].
  double percentile(double p) const noexcept;
  double median() const noexcept { return percentile(50); }
  // The ticks by which observations above the p-th percentile exceed it
  // (the outliers' share of the sum), from the histogram's bucket middles;
  // scaled like total_estimate() when sampled.
  double excess_over_percentile(double p) const noexcept;
  // Estimated total ticks of all executions: sum scaled by single_count() /
  // timed (exactly sum when nothing was sampled), plus bulk_ticks.
  double total_estimate() const noexcept;
};

}  // namespace dis::vm
