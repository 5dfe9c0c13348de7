#include "timer_resolution.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "timer.h"

namespace dis::vm {

namespace {

struct Cluster {
  std::uint64_t lo = 0, hi = 0, count = 0;
  double sum = 0;  // of the values, for the mean
};

// Runs of neighbouring values (no gap of more than one tick), ascending.
std::vector<Cluster> clusters_of(const std::map<std::uint64_t, std::uint64_t>& counts) {
  std::vector<Cluster> out;
  for (const auto& [v, n] : counts) {
    if (out.empty() || v > out.back().hi + 1) out.push_back({v, v, 0, 0});
    Cluster& c = out.back();
    c.hi = v;
    c.count += n;
    c.sum += static_cast<double>(v) * static_cast<double>(n);
  }
  return out;
}

}  // namespace

TimerResolution resolution_of(std::span<const std::uint64_t> changes,
                              std::span<const std::uint64_t> delayed, std::uint64_t repeats,
                              std::uint64_t reads) {
  TimerResolution r;
  r.samples = static_cast<std::uint32_t>(changes.size());
  r.repeat_share = reads > 0 ? static_cast<double>(repeats) / static_cast<double>(reads) : 0;
  if (changes.empty()) return r;
  std::map<std::uint64_t, std::uint64_t> counts;
  for (std::uint64_t d : changes) ++counts[d];
  const auto n = static_cast<double>(changes.size());
  std::vector<std::pair<std::uint64_t, std::uint64_t>> by_count(counts.begin(), counts.end());
  std::stable_sort(by_count.begin(), by_count.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  for (std::size_t i = 0; i < by_count.size() && i < TimerResolution::kCommon; ++i)
    r.common.emplace_back(by_count[i].first, static_cast<double>(by_count[i].second) / n);

  const std::vector<Cluster> cs = clusters_of(counts);
  auto step = std::find_if(cs.begin(), cs.end(), [n](const Cluster& c) {
    return static_cast<double>(c.count) / n >= kStepShare;
  });
  if (step == cs.end()) return r;
  const double cluster = step->sum / static_cast<double>(step->count);
  // Reads apart by random delays land on whole steps only if the counter
  // really steps; a finely ticking one spreads them evenly. The cluster
  // may be two or three steps when a read costs more than one (the clock
  // fallback here reads 20 ns apart on a clock of 10 ns steps): the largest
  // divisor whose grid holds the delayed reads is the step.
  double candidate = 0;
  for (int div = 1; div <= 4 && cluster / div >= kMinStep; ++div) {
    const double s = cluster / div;
    std::uint64_t on = 0;
    for (std::uint64_t d : delayed) {
      const auto x = static_cast<double>(d);
      if (x < 0.75 * s || std::abs(x - std::round(x / s) * s) <= 1.5) ++on;
    }
    const double share =
        delayed.empty() ? 0 : static_cast<double>(on) / static_cast<double>(delayed.size());
    r.on_grid = std::max(r.on_grid, share);
    if (share >= kOnGrid) {
      candidate = s;
      r.on_grid = share;
      break;
    }
  }
  if (candidate == 0) return r;
  r.stepped = true;
  r.step_ticks = candidate;
  r.step_share = static_cast<double>(step->count) / n;
  std::uint64_t artefacts = 0;
  for (const Cluster& c : cs)
    if (static_cast<double>(c.hi) < 0.75 * candidate) {
      artefacts += c.count;
      r.artefact_ticks = c.hi;
    }
  r.artefact_share = static_cast<double>(artefacts) / n;
  return r;
}

TimerResolution measure_resolution(std::uint32_t samples) {
  std::vector<std::uint64_t> changes(samples), delayed(samples / 4);
  std::uint64_t repeats = 0, reads = 0;
  for (std::uint64_t& d : changes) {
    const std::uint64_t t0 = now_ticks();
    std::uint64_t t1 = now_ticks();
    ++reads;
    // A clock that stopped would hold us here: a million reads is enough.
    for (int i = 0; t1 == t0 && i < 1000000; ++i, ++reads, ++repeats) t1 = now_ticks();
    d = t1 - t0;
  }
  // Delays of 0-15 stores the compiler cannot drop (a few steps at most,
  // so an error in the step's fraction does not add up over many).
  volatile std::uint64_t sink = 0;
  std::uint64_t rng = 0x9E3779B97F4A7C15u;
  for (std::uint64_t& d : delayed) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    const std::uint64_t k = rng >> 60;
    const std::uint64_t t0 = now_ticks();
    for (std::uint64_t j = 0; j < k; ++j) sink = sink + j;
    d = now_ticks() - t0;
  }
  return resolution_of(changes, delayed, repeats, reads);
}

}  // namespace dis::vm
