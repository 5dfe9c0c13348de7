#include "probe_record.h"

#include <cmath>

namespace dis::vm {

void ProbeRecord::merge(const ProbeRecord& o) noexcept {
  count += o.count;
  timed += o.timed;
  sum += o.sum;
  sumsq += o.sumsq;
  if (o.min < min) min = o.min;
  if (o.max > max) max = o.max;
  hist.merge(o.hist);
}

double ProbeRecord::mean() const noexcept {
  return timed ? static_cast<double>(sum) / static_cast<double>(timed) : 0.0;
}

double ProbeRecord::stddev() const noexcept {
  if (timed < 2) return 0.0;
  // M2 = sumsq - sum^2 / n, kept exact as far as integers allow: sum^2 fits
  // 128 bits, sum^2 / n = q + r / n, and sumsq >= q since sumsq >= sum^2 / n.
  using u128 = unsigned __int128;
  u128 s2 = static_cast<u128>(sum) * sum;
  u128 q = s2 / timed;
  u128 r = s2 % timed;
  u128 whole = sumsq >= q ? sumsq - q : 0;
  long double m2 = static_cast<long double>(whole) -
                   static_cast<long double>(r) / static_cast<long double>(timed);
  if (m2 <= 0) return 0.0;
  return static_cast<double>(std::sqrt(m2 / static_cast<long double>(timed - 1)));
}

double ProbeRecord::percentile(double p) const noexcept {
  if (timed == 0) return 0.0;
  if (p <= 0) return static_cast<double>(min);
  if (p >= 100) return static_cast<double>(max);
  auto rank = static_cast<std::uint64_t>(std::ceil(p / 100.0 * static_cast<double>(timed)));
  if (rank < 1) rank = 1;
  std::uint64_t seen = 0;
  for (int i = 0; i < LogHistogram::kBuckets; ++i) {
    seen += hist.at(i);
    if (seen >= rank) {
      double mid = static_cast<double>(LogHistogram::bucket_low(i)) +
                   static_cast<double>(LogHistogram::bucket_width(i) - 1) / 2.0;
      if (mid < static_cast<double>(min)) mid = static_cast<double>(min);
      if (mid > static_cast<double>(max)) mid = static_cast<double>(max);
      return mid;
    }
  }
  return static_cast<double>(max);
}

double ProbeRecord::total_estimate() const noexcept {
  if (timed == 0) return 0.0;
  if (timed == count || count == 0) return static_cast<double>(sum);
  return static_cast<double>(sum) * static_cast<double>(count) / static_cast<double>(timed);
}

}  // namespace dis::vm
