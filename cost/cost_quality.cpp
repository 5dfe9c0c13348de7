#include "cost_quality.h"

#include <fmt/format.h>

#include <algorithm>
#include <boost/math/distributions/chi_squared.hpp>
#include <cmath>

#include "duration_format.h"

namespace dis::cost {

namespace {

struct BaseSummary {
  double ticks = 0;  // all runs' executions
  double min = 0, max = 0;
  bool any = false;
};

// The base `policy` took from the run's executions, and its range per pc.
BaseSummary base_summary(const CostData& d, vm::BasePolicy policy) {
  BaseSummary s;
  for (const ModuleCost& mc : d.modules) {
    const std::vector<double> bases = pc_bases(d, mc, policy);
    for (std::size_t pc = 0; pc < pc_count(mc); ++pc) {
      if (mc.pcs[pc].count == 0) continue;
      s.ticks += vm::Base::total(mc.pcs[pc], bases[pc], d.base.run_for(policy, fusion_at(mc, pc)));
      s.min = s.any ? std::min(s.min, bases[pc]) : bases[pc];
      s.max = s.any ? std::max(s.max, bases[pc]) : bases[pc];
      s.any = true;
    }
  }
  return s;
}

// Two standard errors of the sampled totals (ticks): each pc's total is
// count x mean of `timed` observations.
double sampling_error(const CostData& d) {
  double var = 0;
  for (const ModuleCost& mc : d.modules)
    for (const ProbeRecord& r : mc.pcs)
      if (r.sampled() && r.timed >= 2) {
        const auto n = static_cast<double>(r.single_count());
        var += n * n * r.stddev() * r.stddev() / static_cast<double>(r.timed);
      }
  return 2 * std::sqrt(var);
}

// Of the timed executions, the share whose own mean is under `ticks`.
double share_below(const CostData& d, double ticks) {
  double below = 0, all = 0;
  for (const ModuleCost& mc : d.modules)
    for (const ProbeRecord& r : mc.pcs) {
      if (!r.has_time()) continue;
      // Single readings only: a fused loop's interval spans many steps.
      const auto n = static_cast<double>(r.single_count());
      const double own = static_cast<double>(r.sum) / static_cast<double>(r.timed);
      all += n;
      if (own < ticks) below += n;
    }
  return all > 0 ? below / all : 0;
}

// The probe steps whose base the run's figures carry: one per execution
// timed alone, one per run of a fused loop.
double probe_steps(const CostData& d) {
  double steps = 0;
  for (const ModuleCost& mc : d.modules)
    for (const ProbeRecord& r : mc.pcs)
      steps += static_cast<double>(r.single_count()) + r.bulk_runs;
  return steps;
}

double bucket_ticks(const CostData& d, const char* name) {
  for (const NamedRecord& b : d.buckets)
    if (b.name == name) return b.rec.total_estimate();
  return 0;
}

std::string pct(double share) { return fmt::format("{:.1f}%", 100 * share); }

// A timer step: tens of ns, where whole nanoseconds would hide a fifth.
std::string step_text(const CostData& d, double ticks) {
  const double ns = d.ns(ticks);
  return ns < 100 ? fmt::format("{:.2f} ns", ns) : format_duration_ns(ns);
}

void add_warnings(const CostData& d, Quality& q) {
  const vm::TimerResolution& res = d.timer.resolution;
  if (q.below_resolution > kBelowResolution)
    q.warnings.push_back(fmt::format(
        "{} of the executed instructions took less than one timer step ({:.1f} ticks, {}) "
        "each: single readings are whole steps, so their figures mean something only as "
        "totals and means over many executions",
        pct(q.below_resolution), res.step_ticks, step_text(d, res.step_ticks)));
  if (q.host_share > kHostShare)
    q.warnings.push_back(fmt::format(
        "the host took {} of the run's wall time ({} of {} preempted); what was found in one "
        "interval was moved to the bucket {}, the rest is still in the figures: rerun on a "
        "quieter host, pinned (--pin), or merge runs (--repeat)",
        pct(q.host_share), format_duration_ns(d.preempted_ns), format_duration_ns(q.wall_ns),
        vm::kPreemptedBucket));
  if (q.wall_ns > 0 && q.attributed_ns > q.wall_ns)
    q.warnings.push_back(fmt::format(
        "the attributed total ({}) exceeds the run's wall time ({}){}",
        format_duration_ns(q.attributed_ns), format_duration_ns(q.wall_ns),
        d.sample_every > 0 ? ": the sampled estimates scale too few timed executions up (a "
                             "smaller --sample N times more of them)"
                           : ": time is counted twice or the base is too small"));
}

}  // namespace

bool error_bars(const CostData& d) {
  return d.mode == Mode::Time && d.timer.resolution.samples > 0;
}

Quality quality_of(const CostData& d, double confidence) {
  Quality q;
  const Totals t = totals_of(d);
  const double attributed = t.instruction_ticks + t.outside_ticks;
  q.attributed_ns = d.ns(attributed);
  q.wall_ns = d.wall_ns;
  q.host_share = d.wall_ns > 0 ? d.preempted_ns / d.wall_ns : 0;
  const BaseSummary b = base_summary(d, d.base.policy);
  const auto n = static_cast<double>(t.instructions);
  q.base_ns = n > 0 ? d.ns(b.ticks / n) : 0;
  q.base_min_ns = d.ns(b.min);
  q.base_max_ns = d.ns(b.max);
  const bool stream = d.base.policy == vm::BasePolicy::Stream;
  q.base_spread_ns = d.ns(stream ? 2 * d.base.stream_se_ticks : d.base.empty_std_ticks);
  q.below_resolution = share_below(d, d.timer.resolution.step_ticks);
  // The program's own time: what the host took and the recorder found is
  // in buckets of its own.
  const double removed = bucket_ticks(d, vm::kPreemptedBucket);
  const double own = attributed - removed - bucket_ticks(d, vm::kInterruptsBucket);
  q.own_ns = d.ns(own);
  // What the estimate rests on: the stream calibration, when it ran.
  if (d.base.stream_rounds > 0 && own > 0) {
    q.estimated = true;
    const double steps = probe_steps(d);
    q.calibration = 2 * d.base.stream_se_ticks * steps / own;
    q.model = d.base.stream_residual_ticks * steps / own;
    // Another base sits as far from the truth as from the stream base.
    if (!stream) q.model += std::abs(b.ticks - base_summary(d, vm::BasePolicy::Stream).ticks) / own;
    q.sampling = sampling_error(d) / own;
    // Preemption not found whole in one interval stays where it fell: the
    // instructions' share of it (their share of the timed slices).
    const double left = std::max(0.0, d.preempted_ns - d.ns(removed));
    const double slices = own + t.probe_ticks;
    q.host = slices > 0 ? left * (t.instruction_ticks / slices) / d.ns(own) : 0;
    q.accuracy =
        std::sqrt(q.calibration * q.calibration + q.model * q.model + q.sampling * q.sampling) +
        q.host;
  }
  if (d.runs > 1) {
    double hottest = -1;
    for (const ModuleCost& mc : d.modules)
      for (const LineCost& lc : lines_of(mc)) {
        if (lc.instructions == 0 || lc.ticks <= 0) continue;
        const RunSpread r = run_spread(lc.run_ticks, confidence);
        ++q.repeat_lines;
        if (!r.reproducible) ++q.unreproducible;
        if (lc.ticks > hottest) {
          hottest = lc.ticks;
          q.hottest_cv = r.cv;
        }
      }
  }
  add_warnings(d, q);
  return q;
}

std::string quality_text(const CostData& d, const std::string& prefix, double confidence) {
  if (!error_bars(d)) return "";
  const Quality q = quality_of(d, confidence);
  const vm::TimerResolution& res = d.timer.resolution;
  std::string s = prefix;
  if (res.stepped) {
    s += fmt::format(
        "timer resolution: steps of {:.1f} ticks ({}): of {} reads repeated until the value "
        "changed, {} moved one step",
        res.step_ticks, step_text(d, res.step_ticks), res.samples, pct(res.step_share));
    if (res.artefact_share > 0)
      s += fmt::format(
          " and {} at most {} tick{} (an artefact of the clock, never taken as a base)",
          pct(res.artefact_share), res.artefact_ticks, res.artefact_ticks == 1 ? "" : "s");
    s += "; every time below is a sum of whole steps\n";
  } else {
    s += "timer resolution: 1 tick (the counter moves by every tick)";
    if (!res.common.empty())
      s += fmt::format("; reads repeated until the value changed moved {} ticks most often ({})",
                       res.common.front().first, pct(res.common.front().second));
    s += "\n";
  }
  const bool stream = d.base.policy == vm::BasePolicy::Stream;
  s += prefix + fmt::format(
                    "base per instruction: {:.2f} ns on average over this run ({:.2f}-{:.2f} ns "
                    "by instruction), +/- {:.2f} ns ({})\n",
                    q.base_ns, q.base_min_ns, q.base_max_ns, q.base_spread_ns,
                    stream ? "two standard errors of the stream calibration"
                           : "the empty instructions' standard deviation");
  if (q.estimated)
    s += prefix +
         fmt::format(
             "accuracy estimate: the program's own time {} (attributed less what the host "
             "took) is within +/- {} (the base's "
             "calibration {}, the streams' misfit to one base per class{} {}, sampling {}, host "
             "preemption left inside {}); cost --accuracy measures it against runs without "
             "probes\n",
             format_duration_ns(q.own_ns), pct(q.accuracy), pct(q.calibration),
             stream ? "" : fmt::format(" and this base's distance from it"), pct(q.model),
             pct(q.sampling), pct(q.host));
  else
    s += prefix + fmt::format(
                      "accuracy estimate: none for the {} base (it rests on empty measurements "
                      "alone; the default, --base stream, calibrates what the probe adds to real "
                      "instructions); cost --accuracy measures it against runs without probes\n",
                      vm::base_policy_name(d.base.policy));
  if (q.repeat_lines > 0)
    s += prefix + fmt::format(
                      "reliability over {} runs: the hottest line's total varies by {} from run "
                      "to run (coefficient of variation); {} of {} timed lines vary by more than "
                      "{} at {}% confidence (chi-square over the runs), marked '!'\n",
                      d.runs, pct(q.hottest_cv), q.unreproducible, q.repeat_lines,
                      pct(kReproducibleCv), confidence);
  for (const std::string& w : q.warnings) s += prefix + "warning: " + w + "\n";
  return s;
}

nlohmann::json quality_json(const CostData& d, double confidence) {
  if (!error_bars(d)) return nullptr;
  const Quality q = quality_of(d, confidence);
  const vm::TimerResolution& res = d.timer.resolution;
  nlohmann::json common = nlohmann::json::array();
  for (const auto& [ticks, share] : res.common)
    common.push_back({{"ticks", ticks}, {"share", share}});
  nlohmann::json accuracy = {{"estimated", q.estimated}};
  if (q.estimated) {
    accuracy["share"] = q.accuracy;
    accuracy["calibration"] = q.calibration;
    accuracy["model"] = q.model;
    accuracy["sampling"] = q.sampling;
    accuracy["host"] = q.host;
  }
  nlohmann::json j = {{"resolution",
                       {{"stepped", res.stepped},
                        {"step_ticks", res.step_ticks},
                        {"step_ns", d.ns(res.step_ticks)},
                        {"step_share", res.step_share},
                        {"artefact_share", res.artefact_share},
                        {"artefact_ticks", res.artefact_ticks},
                        {"repeat_share", res.repeat_share},
                        {"on_grid", res.on_grid},
                        {"samples", res.samples},
                        {"common", std::move(common)}}},
                      {"base_ns", q.base_ns},
                      {"base_min_ns", q.base_min_ns},
                      {"base_max_ns", q.base_max_ns},
                      {"base_spread_ns", q.base_spread_ns},
                      {"below_resolution", q.below_resolution},
                      {"accuracy", std::move(accuracy)},
                      {"attributed_ns", q.attributed_ns},
                      {"own_ns", q.own_ns},
                      {"wall_ns", q.wall_ns},
                      {"host_share", q.host_share},
                      {"warnings", q.warnings}};
  if (q.repeat_lines > 0)
    j["reliability"] = {{"runs", d.runs},
                        {"confidence", confidence},
                        {"tolerance_cv", kReproducibleCv},
                        {"timed_lines", q.repeat_lines},
                        {"unreproducible_lines", q.unreproducible},
                        {"hottest_cv", q.hottest_cv}};
  return j;
}

RunSpread run_spread(const std::vector<double>& run_ticks, double confidence_percent) {
  RunSpread r;
  r.runs = run_ticks.size();
  if (r.runs < 2) return r;
  const auto n = static_cast<double>(r.runs);
  for (double t : run_ticks) r.mean += t;
  r.mean /= n;
  double m2 = 0;
  for (double t : run_ticks) m2 += (t - r.mean) * (t - r.mean);
  r.sd = std::sqrt(m2 / (n - 1));
  r.cv = r.mean > 0 ? r.sd / r.mean : 0;
  if (r.mean <= 0) return r;
  // H0: sigma <= kReproducibleCv x mean. Under it (n - 1) s^2 / sigma^2 is
  // chi-square with n - 1 degrees of freedom; a statistic above its
  // quantile at the confidence rejects it.
  const double limit = kReproducibleCv * r.mean;
  const double statistic = (n - 1) * r.sd * r.sd / (limit * limit);
  const boost::math::chi_squared chi(n - 1);
  r.reproducible = statistic <= boost::math::quantile(chi, confidence_percent / 100);
  return r;
}

}  // namespace dis::cost
