#include "probe_timing.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

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

namespace {

// The smallest observation of `r` of at least `floor` ticks (0 if none), to
// half its histogram bucket's width when r.min is below the floor.
std::uint64_t min_at_least(const ProbeRecord& r, std::uint64_t floor) {
  if (r.timed == 0 || r.min >= floor) return r.timed ? r.min : 0;
  using H = LogHistogram;
  for (int i = 0; i < H::kBuckets; ++i)
    if (r.hist.at(i) > 0 && H::bucket_low(i) + H::bucket_width(i) > floor)
      return std::max(H::bucket_low(i) + H::bucket_width(i) / 2, floor);
  return 0;
}

}  // namespace

Base base_from_records(BasePolicy policy, std::span<const ProbeRecord> empties,
                       std::uint64_t floor_ticks) {
  Base b;
  b.floor_ticks = floor_ticks;
  b.policy = policy;
  ProbeRecord all;
  std::vector<double> means;
  for (const ProbeRecord& r : empties) {
    all.merge(r);
    if (r.timed > 0) means.push_back(r.mean());
  }
  b.samples = static_cast<std::uint32_t>(all.timed);
  if (all.timed == 0) return b;
  b.min_ticks = min_at_least(all, floor_ticks);
  b.empty_std_ticks = all.stddev();
  b.median_ticks = static_cast<std::uint64_t>(std::llround(all.median()));
  auto mid = means.begin() + static_cast<std::ptrdiff_t>(means.size() / 2);
  std::nth_element(means.begin(), mid, means.end());
  b.mean_ticks = static_cast<std::uint64_t>(std::llround(*mid));
  b.ticks = b.ticks_for(policy);
  b.ns = to_ns(b.ticks);
  return b;
}

namespace {

// The ticks an interval of `ticks` on `rec` keeps if it was interrupted
// (Interrupts), or `ticks`.
std::uint64_t without_interrupt(ProbeRecord& rec, std::uint64_t ticks, const Interrupts& in) {
  if (!in.bucket || ticks < in.ticks) return ticks;
  rec.settle();  // the tallied executions into the histogram
  if (rec.timed < Interrupts::kMinTimed) return ticks;
  const double typical = rec.percentile(99.9);
  if (static_cast<double>(ticks) < typical * Interrupts::kFactor) return ticks;
  const auto own = static_cast<std::uint64_t>(std::llround(rec.median()));
  if (own >= ticks) return ticks;
  in.bucket->observe(ticks - own);
  return own;
}

}  // namespace

void settle_suspects(std::vector<Suspect>& suspects, double preempted, ProbeRecord& bucket,
                     Interrupts interrupts) {
  std::sort(suspects.begin(), suspects.end(),
            [](const Suspect& a, const Suspect& b) { return a.ticks > b.ticks; });
  double left = preempted > 0 ? preempted : 0;
  for (const Suspect& x : suspects) {
    // What the instruction itself took is unknown; it keeps at least the
    // shortest time its record has seen, so a preempted execution never
    // becomes a new minimum (the base's min policy reads the minima).
    const std::uint64_t seen = x.rec->min_so_far();
    const std::uint64_t floor =
        seen != std::numeric_limits<std::uint64_t>::max() ? std::min(seen, x.ticks) : 0;
    const auto take =
        static_cast<std::uint64_t>(std::min(left, static_cast<double>(x.ticks - floor)));
    if (take > 0) {
      bucket.observe(take);
      left -= static_cast<double>(take);
    }
    const std::uint64_t own = without_interrupt(*x.rec, x.ticks - take, interrupts);
    if (x.counted)
      x.rec->add(own);
    else
      x.rec->observe(own);
  }
  suspects.clear();
}

}  // namespace dis::vm
