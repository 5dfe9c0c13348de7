// Sample statistics against known values.
#include "stats.h"

#include <gtest/gtest.h>

#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <vector>

namespace dis::cost {
namespace {

TEST(Stats, DescribeLikeMinistat) {
  std::vector<double> v = {9, 2, 4, 4, 5, 4, 7, 5};
  SampleStats s = describe(v);
  EXPECT_EQ(s.n, 8u);
  EXPECT_EQ(s.min, 2);
  EXPECT_EQ(s.max, 9);
  EXPECT_EQ(s.median, 5);  // sorted 2 4 4 4 5 5 7 9: ministat takes index n/2
  EXPECT_EQ(s.mean, 5);
  EXPECT_NEAR(s.stddev, std::sqrt(32.0 / 7), 1e-15);
  std::vector<double> odd = {3, 1, 2};
  EXPECT_EQ(describe(odd).median, 2);
}

TEST(Stats, VarianceKeepsItsDigitsOnLargeOffsets) {
  // Timestamps in ns: a naive sum of squares loses everything here.
  std::vector<double> v;
  for (double d : {1.0, 2.0, 3.0, 4.0}) v.push_back(1e12 + d);
  SampleStats s = describe(v);
  EXPECT_DOUBLE_EQ(s.mean, 1e12 + 2.5);
  EXPECT_NEAR(s.variance, 5.0 / 3, 1e-9);
}

TEST(Stats, MinistatTableAgreesWithBoost) {
  // Columns 80..99: the two-sided quantile rounded to 3 decimals, every df.
  for (int df = 1; df <= 100; ++df) {
    for (int ci = 0; ci < 5; ++ci) {
      double exact = t_exact(df, kConfidenceLevels[static_cast<std::size_t>(ci)]);
      EXPECT_NEAR(t_table(df, ci), std::round(exact * 1000) / 1000, 1e-9)
          << "df " << df << " ci " << ci;
    }
    // ministat's "99.5%" column holds the one-sided 0.999 quantiles.
    double q999 = boost::math::quantile(boost::math::students_t(df), 0.999);
    EXPECT_NEAR(t_table(df, 5), q999, 0.005) << "df " << df;
  }
  // Beyond 100 degrees of freedom ministat uses the normal quantiles.
  EXPECT_EQ(t_table(101, 2), 1.960);
  EXPECT_EQ(t_table(100000, 0), 1.282);
  EXPECT_NEAR(t_exact(INFINITY, 95), 1.959964, 1e-6);
  EXPECT_NEAR(t_exact(10, 95), 2.228139, 1e-6);
  EXPECT_NEAR(t_exact(10, 99.5), 3.581406, 1e-6);
  EXPECT_EQ(confidence_index(99.5), 5);
  EXPECT_EQ(confidence_index(97), -1);
}

TEST(Stats, StudentTAsMinistat) {
  std::vector<double> a = {1, 2, 3, 4}, b = {5, 6, 7, 8, 9, 9, 9, 9};
  StudentResult r = student_t(describe(b), describe(a), 95, false);
  EXPECT_EQ(r.df, 10);
  EXPECT_EQ(r.t, 2.228);
  EXPECT_DOUBLE_EQ(r.diff, 5.25);
  EXPECT_DOUBLE_EQ(r.pooled_s, 1.5);
  EXPECT_NEAR(r.halfwidth, 2.228 * 1.5 * std::sqrt(1.0 / 4 + 1.0 / 8), 1e-12);
  EXPECT_NEAR(r.pct, 210, 1e-12);
  EXPECT_TRUE(r.significant);
  StudentResult e = student_t(describe(b), describe(a), 95, true);
  EXPECT_NEAR(e.t, 2.228139, 1e-6);
}

TEST(Stats, WelchDegreesOfFreedom) {
  // var 1 (n 3) and var 10 (n 5): df = (1/3 + 2)^2 / ((1/3)^2/2 + 2^2/4) = 5.1579
  std::vector<double> a = {1, 2, 3}, b = {2, 4, 6, 8, 10};
  WelchResult w = welch_t(describe(b), describe(a), 95);
  EXPECT_NEAR(w.df, (7.0 / 3) * (7.0 / 3) / (1.0 / 18 + 1), 1e-12);
  EXPECT_NEAR(w.df, 5.157895, 1e-6);
  EXPECT_NEAR(w.se, std::sqrt(7.0 / 3), 1e-12);
  EXPECT_NEAR(w.t_stat, 4 / std::sqrt(7.0 / 3), 1e-12);
  EXPECT_NEAR(w.t, boost::math::quantile(boost::math::students_t(w.df), 0.975), 1e-12);
  EXPECT_TRUE(w.significant);  // t = 2.62 > 2.54
  EXPECT_NEAR(w.p, 0.0454, 0.0005);
}

TEST(Stats, PairedTestSeesThroughDriftBetweenPairs) {
  // The host drifts from 10 to 50 over the runs; each pair differs by about
  // 1: the differences have mean 1 and sd sqrt(0.1 / 4).
  std::vector<double> ref = {10, 20, 30, 40, 50};
  std::vector<double> sample = {11, 21.2, 30.8, 41.1, 50.9};
  PairedResult r = paired_t(sample, ref, 95);
  EXPECT_EQ(r.n, 5u);
  EXPECT_EQ(r.df, 4);
  EXPECT_NEAR(r.diff, 1, 1e-12);
  EXPECT_NEAR(r.sd, std::sqrt(0.1 / 4), 1e-12);
  EXPECT_NEAR(r.se, std::sqrt(0.1 / 4) / std::sqrt(5.0), 1e-12);
  EXPECT_NEAR(r.t, boost::math::quantile(boost::math::students_t(4), 0.975), 1e-12);
  EXPECT_NEAR(r.halfwidth, r.t * r.se, 1e-12);
  EXPECT_NEAR(r.pct, 100.0 / 30, 1e-12);
  EXPECT_NEAR(r.t_stat, 1 / r.se, 1e-9);
  EXPECT_NEAR(r.p,
              2 * boost::math::cdf(boost::math::complement(boost::math::students_t(4), r.t_stat)),
              1e-15);
  EXPECT_TRUE(r.significant);
  // The same values as two independent samples: the drift swamps the pairs.
  EXPECT_FALSE(student_t(describe(sample), describe(ref), 95, true).significant);
  // The same difference in every pair is certain; none at all is no difference.
  std::vector<double> shifted = {12, 22, 32, 42, 52};
  PairedResult c = paired_t(shifted, ref, 95);
  EXPECT_TRUE(c.significant);
  EXPECT_EQ(c.p, 0);
  PairedResult z = paired_t(ref, ref, 95);
  EXPECT_FALSE(z.significant);
  EXPECT_EQ(z.p, 1);
}

TEST(Stats, MannWhitneyTextbookExample) {
  // A beats B in 17 of the 20 pairs; U = 3. Arrangements with U <= 3 out of
  // C(9,4) = 126: 1 + 1 + 2 + 3 = 7, so the two-sided p is 14/126.
  std::vector<double> a = {19, 22, 16, 29, 24}, b = {20, 11, 17, 12};
  MannWhitneyResult r = mann_whitney(a, b);
  EXPECT_EQ(r.u1, 17);
  EXPECT_EQ(r.u2, 3);
  EXPECT_EQ(r.u, 3);
  EXPECT_TRUE(r.exact);
  EXPECT_NEAR(r.p, 14.0 / 126, 1e-12);
  EXPECT_NEAR(r.min_p, 2.0 / 126, 1e-12);
  MannWhitneyResult s = mann_whitney(b, a);
  EXPECT_EQ(s.u1, 3);
  EXPECT_NEAR(s.p, r.p, 1e-12);
}

TEST(Stats, MannWhitneyWithTiesUsesTheNormalApproximation) {
  std::vector<double> a = {1, 2, 2, 3, 4, 4, 5}, b = {3, 4, 5, 5, 6, 6, 7, 8};
  MannWhitneyResult r = mann_whitney(a, b);
  EXPECT_FALSE(r.exact);
  // By hand, each a value counts the b values below it plus half the equal
  // ones: 3 -> 0.5, 4 -> 1.5 (twice), 5 -> 3. U1 = 6.5 of 56 pairs.
  EXPECT_EQ(r.u1, 6.5);
  EXPECT_EQ(r.u2, 56 - 6.5);
  // mu 28, tie term 66: var = 56/12 * (16 - 66/210) = 73.2; z = (21.5 - 0.5) / 8.556.
  EXPECT_NEAR(r.z, -21 / std::sqrt(56.0 / 12 * (16 - 66.0 / 210)), 1e-12);
  EXPECT_NEAR(r.p, 0.01413, 0.00005);
}

TEST(Stats, EffectSize) {
  std::vector<double> a = {1, 2, 3, 4}, b = {5, 6, 7, 8, 9, 9, 9, 9};
  EffectSize e = effect_size(describe(b), describe(a));
  EXPECT_DOUBLE_EQ(e.cohen_d, 3.5);
  EXPECT_NEAR(e.hedges_g, 3.5 * (1 - 3.0 / 39), 1e-12);
}

TEST(Stats, OutlierLayersAsThePaperDescribes) {
  std::vector<double> v(18, 10.0);
  v.insert(v.begin() + 5, 1000);
  v.insert(v.begin() + 12, 100);
  OutlierLayers r = remove_outlier_layers(v, 3);
  EXPECT_EQ(r.removed, (std::vector<std::size_t>{1, 1, 0}));
  EXPECT_EQ(r.kept, std::vector<double>(18, 10.0));
  ASSERT_EQ(r.kept_index.size(), 18u);
  EXPECT_EQ(r.kept_index[4], 4u);
  EXPECT_EQ(r.kept_index[5], 6u);    // 1000 was at 5
  EXPECT_EQ(r.kept_index[10], 11u);  // 100 was at 12 (11 after the first removal)
  EXPECT_EQ(outlier_indices(v), (std::vector<std::size_t>{5}));
}

TEST(Stats, StratificationFindsSeparateBands) {
  std::vector<double> v;
  for (int i = 0; i < 20; ++i) v.push_back(1.0 + 0.001 * i);
  for (int i = 0; i < 10; ++i) v.push_back(1.5 + 0.002 * i);
  Stratification s = detect_strata(v);
  ASSERT_TRUE(s.found);
  ASSERT_EQ(s.bands.size(), 2u);
  EXPECT_EQ(s.bands[0].n, 20u);
  EXPECT_EQ(s.bands[0].lo, 1.0);
  EXPECT_NEAR(s.bands[0].hi, 1.019, 1e-12);
  EXPECT_EQ(s.bands[1].n, 10u);
  EXPECT_EQ(s.bands[1].lo, 1.5);
}

TEST(Stats, NoStrataInOrdinaryOrQuantisedData) {
  // The seed's tjr timings: one band.
  std::vector<double> tjr = {1.130558492, 1.125901197, 1.144079485, 1.118981882, 1.131435699,
                             1.123052511, 1.133321135, 1.121301171, 1.133015788, 1.124377539};
  EXPECT_FALSE(detect_strata(tjr).found);
  // A microsecond timer: values 6 and 7 only are resolution, not strata.
  std::vector<double> q;
  for (int i = 0; i < 100; ++i) q.push_back(i % 3 == 0 ? 7 : 6);
  EXPECT_FALSE(detect_strata(q).found);
  std::vector<double> uniform;
  for (int i = 0; i < 50; ++i) uniform.push_back(i * 0.37);
  EXPECT_FALSE(detect_strata(uniform).found);
  // Too few values above the gap to call it a band.
  std::vector<double> lone(40, 5.0);
  for (int i = 0; i < 40; ++i) lone[static_cast<std::size_t>(i)] += 0.01 * i;
  lone.push_back(50);
  EXPECT_FALSE(detect_strata(lone).found);
}

}  // namespace
}  // namespace dis::cost

namespace dis::cost {
namespace {

TEST(Stats, MannWhitneyNeverClaimsMoreThanTheSizesAllow) {
  // All ties within groups: the approximation alone would say p = 0.047,
  // but with 3 and 3 values no arrangement has a two-sided p below 2/20.
  std::vector<double> a = {5, 5, 5}, b = {6, 6, 6};
  MannWhitneyResult r = mann_whitney(b, a);
  EXPECT_FALSE(r.exact);
  EXPECT_EQ(r.u, 0);
  EXPECT_NEAR(r.min_p, 0.1, 1e-12);
  EXPECT_NEAR(r.p, 0.1, 1e-12);
}

}  // namespace
}  // namespace dis::cost
