// Probe records: statistics against hand-computed values, merging, exact
// 128-bit sums, the histogram's buckets and percentiles, sampled timing.
#include "probe_record.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

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

}  // namespace
}  // namespace dis::vm
