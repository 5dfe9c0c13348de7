#include "probe_record.h"

#include <algorithm>
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
  bulk_count += o.bulk_count;
  bulk_ticks += o.bulk_ticks;
  bulk_runs += o.bulk_runs;
}

void ProbeRecord::add_n(std::uint64_t ticks, std::uint64_t n) noexcept {
  if (n == 0) return;
  count += n;
  timed += n;
  sum += ticks * n;
  sumsq += static_cast<unsigned __int128>(ticks) * ticks * n;
  if (ticks < min) min = ticks;
  if (ticks > max) max = ticks;
  hist.add_n(ticks, n);
}

void ProbeRecord::settle() noexcept {
  for (std::size_t v = 0; v < kTally; ++v) {
    if (tally[v] == 0) continue;
    add_n(v, tally[v]);
    tally[v] = 0;
  }
}

std::uint64_t ProbeRecord::min_so_far() const noexcept {
  for (std::size_t v = 0; v < kTally && v < min; ++v)
    if (tally[v] != 0) return v;
  return min;
}

ProbeRecord ProbeRecord::rebased(std::uint64_t base) const noexcept {
  ProbeRecord r;
  r.count = count;
  r.timed = timed;
  r.bulk_count = bulk_count;
  r.bulk_ticks = bulk_ticks;
  r.bulk_runs = bulk_runs;
  if (timed == 0 || base == 0) {
    r = *this;
    return r;
  }
  using u128 = unsigned __int128;
  const u128 shift = static_cast<u128>(base) * timed;
  // M2 (sum of squared deviations) = sumsq - sum^2 / timed, kept exactly
  // as sumsq * timed - sum^2 (both sides multiplied by timed) when it fits.
  r.sum = static_cast<u128>(sum) > shift ? static_cast<std::uint64_t>(sum - shift) : 0;
  // sumsq of the shifted values: sum (x - b)^2 = sumsq - 2 b sum + timed b^2
  // when the mean stays above the base; otherwise keep the deviation:
  // M2 + r.sum^2 / timed.
  const u128 s = sum;
  const u128 plus = sumsq + static_cast<u128>(base) * base * timed;
  const u128 minus = 2 * static_cast<u128>(base) * s;
  if (static_cast<u128>(sum) > shift && plus >= minus) {
    r.sumsq = plus - minus;
  } else {
    const u128 m2 = sumsq - (s * s) / timed;
    r.sumsq = m2 + static_cast<u128>(r.sum) * r.sum / timed;
  }
  r.min = min > base ? min - base : 0;
  r.max = max > base ? max - base : 0;
  for (int i = 0; i < LogHistogram::kBuckets; ++i) {
    const std::uint64_t n = hist.at(i);
    if (n == 0) continue;
    std::uint64_t mid = LogHistogram::bucket_low(i) + (LogHistogram::bucket_width(i) - 1) / 2;
    r.hist.add_n(mid > base ? mid - base : 0, n);
  }
  return r;
}

ProbeRecord ProbeRecord::rebased_exact(double base) const noexcept {
  if (!(base > 0)) return *this;
  auto whole = static_cast<std::uint64_t>(base);
  auto frac = static_cast<std::uint64_t>(std::llround((base - static_cast<double>(whole)) * 256));
  if (frac == 256) ++whole, frac = 0;
  ProbeRecord r = rebased(whole);
  if (frac == 0 || r.timed == 0) return r;
  using u128 = unsigned __int128;
  // The deviation stays; the sum of squares is recentred on the new sum.
  const u128 s = r.sum;
  const u128 m2 = r.sumsq - (s * s) / r.timed;
  const u128 shift = (static_cast<u128>(frac) * r.timed + 128) / 256;
  r.sum = s > shift ? static_cast<std::uint64_t>(s - shift) : 0;
  r.sumsq = m2 + static_cast<u128>(r.sum) * r.sum / r.timed;
  // The min rounds down to a whole tick: when every observation is the
  // same, a min kept above the mean would claim an observation below it.
  if (r.min > 0) --r.min;
  return r;
}

ProbeRecord ProbeRecord::rebased_exact(double base, double run_base) const noexcept {
  ProbeRecord r = rebased_exact(base);
  if (run_base > 0) r.bulk_ticks = std::max(0.0, bulk_ticks - run_base * bulk_runs);
  return r;
}

double ProbeRecord::mean() const noexcept {
  if (bulk_count > 0)
    return (static_cast<double>(sum) + bulk_ticks) / static_cast<double>(timed + bulk_count);
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

double ProbeRecord::excess_over_percentile(double p) const noexcept {
  if (timed == 0) return 0.0;
  const double pv = percentile(p);
  auto rank = static_cast<std::uint64_t>(std::ceil(p / 100.0 * static_cast<double>(timed)));
  std::uint64_t seen = 0;
  double excess = 0;
  for (int i = 0; i < LogHistogram::kBuckets; ++i) {
    const std::uint64_t n = hist.at(i);
    if (n == 0) continue;
    const std::uint64_t before = seen;
    seen += n;
    if (seen <= rank) continue;
    // Observations of this bucket beyond the rank lie above the percentile.
    const std::uint64_t above = before >= rank ? n : seen - rank;
    double mid = static_cast<double>(LogHistogram::bucket_low(i)) +
                 static_cast<double>(LogHistogram::bucket_width(i) - 1) / 2.0;
    if (mid > static_cast<double>(max)) mid = static_cast<double>(max);
    if (mid > pv) excess += static_cast<double>(above) * (mid - pv);
  }
  const std::uint64_t singles = single_count();
  if (timed != singles && singles != 0)
    excess *= static_cast<double>(singles) / static_cast<double>(timed);
  return excess;
}

double ProbeRecord::total_estimate() const noexcept {
  const std::uint64_t singles = single_count();
  if (timed == 0) return bulk_ticks;
  if (timed == singles || singles == 0) return static_cast<double>(sum) + bulk_ticks;
  return static_cast<double>(sum) * static_cast<double>(singles) / static_cast<double>(timed) +
         bulk_ticks;
}

}  // namespace dis::vm
