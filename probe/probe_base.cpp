#include "probe_base.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "timer.h"

namespace dis::vm {

const char* base_policy_name(BasePolicy p) {
  switch (p) {
    case BasePolicy::Min:
      return "min";
    case BasePolicy::Median:
      return "median";
    case BasePolicy::Mean:
      return "mean";
    case BasePolicy::Stream:
      return "stream";
  }
  return "?";
}

bool parse_base_policy(const std::string& text, BasePolicy& out) {
  for (BasePolicy p : kBasePolicies)
    if (text == base_policy_name(p)) {
      out = p;
      return true;
    }
  return false;
}

Base base_from_samples(BasePolicy policy, std::span<const std::uint64_t> samples) {
  Base b;
  b.policy = policy;
  if (samples.empty()) return b;
  b.samples = static_cast<std::uint32_t>(samples.size());
  std::vector<std::uint64_t> sorted(samples.begin(), samples.end());
  std::sort(sorted.begin(), sorted.end());
  b.min_ticks = sorted.front();
  b.median_ticks = sorted[sorted.size() / 2];
  // The mean of the lower 99%: an interrupt or a preemption in one sample
  // must not move the base.
  const std::size_t kept = std::max<std::size_t>(1, sorted.size() - sorted.size() / 100);
  const double sum =
      std::accumulate(sorted.begin(), sorted.begin() + static_cast<std::ptrdiff_t>(kept), 0.0);
  b.mean_ticks = static_cast<std::uint64_t>(std::llround(sum / static_cast<double>(kept)));
  b.ticks = b.ticks_for(policy);
  b.ns = to_ns(b.ticks);
  return b;
}

}  // namespace dis::vm
