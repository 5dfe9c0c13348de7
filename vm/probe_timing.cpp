#include "probe_timing.h"

#include <cmath>

namespace dis::vm {

void CallTracker::enter(std::uint32_t fn, std::uint32_t site, std::uint64_t ticks,
                        std::uint64_t instructions) {
  stack_.push_back({fn, site, ticks, instructions});
  if (fn < active_.size()) ++active_[fn];
}

void CallTracker::leave(std::uint64_t ticks, std::uint64_t instructions) {
  if (stack_.empty()) return;
  Frame f = stack_.back();
  stack_.pop_back();
  std::uint64_t dt = ticks >= f.ticks ? ticks - f.ticks : 0;
  std::uint64_t di = instructions >= f.instructions ? instructions - f.instructions : 0;
  if (f.fn < fn_.size()) {
    // Only the outermost activation of a function adds its inclusive time:
    // the inner ones lie inside it already.
    if (--active_[f.fn] == 0) {
      fn_[f.fn].ticks += dt;
      fn_[f.fn].instructions += di;
    }
    ++fn_[f.fn].calls;
  }
  if (f.site < site_.size()) {
    ++site_[f.site].calls;
    site_[f.site].ticks += dt;
    site_[f.site].instructions += di;
  }
}

void CallTracker::leave_to(std::size_t depth, std::uint64_t ticks, std::uint64_t instructions) {
  while (stack_.size() > depth) leave(ticks, instructions);
}

void CallTracker::merge_totals(const CallTracker& o) {
  auto add = [](std::vector<InclusiveTotals>& a, const std::vector<InclusiveTotals>& b) {
    if (a.size() < b.size()) a.resize(b.size());
    for (std::size_t i = 0; i < b.size(); ++i) {
      a[i].calls += b[i].calls;
      a[i].ticks += b[i].ticks;
      a[i].instructions += b[i].instructions;
    }
  };
  add(fn_, o.fn_);
  add(site_, o.site_);
  if (active_.size() < fn_.size()) active_.resize(fn_.size());
}

Base base_from_record(BasePolicy policy, const ProbeRecord& empty) {
  Base b;
  b.policy = policy;
  b.samples = static_cast<std::uint32_t>(empty.timed);
  if (empty.timed == 0) return b;
  b.min_ticks = empty.min;
  b.median_ticks = static_cast<std::uint64_t>(std::llround(empty.median()));
  b.ticks = policy == BasePolicy::Min ? b.min_ticks : b.median_ticks;
  b.ns = to_ns(b.ticks);
  return b;
}

Base measure_probe_base(BasePolicy policy, std::uint32_t samples) {
  (void)timer();
  ProbeRecord empty;
  ChainedTimer<> t;
  for (std::uint32_t i = 0; i < samples; ++i) t.begin(empty);
  t.close();
  return base_from_record(policy, empty);
}

}  // namespace dis::vm
