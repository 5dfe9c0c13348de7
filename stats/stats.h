// Sample statistics for the measurement tools (bstat, plot, bench).
//
// describe() follows ministat where ministat defines a quantity: the median
// is the element at index n/2 of the sorted sample (the upper middle for even
// n). Mean and variance use Welford's update, so large offsets (timestamps in
// ns) lose no digits. Student's t uses ministat's published table of t values
// (df 1..100, and the infinite-df row beyond 100) unless exact quantiles are
// asked for; the table's "99.5%" column holds, as ministat's does, the
// one-sided 0.999 quantiles. Exact quantiles come from Boost.Math.
#pragma once

#include <array>
#include <cstddef>
#include <span>
#include <string>
#include <vector>

namespace dis::cost {

struct SampleStats {
  std::size_t n = 0;
  double min = 0, max = 0;
  double median = 0;  // ministat's: sorted[n / 2]
  double mean = 0;
  double variance = 0;  // sample variance (n - 1); NaN when n < 2
  double stddev = 0;    // sqrt(variance)
};

SampleStats describe(std::span<const double> values);

// The confidence levels ministat supports, in percent: 80 90 95 98 99 99.5.
inline constexpr std::array<double, 6> kConfidenceLevels = {80, 90, 95, 98, 99, 99.5};
// Index into kConfidenceLevels, or -1 when the level is not supported.
int confidence_index(double percent);

// ministat's table: t for `df` degrees of freedom at level kConfidenceLevels[ci];
// df > 100 uses the infinite row. df must be >= 1.
double t_table(int df, int ci);
// The exact two-sided quantile: t such that P(|T_df| <= t) = percent / 100.
// df may be fractional (Welch); an infinite df gives the normal quantile.
double t_exact(double df, double percent);

// Student's t test of `sample` against the reference `ref` (ministat's Relative()).
struct StudentResult {
  int df = 0;
  double t = 0;                       // the quantile used
  double diff = 0;                    // mean(sample) - mean(ref)
  double halfwidth = 0;               // t * s * sqrt(1/n1 + 1/n2)
  double pct = 0, pct_halfwidth = 0;  // both relative to mean(ref), in percent
  double pooled_s = 0;
  bool significant = false;  // |diff| > halfwidth
};
StudentResult student_t(const SampleStats& sample, const SampleStats& ref, double t_quantile);
StudentResult student_t(const SampleStats& sample, const SampleStats& ref, double percent,
                        bool exact);

// Welch's unequal-variance t test, Welch-Satterthwaite df, exact quantiles.
struct WelchResult {
  double df = 0;
  double t = 0;  // quantile used
  double diff = 0, se = 0, halfwidth = 0;
  double t_stat = 0;  // diff / se
  double p = 1;       // two-sided
  bool significant = false;
};
WelchResult welch_t(const SampleStats& sample, const SampleStats& ref, double percent);

// Paired t test: sample[k] and ref[k] were measured together (the k-th of
// alternating runs), so it tests the mean of the differences
// sample[k] - ref[k], with n - 1 df and exact quantiles. A host whose speed
// drifts over the runs moves both members of a pair and drops out of the
// differences; two independent samples carry it whole. Sizes must be equal
// and at least 2 (the caller checks).
struct PairedResult {
  std::size_t n = 0;  // pairs
  double df = 0;
  double t = 0;  // quantile used
  double diff = 0, sd = 0, se = 0, halfwidth = 0;
  double pct = 0, pct_halfwidth = 0;  // relative to mean(ref), in percent
  double t_stat = 0;                  // diff / se
  double p = 1;                       // two-sided
  bool significant = false;
};
PairedResult paired_t(std::span<const double> sample, std::span<const double> ref, double percent);

// Mann-Whitney U (Wilcoxon rank-sum). U1 counts pairs where sample > ref
// (ties count one half). p is two-sided: exact for small samples without
// ties, else the normal approximation with tie and continuity corrections,
// never below min_p.
struct MannWhitneyResult {
  double u1 = 0, u2 = 0;  // u1 + u2 = n1 * n2
  double u = 0;           // min(u1, u2)
  double z = 0;           // 0 when exact
  double p = 1;
  bool exact = false;
  // The smallest two-sided p any arrangement of these sizes can give.
  double min_p = 1;
};
MannWhitneyResult mann_whitney(std::span<const double> sample, std::span<const double> ref);

// Effect size of sample vs ref: Cohen's d with the pooled s, and Hedges' g
// (d with the small-sample bias correction).
struct EffectSize {
  double cohen_d = 0, hedges_g = 0;
};
EffectSize effect_size(const SampleStats& sample, const SampleStats& ref);

// Outlier layers (the paper's plot -o): each layer removes the values more
// than `k` sample standard deviations from the mean of what is left. The
// order of the kept values is preserved. removed[i] is the count of layer i.
struct OutlierLayers {
  std::vector<double> kept;
  std::vector<std::size_t> kept_index;  // positions of the kept values in the input
  std::vector<std::size_t> removed;
};
OutlierLayers remove_outlier_layers(std::span<const double> values, int layers, double k = 2.0);
// Indices (into values) of the values the first layer would remove.
std::vector<std::size_t> outlier_indices(std::span<const double> values, double k = 2.0);

// Stratification: the sorted values fall into bands with an empty gap
// between them. A gap qualifies when each side holds at least
// max(3, 5% of n) values, the gap is wider than 4 standard deviations of
// either band, and wider than twice the data's resolution (the smallest
// step between distinct values), so quantised timers are not mistaken for
// strata.
struct Band {
  double lo = 0, hi = 0;
  std::size_t n = 0;
};
struct Stratification {
  bool found = false;
  std::vector<Band> bands;  // in increasing order, when found
};
Stratification detect_strata(std::span<const double> values);

}  // namespace dis::cost
