// Probe records: statistics against hand-computed values, merging, exact
// 128-bit sums, the histogram's buckets and percentiles, sampled timing;
// the hot-path helpers of probe_timing.h on a scripted clock.
#include "probe_record.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "probe_timing.h"

namespace dis::vm {
namespace {

ProbeRecord of(const std::vector<std::uint64_t>& v) {
  ProbeRecord r;
  for (auto x : v) r.add(x);
  return r;
}

void expect_same(const ProbeRecord& a, const ProbeRecord& b) {
  EXPECT_EQ(a.count, b.count);
  EXPECT_EQ(a.timed, b.timed);
  EXPECT_EQ(a.sum, b.sum);
  EXPECT_TRUE(a.sumsq == b.sumsq);
  EXPECT_EQ(a.min, b.min);
  EXPECT_EQ(a.max, b.max);
  for (int i = 0; i < LogHistogram::kBuckets; ++i) ASSERT_EQ(a.hist.at(i), b.hist.at(i)) << i;
}

TEST(ProbeRecord, KnownSequence) {
  // 2 4 4 4 5 5 7 9: mean 5, squared deviations 9+1+1+1+0+0+4+16 = 32.
  ProbeRecord r = of({2, 4, 4, 4, 5, 5, 7, 9});
  EXPECT_EQ(r.count, 8u);
  EXPECT_EQ(r.timed, 8u);
  EXPECT_EQ(r.sum, 40u);
  EXPECT_TRUE(r.sumsq == 232u);
  EXPECT_EQ(r.min, 2u);
  EXPECT_EQ(r.max, 9u);
  EXPECT_DOUBLE_EQ(r.mean(), 5.0);
  EXPECT_NEAR(r.stddev(), std::sqrt(32.0 / 7.0), 1e-12);
  // Nearest rank: p50 -> rank 4 -> 4; p75 -> rank 6 -> 5; p99 -> rank 8 -> 9.
  EXPECT_DOUBLE_EQ(r.median(), 4.0);
  EXPECT_DOUBLE_EQ(r.percentile(75), 5.0);
  EXPECT_DOUBLE_EQ(r.percentile(99), 9.0);
  EXPECT_DOUBLE_EQ(r.percentile(0), 2.0);
  EXPECT_DOUBLE_EQ(r.percentile(100), 9.0);
  EXPECT_FALSE(r.sampled());
  EXPECT_DOUBLE_EQ(r.total_estimate(), 40.0);
}

TEST(ProbeRecord, EmptyAndSingle) {
  ProbeRecord e;
  EXPECT_EQ(e.count, 0u);
  EXPECT_DOUBLE_EQ(e.mean(), 0.0);
  EXPECT_DOUBLE_EQ(e.stddev(), 0.0);
  EXPECT_DOUBLE_EQ(e.median(), 0.0);
  EXPECT_EQ(e.min_or_zero(), 0u);
  EXPECT_FALSE(e.has_time());
  ProbeRecord one = of({1234});
  EXPECT_DOUBLE_EQ(one.mean(), 1234.0);
  EXPECT_DOUBLE_EQ(one.stddev(), 0.0);     // n < 2
  EXPECT_DOUBLE_EQ(one.median(), 1234.0);  // the bucket middle, clamped to [min, max]
  ProbeRecord same = of({7, 7, 7});
  EXPECT_DOUBLE_EQ(same.stddev(), 0.0);
}

TEST(ProbeRecord, SumOfSquaresIsExactFor64BitTicks) {
  const std::uint64_t big = std::uint64_t{1} << 62;
  ProbeRecord r = of({big, big + 2});
  unsigned __int128 b = big;
  unsigned __int128 want = b * b + (b + 2) * (b + 2);
  EXPECT_TRUE(r.sumsq == want);
  EXPECT_EQ(r.sum, 2 * big + 2);
  // Deviations are +-1 around 2^62 + 1: sample variance 2. Doubles alone
  // would lose this entirely (2^124 has no room for units).
  EXPECT_NEAR(r.stddev(), std::sqrt(2.0), 1e-9);
  EXPECT_DOUBLE_EQ(r.mean(), static_cast<double>(big + 1));
  // Three values near 2^63: their squares sum beyond 2^127 without wrapping.
  const std::uint64_t huge = (std::uint64_t{1} << 63) - 1;
  ProbeRecord h;
  h.observe(huge);
  h.observe(huge);
  h.observe(huge - 1);
  unsigned __int128 hh = huge;
  EXPECT_TRUE(h.sumsq == hh * hh * 2 + (hh - 1) * (hh - 1));
  EXPECT_GT(h.sumsq, static_cast<unsigned __int128>(1) << 127);
}

TEST(ProbeRecord, StddevMatchesTwoPassOnRandomData) {
  std::mt19937_64 rng(42);
  std::vector<std::uint64_t> v;
  for (int i = 0; i < 10000; ++i) v.push_back(1'000'000'000 + rng() % 5000);
  ProbeRecord r = of(v);
  double mean = 0;
  for (auto x : v) mean += static_cast<double>(x);
  mean /= static_cast<double>(v.size());
  double m2 = 0;
  for (auto x : v) m2 += (static_cast<double>(x) - mean) * (static_cast<double>(x) - mean);
  EXPECT_NEAR(r.mean(), mean, 1e-3);
  EXPECT_NEAR(r.stddev(), std::sqrt(m2 / static_cast<double>(v.size() - 1)), 1e-6);
}

TEST(ProbeRecord, MergeEqualsAddingAll) {
  std::vector<std::uint64_t> a = {3, 1000, 17, 5, 123456789};
  std::vector<std::uint64_t> b = {0, 2, 99999, 64, 65};
  ProbeRecord ra = of(a), rb = of(b);
  std::vector<std::uint64_t> all = a;
  all.insert(all.end(), b.begin(), b.end());
  ProbeRecord merged = ra;
  merged.merge(rb);
  expect_same(merged, of(all));
  // Merging an empty record changes nothing.
  ProbeRecord copy = merged;
  copy.merge(ProbeRecord{});
  expect_same(copy, merged);
}

TEST(ProbeRecord, HistogramBucketsCoverEveryValue) {
  std::vector<std::uint64_t> probe = {
      0, 1, 7, 8, 9, 15, 16, 17, 31, 32, 1000, 1023, 1024, 123456789, (std::uint64_t{1} << 36) - 1};
  for (std::uint64_t s = 1; s < (std::uint64_t{1} << 36); s = s * 3 + 1) probe.push_back(s);
  for (std::uint64_t v : probe) {
    int i = LogHistogram::bucket_of(v);
    ASSERT_GE(i, 0);
    ASSERT_LT(i, LogHistogram::kBuckets);
    EXPECT_LE(LogHistogram::bucket_low(i), v) << v;
    EXPECT_LT(v, LogHistogram::bucket_low(i) + LogHistogram::bucket_width(i)) << v;
    // Relative width at most 1/8: percentiles within 1/16 of the truth.
    if (v >= 8) {
      EXPECT_LE(LogHistogram::bucket_width(i) * 8, LogHistogram::bucket_low(i)) << v;
    }
  }
  EXPECT_EQ(LogHistogram::bucket_of(~std::uint64_t{0}), LogHistogram::kBuckets - 1);
  // Buckets are contiguous: each starts where the previous ended.
  for (int i = 1; i < LogHistogram::kBuckets; ++i)
    ASSERT_EQ(LogHistogram::bucket_low(i),
              LogHistogram::bucket_low(i - 1) + LogHistogram::bucket_width(i - 1))
        << i;
}

TEST(ProbeRecord, PercentilesWithinHistogramResolution) {
  ProbeRecord r;
  for (std::uint64_t v = 1; v <= 1000; ++v) r.add(v);
  // True nearest-rank values: p50 = 500, p90 = 900, p99 = 990.
  EXPECT_NEAR(r.median(), 500.0, 500.0 / 16);
  EXPECT_NEAR(r.percentile(90), 900.0, 900.0 / 16);
  EXPECT_NEAR(r.percentile(99), 990.0, 990.0 / 16);
  EXPECT_LE(r.percentile(99), 1000.0);
  // 99 fast and 1 slow: the median is fast, the max is the outlier.
  ProbeRecord o;
  for (int i = 0; i < 99; ++i) o.add(20);
  o.add(8'000'000);
  EXPECT_NEAR(o.median(), 20.0, 20.0 / 16);
  EXPECT_NEAR(o.percentile(99), 20.0, 20.0 / 16);
  EXPECT_EQ(o.max, 8'000'000u);
}

TEST(ProbeRecord, SampledTimingKeepsCountsExact) {
  ProbeRecord r;
  for (int i = 0; i < 100; ++i) r.add_count();
  r.observe(10);
  r.observe(30);
  EXPECT_EQ(r.count, 100u);
  EXPECT_EQ(r.timed, 2u);
  EXPECT_TRUE(r.sampled());
  EXPECT_DOUBLE_EQ(r.mean(), 20.0);
  // Total estimated from the samples: mean x count.
  EXPECT_DOUBLE_EQ(r.total_estimate(), 2000.0);
  ProbeRecord counted;
  counted.add_count();
  EXPECT_FALSE(counted.has_time());
  EXPECT_DOUBLE_EQ(counted.total_estimate(), 0.0);
}

// A fused loop's executions are counted, never timed one by one: their
// share of the loop's intervals adds to the total, and a base per interval
// comes off that share (clamped at zero apart from the single executions').
TEST(ProbeRecord, FusedLoopsSharesAddToTheTotalAndTakeOneBasePerRun) {
  ProbeRecord r;
  r.add(40);
  r.add(60);
  r.add_bulk(900.0, 0.5, 300);
  r.add_bulk(100.0, 0.25, 100);
  EXPECT_EQ(r.count, 402u);
  EXPECT_EQ(r.timed, 2u);
  EXPECT_EQ(r.single_count(), 2u);
  EXPECT_FALSE(r.sampled());
  EXPECT_TRUE(r.has_estimate());
  EXPECT_DOUBLE_EQ(r.total_estimate(), 1100.0);
  EXPECT_DOUBLE_EQ(r.mean(), 1100.0 / 402);
  // min, max and deviation are of the two timed alone.
  EXPECT_EQ(r.min, 40u);
  EXPECT_EQ(r.max, 60u);
  // Base 30 per single execution, 200 per run: 100 - 60 + 1000 - 150.
  const ProbeRecord b = r.rebased_exact(30, 200);
  EXPECT_NEAR(b.total_estimate(), 890.0, 0.01);
  EXPECT_DOUBLE_EQ(b.bulk_runs, 0.75);
  EXPECT_EQ(b.bulk_count, 400u);
  // A run base past the loops' ticks clamps their share alone.
  EXPECT_NEAR(r.rebased_exact(30, 2000).total_estimate(), 40.0, 0.01);
  // Merged (lines, --repeat): the shares add.
  ProbeRecord m;
  m.merge(r);
  m.merge(r);
  EXPECT_EQ(m.bulk_count, 800u);
  EXPECT_DOUBLE_EQ(m.total_estimate(), 2200.0);
  // Only bulk: no single timing, yet an estimate.
  ProbeRecord only;
  only.add_bulk(50.0, 1.0, 10);
  EXPECT_FALSE(only.has_time());
  EXPECT_TRUE(only.has_estimate());
  EXPECT_FALSE(only.sampled());
  EXPECT_DOUBLE_EQ(only.total_estimate(), 50.0);
  // Sampled singles beside bulk ones: the singles alone are scaled.
  ProbeRecord s;
  for (int i = 0; i < 10; ++i) s.add_count();
  s.observe(20);
  s.add_bulk(70.0, 1.0, 5);
  EXPECT_TRUE(s.sampled());
  EXPECT_DOUBLE_EQ(s.total_estimate(), 20.0 * 10 + 70.0);
}

}  // namespace
}  // namespace dis::vm

// ---- Probe timing helpers (probe_timing.h) -----------------------------------

namespace dis::vm {
namespace {

TEST(ProbeRecord, TalliedExecutionsSettleIntoTheSameStatistics) {
  // Executions tallied by value, a counter wrapping past 2^16 included,
  // settle into exactly what adding them one by one gives.
  ProbeRecord direct, tallied;
  std::uint64_t ticks[] = {0, 3, 3, 17, 40, ProbeRecord::kTally - 1};
  for (std::uint64_t v : ticks) {
    direct.add(v);
    tallied.add_tallied(v);
  }
  for (int i = 0; i < 70000; ++i) {
    direct.add(25);
    tallied.add_tallied(25);
  }
  EXPECT_EQ(tallied.count, 65536u);  // the wrap moved 2^16 of them already
  EXPECT_EQ(tallied.min_so_far(), 0u);
  tallied.settle();
  tallied.settle();  // idempotent
  EXPECT_EQ(tallied.count, direct.count);
  EXPECT_EQ(tallied.timed, direct.timed);
  EXPECT_EQ(tallied.sum, direct.sum);
  EXPECT_TRUE(tallied.sumsq == direct.sumsq);
  EXPECT_EQ(tallied.min, 0u);
  EXPECT_EQ(tallied.max, ProbeRecord::kTally - 1);
  for (int i = 0; i < LogHistogram::kBuckets; ++i) EXPECT_EQ(tallied.hist.at(i), direct.hist.at(i));
  ProbeRecord late;
  late.add(90);
  late.add_tallied(60);
  EXPECT_EQ(late.min_so_far(), 60u);
  EXPECT_EQ(ProbeRecord{}.min_so_far(), std::numeric_limits<std::uint64_t>::max());
}

// A clock the test drives: each read returns the next scripted tick.
struct ScriptClock {
  static inline std::vector<std::uint64_t> ticks;
  static inline std::size_t next = 0;
  static std::uint64_t now() noexcept { return ticks[next++]; }
};

TEST(ProbeTiming, ChainedTimerRecordsRawIntervalsRebasedAfter) {
  ScriptClock::ticks = {100, 130, 200, 205, 300, 400};
  ScriptClock::next = 0;
  ProbeRecord a, b;
  ChainedTimer<ScriptClock> t;
  t.begin(a);  // 100: a opens
  t.begin(b);  // 130: a took 30
  t.begin(a);  // 200: b took 70
  t.begin(b);  // 205: a took 5
  EXPECT_TRUE(t.open());
  EXPECT_EQ(t.close(), 300u);  // b took 95
  EXPECT_FALSE(t.open());
  a.settle();
  b.settle();
  EXPECT_EQ(a.count, 2u);
  EXPECT_EQ(a.timed, 2u);
  EXPECT_EQ(a.sum, 35u);
  EXPECT_EQ(a.min, 5u);
  EXPECT_EQ(b.count, 2u);
  EXPECT_EQ(b.sum, 70u + 95u);
  EXPECT_EQ(t.attributed(), 200u);
  EXPECT_EQ(t.close(), 400u);  // nothing open: no record
  EXPECT_EQ(t.attributed(), 200u);
  EXPECT_EQ(a.count + b.count, 4u);
  // The base of 10 after the run: each observation less 10 for min and max
  // (never below zero), the sum less 10 per observation.
  const ProbeRecord ra = a.rebased(10), rb = b.rebased(10);
  EXPECT_EQ(ra.min, 0u);
  EXPECT_EQ(ra.max, 20u);
  EXPECT_EQ(ra.sum, 15u);
  EXPECT_EQ(rb.sum, 145u);
  EXPECT_LE(static_cast<double>(ra.min), ra.mean());
  EXPECT_LE(ra.mean(), static_cast<double>(ra.max));
}

TEST(ProbeTiming, ChainedTimerTalliesFromTheLowHalvesAcrossTheirWrap) {
  // begin() takes a short interval's length from the reads' low 32 bits:
  // one that crosses 2^32 keeps its length, and one of 2^32 + 3 ticks is
  // not taken for 3.
  constexpr std::uint64_t k32 = std::uint64_t{1} << 32;
  ScriptClock::ticks = {k32 - 5, k32 + 10, 2 * k32 + 13, 2 * k32 + 20};
  ScriptClock::next = 0;
  ProbeRecord a, b;
  ChainedTimer<ScriptClock> t;
  t.begin(a);                          // 2^32 - 5
  t.begin(b);                          // 2^32 + 10: a took 15
  t.begin(a);                          // 2^33 + 13: b took 2^32 + 3
  EXPECT_EQ(t.close(), 2 * k32 + 20);  // a took 7
  a.settle();
  b.settle();
  EXPECT_EQ(a.count, 2u);
  EXPECT_EQ(a.sum, 22u);
  EXPECT_EQ(a.min, 7u);
  EXPECT_EQ(a.max, 15u);
  EXPECT_EQ(b.count, 1u);
  EXPECT_EQ(b.min, k32 + 3);
  EXPECT_EQ(t.attributed(), a.sum + b.sum);
}

TEST(ProbeTiming, DefaultClockSplitReadIsARead) {
  (void)timer();  // chooses the clock
  const std::uint64_t before = DefaultClock::now();
  const Split s = DefaultClock::now_split();
  const std::uint64_t after = DefaultClock::now();
  EXPECT_EQ(s.low, static_cast<std::uint32_t>(s.full));
  EXPECT_LE(before, s.full);
  EXPECT_LE(s.full, after);
}

TEST(ProbeTiming, ChainedTimerAttributesWhatItRecordsOnly) {
  // Excluded ticks, restarts, a clock going back and the gap after close()
  // are no instruction's: attributed() is always the sum recorded.
  ScriptClock::ticks = {100, 130, 150, 160, 150, 170, 300, 310, 330};
  ScriptClock::next = 0;
  ProbeRecord a, b;
  ChainedTimer<ScriptClock> t;
  t.begin(a);                   // 100
  t.exclude(20);                // a's start moves to 120
  t.begin(b);                   // 130: a took 10
  EXPECT_EQ(t.restart(), 20u);  // 150: b restarts
  t.begin(a);                   // 160: b took 10
  t.begin(b);                   // 150: back in time, a took 0
  t.begin(a);                   // 170: b took 20
  EXPECT_EQ(t.close(), 300u);   // a took 130
  EXPECT_EQ(t.attributed(), 10u + 10u + 0u + 20u + 130u);
  t.begin(b);                  // 310: the gap since close() is skipped
  EXPECT_EQ(t.close(), 330u);  // b took 20
  a.settle();
  b.settle();
  EXPECT_EQ(a.sum, 10u + 0u + 130u);
  EXPECT_EQ(b.sum, 10u + 20u + 20u);
  EXPECT_EQ(t.attributed(), a.sum + b.sum);
}

TEST(ProbeTiming, LongIntervalsWaitForThePreemptionAroundThem) {
  // Intervals of 1000 ticks or more are set aside; settling against 5000
  // ticks of preemption takes it from the longest first (a: all its 4200),
  // then the next (b: the remaining 800 of 1500); the short ones and what is
  // left of the long ones reach their records, every execution counted.
  ScriptClock::ticks = {0, 10, 4210, 4230, 5730, 5740, 6740};
  ScriptClock::next = 0;
  ProbeRecord a, b, c, bucket;
  std::vector<Suspect> sink;
  ChainedTimer<ScriptClock> t;
  t.set_suspects(&sink, 1000);
  t.begin(c);  // 0
  t.begin(a);  // 10: c took 10
  t.begin(c);  // 4210: a took 4200
  t.begin(b);  // 4230: c took 20
  t.begin(c);  // 5730: b took 1500
  t.begin(b);  // 5740: c took 10
  t.close();   // 6740: b took 1000
  c.settle();
  ASSERT_EQ(sink.size(), 3u);
  EXPECT_EQ(c.count, 3u);
  EXPECT_EQ(c.sum, 40u);
  EXPECT_EQ(a.count + b.count, 0u);
  settle_suspects(sink, 5000, bucket);
  EXPECT_TRUE(sink.empty());
  EXPECT_EQ(a.count, 1u);
  EXPECT_EQ(a.sum, 0u);
  EXPECT_EQ(b.count, 2u);
  EXPECT_EQ(b.sum, 700u + 1000u);
  EXPECT_EQ(b.max, 1000u);
  EXPECT_EQ(bucket.timed, 2u);
  EXPECT_EQ(bucket.sum, 5000u);
  // No preemption measured: the intervals are recorded whole.
  ProbeRecord d, none;
  sink.push_back({&d, 3000, true});
  sink.push_back({&d, 2000, false});
  settle_suspects(sink, 0, none);
  EXPECT_EQ(d.count, 1u);
  EXPECT_EQ(d.timed, 2u);
  EXPECT_EQ(d.sum, 5000u);
  EXPECT_EQ(none.timed, 0u);
  // A record that has seen 50 ticks keeps at least that of a preempted
  // execution: it never becomes a new minimum.
  ProbeRecord e, moved;
  e.add(50);
  sink.push_back({&e, 3000, true});
  settle_suspects(sink, 5000, moved);
  EXPECT_EQ(e.count, 2u);
  EXPECT_EQ(e.min, 50u);
  EXPECT_EQ(e.sum, 100u);
  EXPECT_EQ(moved.sum, 2950u);
  // The same when the 50 ticks are still tallied.
  ProbeRecord f, moved2;
  f.add_tallied(50);
  sink.push_back({&f, 3000, true});
  settle_suspects(sink, 5000, moved2);
  f.settle();
  EXPECT_EQ(f.min, 50u);
  EXPECT_EQ(moved2.sum, 2950u);
}

TEST(ProbeTiming, AnIntervalFarAboveItsHotRecordIsInterrupted) {
  // A hot record: 2000 executions of 30 ticks (tallied, as the step leaves
  // them), 2 of 60. An interval of 50000 ticks on it keeps the median,
  // the rest goes to the interrupts bucket; after 8000 ticks of preemption
  // are taken first.
  ProbeRecord hot, preempted, irq;
  for (int i = 0; i < 2000; ++i) hot.add_tallied(30);
  hot.add(60);
  hot.add(60);
  ProbeRecord before = hot;
  before.settle();
  // The histogram's median: 30 lies in the bucket [30, 32).
  const auto median = static_cast<std::uint64_t>(std::llround(before.median()));
  EXPECT_EQ(median, 31u);
  std::vector<Suspect> sink{{&hot, 50000, true}};
  settle_suspects(sink, 8000, preempted, {&irq, 1000});
  hot.settle();
  EXPECT_EQ(hot.count, 2003u);
  EXPECT_EQ(hot.sum, 2000u * 30 + 120 + median);
  EXPECT_EQ(hot.max, 60u);
  EXPECT_EQ(preempted.sum, 8000u);
  EXPECT_EQ(irq.timed, 1u);
  EXPECT_EQ(irq.sum, 50000u - 8000 - median);
  // Kept whole: below the threshold; on a record seen too few times; on a
  // record whose p99.9 is within kFactor of it; without a bucket.
  ProbeRecord few, slow, none;
  for (int i = 0; i < 10; ++i) few.add(30);
  for (std::uint64_t i = 0; i < 2000; ++i) slow.add(i % 100 == 0 ? 40000 : 30);
  sink = {{&hot, 900, true}, {&few, 50000, true}, {&slow, 50000, true}};
  settle_suspects(sink, 0, preempted, {&irq, 1000});
  sink = {{&hot, 50000, false}};
  settle_suspects(sink, 0, none);
  hot.settle();
  EXPECT_EQ(hot.sum, 2000u * 30 + 120 + median + 900 + 50000);
  EXPECT_EQ(hot.timed, 2005u);
  EXPECT_EQ(few.sum, 300u + 50000);
  EXPECT_EQ(slow.max, 50000u);
  EXPECT_EQ(irq.timed, 1u);
  EXPECT_EQ(none.timed, 0u);
}

TEST(ProbeTiming, ChainedTimerOnTheRealClockCountsExactly) {
  ProbeRecord r[3];
  ChainedTimer<> t;
  for (int i = 0; i < 3000; ++i) t.begin(r[i % 3]);
  t.close();
  for (auto& x : r) {
    x.settle();
    EXPECT_EQ(x.count, 1000u);
    EXPECT_EQ(x.timed, 1000u);
  }
}

TEST(ProbeTiming, SampledTimerCountsEverythingTimesAFew) {
  ProbeRecord r;
  SampledTimer<> t(100, 0, 12345);
  for (int i = 0; i < 100000; ++i) t.begin(r);
  t.close();
  EXPECT_EQ(r.count, 100000u);
  // About 1000 timed; the gaps are random with mean 100.
  EXPECT_GT(r.timed, 800u);
  EXPECT_LT(r.timed, 1200u);
  EXPECT_TRUE(r.sampled());
  ProbeRecord all;
  SampledTimer<> every(1, 0);
  for (int i = 0; i < 50; ++i) every.begin(all);
  every.close();
  EXPECT_EQ(all.count, 50u);
  EXPECT_EQ(all.timed, 50u);
}

// A clock an emulated instruction stream advances: each "instruction" of
// record i takes cost[i] ticks, added after its begin().
struct StreamClock {
  static inline std::uint64_t t = 0;
  static std::uint64_t now() noexcept { return t; }
};

// Every sampled observation is one execution's own interval, on its own
// record (runs of kBurst chain one read into the next, and a batch of
// queued observations lands where it belongs), whatever the period of the
// stream; every record is timed about count / N times (no aliasing with a
// period that divides the run length, or equals it); the counts are exact.
TEST(ProbeTiming, SampledTimerTimesEachExecutionOnItsOwnRecord) {
  for (std::uint32_t period : {3u, 4u, 5u, 8u, 13u}) {
    SCOPED_TRACE(period);
    std::vector<ProbeRecord> r(period);
    StreamClock::t = 1000;
    SampledTimer<StreamClock> t(10, 0, 777 + period);
    constexpr std::uint32_t kN = 400000;
    for (std::uint32_t i = 0; i < kN; ++i) {
      const std::uint32_t k = i % period;
      t.begin(r[k]);
      StreamClock::t += 10 + 7 * k;
    }
    t.close();
    std::uint64_t timed = 0;
    for (std::uint32_t k = 0; k < period; ++k) {
      EXPECT_EQ(r[k].count, kN / period + (k < kN % period ? 1 : 0));
      ASSERT_GT(r[k].timed, 0u);
      EXPECT_EQ(r[k].min, 10u + 7 * k);
      EXPECT_EQ(r[k].max, 10u + 7 * k);
      EXPECT_EQ(r[k].sum, r[k].timed * (10 + 7 * k));
      EXPECT_GT(r[k].timed, r[k].count / 10 * 85 / 100);
      EXPECT_LT(r[k].timed, r[k].count / 10 * 115 / 100);
      timed += r[k].timed;
    }
    EXPECT_GT(timed, kN / 10 * 95 / 100);
    EXPECT_LT(timed, kN / 10 * 105 / 100);
  }
}

// The records are complete after flush() (a suspended slice) and close(),
// with intervals still queued before.
TEST(ProbeTiming, SampledTimerQueuedObservationsReachTheirRecords) {
  ProbeRecord a;
  StreamClock::t = 0;
  SampledTimer<StreamClock> t(1, 0);
  // Every execution timed: a's intervals of 5, closed and queued.
  for (int i = 0; i < 11; ++i) {
    t.begin(a);
    StreamClock::t += 5;
  }
  t.flush();
  EXPECT_EQ(a.timed, 10u);  // the 11th still open
  EXPECT_EQ(a.sum, 50u);
  t.close();
  EXPECT_EQ(a.timed, 11u);
  EXPECT_EQ(a.count, 11u);
  // More than a queue's worth: the full queue is drained on the way.
  ProbeRecord b;
  const std::uint32_t n = 3 * SampledTimer<StreamClock>::kQueue + 5;
  for (std::uint32_t i = 0; i < n; ++i) {
    t.begin(b);
    StreamClock::t += 2;
  }
  t.close();
  EXPECT_EQ(b.timed, n);
  EXPECT_EQ(b.sum, 2u * n);
}

TEST(ProbeTiming, CallTrackerInclusiveTimes) {
  // f (slot 0) calls g (slot 1) from site 0, g recurses into g from site 1.
  CallTracker c(2, 2);
  c.enter(0, CallTracker::kNoSite, 0, 0);
  c.enter(1, 0, 10, 1);
  c.enter(1, 1, 20, 3);
  c.leave(50, 7);  // inner g: 30 ticks, 4 instructions
  c.leave(60, 9);  // outer g: 50 ticks, 8 instructions
  EXPECT_EQ(c.depth(), 1u);
  c.leave(100, 12);  // f: 100 ticks, 12 instructions
  EXPECT_EQ(c.depth(), 0u);
  // g counted once (outermost activation), with both calls.
  EXPECT_EQ(c.functions()[1].calls, 2u);
  EXPECT_EQ(c.functions()[1].ticks, 50u);
  EXPECT_EQ(c.functions()[1].instructions, 8u);
  EXPECT_EQ(c.functions()[0].calls, 1u);
  EXPECT_EQ(c.functions()[0].ticks, 100u);
  // Sites count every activation.
  EXPECT_EQ(c.sites()[0].ticks, 50u);
  EXPECT_EQ(c.sites()[1].ticks, 30u);
  EXPECT_EQ(c.sites()[1].instructions, 4u);
  // Unwinding several frames at once (an exception caught in f).
  c.enter(0, CallTracker::kNoSite, 200, 20);
  c.enter(1, 0, 210, 21);
  c.enter(1, 1, 220, 22);
  c.leave_to(1, 260, 30);
  EXPECT_EQ(c.depth(), 1u);
  EXPECT_EQ(c.functions()[1].ticks, 50u + 50u);
  CallTracker sum(2, 2);
  sum.merge_totals(c);
  EXPECT_EQ(sum.functions()[1].calls, 4u);
  c.leave(100, 0);  // totals going backwards never wrap
  EXPECT_EQ(c.functions()[0].ticks, 100u);
}

TEST(ProbeTiming, MeanBaseIsTheMedianOfTheRecordsMeans) {
  // Three empty instructions: means 20, 30 and (one preemption) 10,020.
  std::vector<ProbeRecord> r(3);
  for (int i = 0; i < 10; ++i) {
    r[0].add(i % 2 ? 10 : 30);
    r[1].add(30);
    r[2].add(i == 0 ? 100'020 : 20);
  }
  Base b = base_from_records(BasePolicy::Mean, r);
  EXPECT_EQ(b.mean_ticks, 30u);
  EXPECT_EQ(b.ticks, 30u);
  EXPECT_EQ(b.min_ticks, 10u);
  EXPECT_EQ(b.samples, 30u);
  EXPECT_EQ(base_from_records(BasePolicy::Min, r).ticks, 10u);
}

}  // namespace
}  // namespace dis::vm
