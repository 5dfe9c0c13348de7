#include "stats.h"

#include <algorithm>
#include <boost/math/distributions/normal.hpp>
#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <limits>
#include <numeric>

#include "stats_t_table.h"

namespace dis::cost {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Neumaier's compensated sum: the mean of a million large timestamps keeps
// its digits.
struct CompensatedSum {
  double sum = 0, comp = 0;
  void add(double x) {
    double t = sum + x;
    if (std::fabs(sum) >= std::fabs(x))
      comp += (sum - t) + x;
    else
      comp += (x - t) + sum;
    sum = t;
  }
  double value() const { return sum + comp; }
};

double mean_of(std::span<const double> v) {
  CompensatedSum s;
  for (double x : v) s.add(x);
  return s.value() / static_cast<double>(v.size());
}

// Two-pass sample variance around a known mean.
double variance_of(std::span<const double> v, double mean) {
  if (v.size() < 2) return kNaN;
  CompensatedSum s, d;
  for (double x : v) {
    s.add((x - mean) * (x - mean));
    d.add(x - mean);
  }
  double n = static_cast<double>(v.size());
  // The correction term removes what rounding left in the mean.
  double var = (s.value() - d.value() * d.value() / n) / (n - 1);
  return var < 0 ? 0 : var;
}

}  // namespace

SampleStats describe(std::span<const double> values) {
  SampleStats s;
  s.n = values.size();
  if (s.n == 0) {
    s.min = s.max = s.median = s.mean = s.variance = s.stddev = kNaN;
    return s;
  }
  auto [lo, hi] = std::minmax_element(values.begin(), values.end());
  s.min = *lo;
  s.max = *hi;
  std::vector<double> copy(values.begin(), values.end());
  auto mid = copy.begin() + static_cast<std::ptrdiff_t>(s.n / 2);
  std::nth_element(copy.begin(), mid, copy.end());
  s.median = *mid;
  s.mean = mean_of(values);
  s.variance = variance_of(values, s.mean);
  s.stddev = std::sqrt(s.variance);
  return s;
}

int confidence_index(double percent) {
  for (std::size_t i = 0; i < kConfidenceLevels.size(); ++i)
    if (percent == kConfidenceLevels[i]) return static_cast<int>(i);
  return -1;
}

double t_table(int df, int ci) {
  if (ci < 0 || ci >= static_cast<int>(kConfidenceLevels.size()) || df < 1) return kNaN;
  if (df > 100) return kTInfinity[ci];
  return kTTable[df - 1][ci];
}

double t_exact(double df, double percent) {
  double p = 1 - (1 - percent / 100) / 2;
  if (!(df > 0) || !(percent > 0 && percent < 100)) return kNaN;
  if (std::isinf(df)) return boost::math::quantile(boost::math::normal(), p);
  return boost::math::quantile(boost::math::students_t(df), p);
}

StudentResult student_t(const SampleStats& sample, const SampleStats& ref, double t_quantile) {
  StudentResult r;
  double n1 = static_cast<double>(sample.n), n2 = static_cast<double>(ref.n);
  r.df = static_cast<int>(sample.n + ref.n) - 2;
  r.t = t_quantile;
  double pooled = ((n1 - 1) * sample.variance + (n2 - 1) * ref.variance) / (n1 + n2 - 2);
  r.pooled_s = std::sqrt(pooled);
  double s = r.pooled_s * std::sqrt(1.0 / n1 + 1.0 / n2);
  r.diff = sample.mean - ref.mean;
  r.halfwidth = t_quantile * s;
  r.pct = r.diff * 100 / ref.mean;
  r.pct_halfwidth = r.halfwidth * 100 / ref.mean;
  r.significant = std::fabs(r.diff) > r.halfwidth;
  return r;
}

StudentResult student_t(const SampleStats& sample, const SampleStats& ref, double percent,
                        bool exact) {
  int df = static_cast<int>(sample.n + ref.n) - 2;
  double t = exact ? t_exact(df, percent) : t_table(df, confidence_index(percent));
  return student_t(sample, ref, t);
}

namespace {

// A t test's verdict on a difference `diff` with standard error `se` and
// `df` degrees of freedom (exact quantile). With no spread at all (se 0),
// any difference is certain.
struct TVerdict {
  double t = 0, halfwidth = 0, t_stat = 0, p = 1;
  bool significant = false;
};
TVerdict t_verdict(double diff, double se, double df, double percent) {
  TVerdict v;
  v.t = t_exact(df, percent);
  if (!(se > 0)) {
    v.significant = diff != 0;
    v.p = diff != 0 ? 0 : 1;
    v.t_stat = diff != 0 ? std::copysign(INFINITY, diff) : 0;
    return v;
  }
  v.halfwidth = v.t * se;
  v.t_stat = diff / se;
  v.p = 2 *
        boost::math::cdf(boost::math::complement(boost::math::students_t(df), std::fabs(v.t_stat)));
  v.significant = std::fabs(diff) > v.halfwidth;
  return v;
}

// Copies a verdict into a result with the same fields (WelchResult, PairedResult).
template <class Result>
void take_verdict(Result& r, const TVerdict& v) {
  r.t = v.t;
  r.halfwidth = v.halfwidth;
  r.t_stat = v.t_stat;
  r.p = v.p;
  r.significant = v.significant;
}

}  // namespace

WelchResult welch_t(const SampleStats& sample, const SampleStats& ref, double percent) {
  WelchResult r;
  double n1 = static_cast<double>(sample.n), n2 = static_cast<double>(ref.n);
  double a = sample.variance / n1, b = ref.variance / n2;
  r.diff = sample.mean - ref.mean;
  r.se = std::sqrt(a + b);
  // Both samples constant: Welch's df is undefined; take Student's.
  r.df = r.se > 0 ? (a + b) * (a + b) / (a * a / (n1 - 1) + b * b / (n2 - 1)) : n1 + n2 - 2;
  take_verdict(r, t_verdict(r.diff, r.se, r.df, percent));
  return r;
}

PairedResult paired_t(std::span<const double> sample, std::span<const double> ref, double percent) {
  PairedResult r;
  r.n = std::min(sample.size(), ref.size());
  std::vector<double> d(r.n);
  for (std::size_t k = 0; k < r.n; ++k) d[k] = sample[k] - ref[k];
  const SampleStats ds = describe(d);
  r.df = static_cast<double>(r.n) - 1;
  r.diff = ds.mean;
  r.sd = ds.stddev;
  r.se = ds.stddev / std::sqrt(static_cast<double>(r.n));
  take_verdict(r, t_verdict(r.diff, r.se, r.df, percent));
  const double ref_mean = describe(ref.first(r.n)).mean;
  if (ref_mean != 0) {
    r.pct = 100 * r.diff / ref_mean;
    r.pct_halfwidth = 100 * r.halfwidth / ref_mean;
  }
  return r;
}

namespace {

// Number of arrangements of n1 + n2 distinct values giving each U (ways[u]),
// by the recurrence on the largest value's owner.
std::vector<double> u_distribution(std::size_t n1, std::size_t n2) {
  // f[i][j] is a vector over u; keep a table indexed [i][j].
  std::vector<std::vector<std::vector<double>>> f(n1 + 1, std::vector<std::vector<double>>(n2 + 1));
  for (std::size_t i = 0; i <= n1; ++i) {
    for (std::size_t j = 0; j <= n2; ++j) {
      auto& cell = f[i][j];
      cell.assign(i * j + 1, 0.0);
      if (i == 0 || j == 0) {
        cell[0] = 1;
        continue;
      }
      // Largest value belongs to sample 1: it beats all j of sample 2.
      const auto& a = f[i - 1][j];
      for (std::size_t u = 0; u < a.size(); ++u) cell[u + j] += a[u];
      const auto& b = f[i][j - 1];
      for (std::size_t u = 0; u < b.size(); ++u) cell[u] += b[u];
    }
  }
  return f[n1][n2];
}

}  // namespace

MannWhitneyResult mann_whitney(std::span<const double> sample, std::span<const double> ref) {
  MannWhitneyResult r;
  std::size_t n1 = sample.size(), n2 = ref.size();
  if (n1 == 0 || n2 == 0) return r;
  struct Item {
    double v;
    int group;
  };
  std::vector<Item> all;
  all.reserve(n1 + n2);
  for (double v : sample) all.push_back({v, 1});
  for (double v : ref) all.push_back({v, 2});
  std::sort(all.begin(), all.end(), [](const Item& x, const Item& y) { return x.v < y.v; });
  double n = static_cast<double>(n1 + n2);
  double rank_sum1 = 0, tie_term = 0;
  bool ties = false;
  for (std::size_t i = 0; i < all.size();) {
    std::size_t j = i;
    while (j < all.size() && all[j].v == all[i].v) ++j;
    double avg_rank = (static_cast<double>(i + 1) + static_cast<double>(j)) / 2;
    double t = static_cast<double>(j - i);
    if (t > 1) {
      ties = true;
      tie_term += t * t * t - t;
    }
    for (std::size_t k = i; k < j; ++k)
      if (all[k].group == 1) rank_sum1 += avg_rank;
    i = j;
  }
  double d1 = static_cast<double>(n1), d2 = static_cast<double>(n2);
  r.u1 = rank_sum1 - d1 * (d1 + 1) / 2;
  r.u2 = d1 * d2 - r.u1;
  r.u = std::min(r.u1, r.u2);

  // log C(n, n1) for the smallest achievable p.
  double log_choose = std::lgamma(n + 1) - std::lgamma(d1 + 1) - std::lgamma(d2 + 1);
  r.min_p = std::min(1.0, 2 * std::exp(-log_choose));

  if (!ties && n1 <= 40 && n2 <= 40) {
    std::vector<double> ways = u_distribution(n1, n2);
    double total = std::accumulate(ways.begin(), ways.end(), 0.0);
    double below = 0;
    auto umin = static_cast<std::size_t>(r.u);
    for (std::size_t u = 0; u <= umin && u < ways.size(); ++u) below += ways[u];
    r.exact = true;
    r.p = std::min(1.0, 2 * below / total);
    return r;
  }
  double mu = d1 * d2 / 2;
  double var = d1 * d2 / 12 * ((n + 1) - tie_term / (n * (n - 1)));
  if (!(var > 0)) {
    r.p = 1;
    return r;
  }
  double dev = std::max(0.0, std::fabs(r.u1 - mu) - 0.5);
  r.z = std::copysign(dev / std::sqrt(var), r.u1 - mu);
  // Ties only coarsen the permutation distribution, so no arrangement can
  // be rarer than min_p: the approximation must not claim more for small samples.
  r.p = std::clamp(std::erfc(std::fabs(r.z) / std::sqrt(2.0)), r.min_p, 1.0);
  return r;
}

EffectSize effect_size(const SampleStats& sample, const SampleStats& ref) {
  EffectSize e;
  double n1 = static_cast<double>(sample.n), n2 = static_cast<double>(ref.n);
  double pooled = std::sqrt(((n1 - 1) * sample.variance + (n2 - 1) * ref.variance) / (n1 + n2 - 2));
  e.cohen_d = (sample.mean - ref.mean) / pooled;
  e.hedges_g = e.cohen_d * (1 - 3 / (4 * (n1 + n2) - 9));
  return e;
}

std::vector<std::size_t> outlier_indices(std::span<const double> values, double k) {
  std::vector<std::size_t> out;
  if (values.size() < 3) return out;
  double mean = mean_of(values);
  double sd = std::sqrt(variance_of(values, mean));
  for (std::size_t i = 0; i < values.size(); ++i)
    if (std::fabs(values[i] - mean) > k * sd) out.push_back(i);
  return out;
}

OutlierLayers remove_outlier_layers(std::span<const double> values, int layers, double k) {
  OutlierLayers r;
  r.kept.assign(values.begin(), values.end());
  r.kept_index.resize(values.size());
  std::iota(r.kept_index.begin(), r.kept_index.end(), std::size_t{0});
  for (int layer = 0; layer < layers; ++layer) {
    std::vector<std::size_t> idx = outlier_indices(r.kept, k);
    r.removed.push_back(idx.size());
    if (idx.empty()) continue;
    std::vector<double> next;
    std::vector<std::size_t> next_index;
    next.reserve(r.kept.size() - idx.size());
    next_index.reserve(r.kept.size() - idx.size());
    std::size_t j = 0;
    for (std::size_t i = 0; i < r.kept.size(); ++i) {
      if (j < idx.size() && idx[j] == i) {
        ++j;
        continue;
      }
      next.push_back(r.kept[i]);
      next_index.push_back(r.kept_index[i]);
    }
    r.kept = std::move(next);
    r.kept_index = std::move(next_index);
  }
  return r;
}

namespace {

double band_sd(std::span<const double> sorted) {
  if (sorted.size() < 2) return 0;
  return std::sqrt(variance_of(sorted, mean_of(sorted)));
}

}  // namespace

Stratification detect_strata(std::span<const double> values) {
  Stratification r;
  std::size_t n = values.size();
  if (n < 6) return r;
  std::vector<double> sorted(values.begin(), values.end());
  std::sort(sorted.begin(), sorted.end());
  std::size_t min_band = std::max<std::size_t>(3, (n + 19) / 20);

  double resolution = INFINITY;
  struct Gap {
    double width;
    std::size_t at;  // the gap lies between sorted[at - 1] and sorted[at]
  };
  std::vector<Gap> gaps;
  for (std::size_t i = 1; i < n; ++i) {
    double g = sorted[i] - sorted[i - 1];
    if (g > 0) {
      resolution = std::min(resolution, g);
      gaps.push_back({g, i});
    }
  }
  if (gaps.empty()) return r;
  std::sort(gaps.begin(), gaps.end(), [](const Gap& a, const Gap& b) { return a.width > b.width; });
  if (gaps.size() > 32) gaps.resize(32);

  // Greedily accept the widest gaps that keep every split valid.
  std::vector<std::size_t> cuts;
  auto valid = [&](const std::vector<std::size_t>& cs) {
    std::vector<std::size_t> bounds = {0};
    bounds.insert(bounds.end(), cs.begin(), cs.end());
    bounds.push_back(n);
    std::vector<double> sds;
    for (std::size_t b = 0; b + 1 < bounds.size(); ++b) {
      std::size_t lo = bounds[b], hi = bounds[b + 1];
      if (hi - lo < min_band) return false;
      sds.push_back(band_sd(std::span<const double>(sorted).subspan(lo, hi - lo)));
    }
    for (std::size_t c = 0; c < cs.size(); ++c) {
      double gap = sorted[cs[c]] - sorted[cs[c] - 1];
      if (!(gap > 2 * resolution)) return false;
      if (!(gap > 4 * std::max(sds[c], sds[c + 1]))) return false;
    }
    return true;
  };
  for (const Gap& g : gaps) {
    std::vector<std::size_t> trial = cuts;
    trial.insert(std::upper_bound(trial.begin(), trial.end(), g.at), g.at);
    if (valid(trial)) cuts = std::move(trial);
  }
  if (cuts.empty()) return r;
  r.found = true;
  std::size_t lo = 0;
  cuts.push_back(n);
  for (std::size_t c : cuts) {
    r.bands.push_back({sorted[lo], sorted[c - 1], c - lo});
    lo = c;
  }
  return r;
}

}  // namespace dis::cost
