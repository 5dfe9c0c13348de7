#include "plot.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "diag.h"

namespace dis::cost {

PlotSeries make_series(const Observation& obs, const ValueRange& range) {
  PlotSeries s;
  s.name = obs.name;
  s.style = obs.style;
  s.xlabel = obs.xlabel;
  s.xunit = obs.xunit;
  s.ylabel = obs.ylabel;
  s.yunit = obs.yunit;
  s.values = apply_range(obs.values, range);
  for (std::size_t i = 0; i < s.values.size(); ++i) s.index.push_back(range.first + i);
  return s;
}

PlotKind choose_kind(const std::string& p, const std::vector<PlotSeries>& series) {
  if (p == "1l") return PlotKind::Lines;
  if (p == "1d") return PlotKind::Dots;
  if (p == "1h") return PlotKind::Histogram;
  if (p == "box") return PlotKind::Box;
  if (!p.empty()) {
    throw InputError(
        Diagnostic{"-p", 0, 0, -1, fmt::format("unknown plot kind '{}' (1l, 1d, 1h, box)", p)});
  }
  bool all_h = !series.empty() && std::all_of(series.begin(), series.end(),
                                              [](const PlotSeries& s) { return s.style == "1h"; });
  if (all_h) return PlotKind::Histogram;
  if (series.size() > 1) return PlotKind::Box;
  if (!series.empty() && series.front().style == "1d") return PlotKind::Dots;
  return PlotKind::Lines;
}

std::string axis_label(const std::string& label, const std::string& unit) {
  if (unit.empty()) return label;
  if (label.empty()) return unit;
  return fmt::format("{} ({})", label, unit);
}

Axis nice_axis(double lo, double hi, int target_ticks, bool zero_origin) {
  if (zero_origin) {
    lo = std::min(lo, 0.0);
    hi = std::max(hi, 0.0);
  }
  if (!(hi > lo)) {  // a constant series: open a unit window around it
    double pad = lo == 0 ? 1 : std::fabs(lo) * 0.1;
    lo -= pad;
    hi += pad;
    if (zero_origin && lo < 0 && hi > 0 && lo + pad >= 0) lo = 0;
  }
  double raw = (hi - lo) / std::max(1, target_ticks);
  double mag = std::pow(10.0, std::floor(std::log10(raw)));
  double step = mag;
  for (double m : {1.0, 2.0, 5.0, 10.0}) {
    step = m * mag;
    if (step >= raw) break;
  }
  Axis a;
  a.step = step;
  a.lo = std::floor(lo / step) * step;
  a.hi = std::ceil(hi / step) * step;
  if (a.hi <= a.lo) a.hi = a.lo + step;
  return a;
}

Bins choose_bins(const std::vector<PlotSeries>& series, bool zero_origin) {
  std::vector<double> all;
  for (const PlotSeries& s : series) all.insert(all.end(), s.values.begin(), s.values.end());
  Bins b;
  if (all.empty()) return b;
  std::sort(all.begin(), all.end());
  double lo = all.front(), hi = all.back();
  if (zero_origin) lo = std::min(lo, 0.0);
  bool integers = std::all_of(all.begin(), all.end(), [](double v) { return v == std::floor(v); });
  // One bin per integer when the integers are dense enough to fill them.
  std::size_t distinct = 1;
  for (std::size_t i = 1; i < all.size(); ++i) distinct += all[i] != all[i - 1];
  if (integers && hi - lo <= 60 && 4 * static_cast<double>(distinct) >= hi - lo + 1) {
    b.integers = true;
    b.width = 1;
    b.lo = lo - 0.5;
    b.count = static_cast<std::size_t>(hi - lo) + 1;
    return b;
  }
  auto n = static_cast<double>(all.size());
  auto quantile = [&](double q) {
    double pos = q * (n - 1);
    auto i = static_cast<std::size_t>(pos);
    double f = pos - static_cast<double>(i);
    return i + 1 < all.size() ? all[i] * (1 - f) + all[i + 1] * f : all[i];
  };
  double iqr = quantile(0.75) - quantile(0.25);
  double raw = iqr > 0 ? 2 * iqr / std::cbrt(n) : (hi - lo) / (std::ceil(std::log2(n)) + 1);
  if (!(raw > 0)) raw = 1;
  raw = std::max(raw, (hi - lo) / 100);  // at most about 100 bins
  double mag = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0, 10.0}) {
    b.width = m * mag;
    if (b.width >= raw) break;
  }
  b.lo = std::floor(lo / b.width) * b.width;
  b.count = static_cast<std::size_t>(std::floor((hi - b.lo) / b.width)) + 1;
  return b;
}

std::vector<std::size_t> bin_counts(std::span<const double> values, const Bins& bins) {
  std::vector<std::size_t> counts(bins.count, 0);
  for (double v : values) {
    double pos = std::floor((v - bins.lo) / bins.width);
    auto i = pos < 0 ? 0 : static_cast<std::size_t>(pos);
    counts[std::min(i, bins.count - 1)]++;
  }
  return counts;
}

BoxStats box_stats(std::span<const double> values) {
  BoxStats b;
  b.n = values.size();
  if (values.empty()) return b;
  std::vector<double> v(values.begin(), values.end());
  std::sort(v.begin(), v.end());
  auto q = [&](double p) {
    double pos = p * static_cast<double>(v.size() - 1);
    auto i = static_cast<std::size_t>(pos);
    double f = pos - static_cast<double>(i);
    return i + 1 < v.size() ? v[i] * (1 - f) + v[i + 1] * f : v[i];
  };
  b.min = v.front();
  b.max = v.back();
  b.q1 = q(0.25);
  b.median = q(0.5);
  b.q3 = q(0.75);
  return b;
}

}  // namespace dis::cost
