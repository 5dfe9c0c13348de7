#include "cost_accuracy.h"

#include <fmt/format.h>

#include <algorithm>

#include "cost_report.h"
#include "stats.h"

namespace dis::cost {

namespace {

// Instruction ticks (all runs) with the base of `policy` subtracted per
// execution (none without one), each pc's total clamped at zero as
// ProbeRecord::rebased clamps it; `base_ticks` gets the base they carried in
// all and `clipped_ticks` what the clamping added back.
double instruction_ticks_after(const CostData& d, const vm::BasePolicy* policy,
                               double* base_ticks = nullptr, double* clipped_ticks = nullptr) {
  double t = 0, b = 0, clipped = 0;
  for (const ModuleCost& mc : d.modules) {
    const std::vector<double> bases =
        policy ? pc_base_totals(d, mc, *policy) : std::vector<double>(mc.pcs.size(), 0);
    for (std::size_t pc = 0; pc < mc.raw_pc_ticks.size() && pc < mc.pcs.size(); ++pc) {
      const double base = bases[pc];
      t += std::max(0.0, mc.raw_pc_ticks[pc] - base);
      clipped += std::max(0.0, base - mc.raw_pc_ticks[pc]);
      b += base;
    }
  }
  if (base_ticks) *base_ticks = b;
  if (clipped_ticks) *clipped_ticks = clipped;
  return t;
}

}  // namespace

Accuracy accuracy_of(const CostData& d, const std::vector<double>& plain_wall,
                     const std::vector<double>& plain_cpu, const HostGauge& gauge) {
  Accuracy a;
  if (gauge.run_ticks > 0 && !gauge.plain_ticks.empty()) {
    a.host_run_ticks = gauge.run_ticks;
    a.host_plain_ticks = describe(gauge.plain_ticks).median;
    a.host_gauges = static_cast<int>(gauge.plain_ticks.size());
    a.host_drift = a.host_plain_ticks > 0 ? a.host_run_ticks / a.host_plain_ticks : 0;
  }
  a.plain_runs = static_cast<int>(plain_wall.size());
  if (!plain_wall.empty()) {
    const SampleStats w = describe(plain_wall);
    a.plain_ns = w.median;
    a.plain_min_ns = w.min;
    a.plain_max_ns = w.max;
  }
  if (!plain_cpu.empty()) {
    const SampleStats c = describe(plain_cpu);
    a.plain_cpu_ns = c.median;
    a.plain_cpu_min_ns = c.min;
    a.plain_cpu_max_ns = c.max;
  }
  a.chosen = d.base.policy;
  const double runs = d.runs;
  const Totals t = totals_of(d);
  a.instructions = static_cast<double>(t.instructions) / runs;
  const double raw = instruction_ticks_after(d, nullptr);
  // The recorder measures preemption over batches of slices with the gaps
  // between them (scheduler, GC steps), idle sleeps left out
  // (CostRecorder::preempted_ns): the instructions' share is theirs of that.
  // What the recorder found whole in one interval is in its bucket already;
  // the rest is shared.
  // Interrupts were found inside instruction intervals: they count with the
  // instructions' share.
  double slept = 0, removed = 0, interrupts = 0;
  for (const NamedRecord& b : d.buckets) {
    if (b.name == "idle" || b.name == "gc.idle") slept += b.rec.total_estimate();
    if (b.name == vm::kPreemptedBucket) removed += b.rec.total_estimate();
    if (b.name == vm::kInterruptsBucket) interrupts += b.rec.total_estimate();
  }
  a.interrupts_ns = d.ns(interrupts) / runs;
  a.overlap_ns = d.ns(d.overlap_ticks) / runs;
  const double inside = raw + interrupts;
  const double slices =
      inside + t.probe_ticks + std::max(0.0, t.outside_ticks - slept - removed - interrupts);
  a.preempted_ns = d.preempted_ns / runs;
  a.preempted_removed_ns = d.ns(removed) / runs;
  const double rest = std::max(0.0, a.preempted_ns - a.preempted_removed_ns);
  a.preempted_inside_ns = a.preempted_removed_ns + (slices > 0 ? rest * inside / slices : 0);
  for (const ModuleCost& mc : d.modules)
    for (const vm::ProbeRecord& r : mc.pcs) a.above_p99_ns += r.excess_over_percentile(99);
  a.above_p99_ns = d.ns(a.above_p99_ns) / runs;
  for (vm::BasePolicy p : vm::kBasePolicies) {
    PolicyAccuracy pa;
    pa.policy = p;
    // Not calibrated: nothing to compare.
    if (p == vm::BasePolicy::Stream && d.base.stream_rounds == 0) continue;
    double all_bases = 0, clipped = 0;
    const double after = instruction_ticks_after(d, &p, &all_bases, &clipped);
    pa.clipped_ns = d.ns(clipped) / runs;
    // The stream base differs by instruction class: its mean over the run.
    pa.base_ns = t.instructions > 0 ? d.ns(all_bases) / static_cast<double>(t.instructions) : 0;
    // Time counted twice is counted once (the plain run's wall time holds
    // it once).
    pa.attributed_ns = d.ns(std::max(0.0, after + t.outside_ticks - d.overlap_ticks)) / runs;
    pa.ratio = a.plain_ns > 0 ? pa.attributed_ns / a.plain_ns : 0;
    pa.bias_ns = a.instructions > 0 ? (pa.attributed_ns - a.plain_ns) / a.instructions : 0;
    const double own = pa.attributed_ns - a.preempted_inside_ns - a.interrupts_ns;
    pa.cpu_ratio = a.plain_cpu_ns > 0 ? own / a.plain_cpu_ns : 0;
    pa.cpu_ratio_host = a.host_drift > 0 ? pa.cpu_ratio / a.host_drift : 0;
    if (p == vm::BasePolicy::Stream) {
      const double uncertain_ns = d.ns(2 * d.base.stream_se_ticks) * a.instructions;
      pa.ratio_uncertainty = a.plain_ns > 0 ? uncertain_ns / a.plain_ns : 0;
      pa.cpu_ratio_uncertainty = a.plain_cpu_ns > 0 ? uncertain_ns / a.plain_cpu_ns : 0;
    }
    a.policies.push_back(pa);
  }
  return a;
}

std::string accuracy_text(const Accuracy& a) {
  std::string s = fmt::format(
      "\naccuracy: plain run {} wall, {} CPU (medians of {}); {:.0f} instructions per run\n",
      format_duration_ns(a.plain_ns), format_duration_ns(a.plain_cpu_ns), a.plain_runs,
      a.instructions);
  if (a.plain_runs > 1) {
    const double spread =
        a.plain_cpu_ns > 0 ? (a.plain_cpu_max_ns - a.plain_cpu_min_ns) / a.plain_cpu_ns : 0;
    s += fmt::format(
        "accuracy: the plain runs took {}..{} wall, {}..{} CPU: {:.0f}% of the median CPU time "
        "between the fastest and the slowest\n",
        format_duration_ns(a.plain_min_ns), format_duration_ns(a.plain_max_ns),
        format_duration_ns(a.plain_cpu_min_ns), format_duration_ns(a.plain_cpu_max_ns),
        100 * spread);
    if (spread > kNoisyPlainSpread)
      s += fmt::format(
          "accuracy: warning: the host is noisy (the same plain run varies by {:.0f}%); a ratio "
          "off by about that much says nothing about the probes: repeat, or rerun when it is "
          "quiet\n",
          100 * spread);
  }
  s += fmt::format(
      "accuracy: host preemption {} per run while the program ran, {} of it taken out of "
      "instruction\n  intervals (bucket {}), about {} more inside instructions\n",
      format_duration_ns(a.preempted_ns), format_duration_ns(a.preempted_removed_ns),
      vm::kPreemptedBucket, format_duration_ns(a.preempted_inside_ns - a.preempted_removed_ns));
  s += fmt::format(
      "accuracy: interrupts {} per run taken out of instruction intervals (bucket {}); {} of the\n"
      "  attributed time lies above each instruction's p99\n",
      format_duration_ns(a.interrupts_ns), vm::kInterruptsBucket,
      format_duration_ns(a.above_p99_ns));
  if (a.host_drift > 0)
    s += fmt::format(
        "accuracy: host gauge: the plain streams took {:.2f} ticks per instruction beside the "
        "costed run, {:.2f} beside the plain runs (median of {}): drift {:.3f} (above 1 the "
        "costed run met a slower host); each policy's CPU ratio over the drift ends its line\n",
        a.host_run_ticks, a.host_plain_ticks, a.host_gauges, a.host_drift);
  if (a.overlap_ns > 0)
    s += fmt::format(
        "accuracy: {} per run was recorded while a thread waited in a builtin, and is in that "
        "builtin's mcall too: the attributed times below count it once\n",
        format_duration_ns(a.overlap_ns));
  // One row per base policy: a small table, its columns explained below it.
  s += fmt::format(
      "accuracy per base policy, per run (* the one this report uses):\n"
      "  {:<8} {:>9} {:>10} {:>6} {:>7} {:>6} {:>6} {:>6} {:>9}\n",
      "base", "per instr", "attributed", "wall", "bias ns", "CPU", "+/-", "host", "clamped");
  for (const PolicyAccuracy& p : a.policies) {
    // The preemption estimate can exceed what a large base leaves: then the
    // CPU comparison says nothing.
    const auto ratio = [](double r) { return r > 0 ? fmt::format("{:.3f}", r) : std::string("-"); };
    s += fmt::format(
        "  {:<8} {:>9} {:>10} {:>6.3f} {:>7.2f} {:>6} {:>6} {:>6} {:>9}\n",
        std::string(vm::base_policy_name(p.policy)) + (p.policy == a.chosen ? "*" : ""),
        format_duration_ns(p.base_ns), format_duration_ns(p.attributed_ns), p.ratio, p.bias_ns,
        p.cpu_ratio >= 0 ? fmt::format("{:.3f}", p.cpu_ratio) : std::string("n/a"),
        ratio(p.cpu_ratio_uncertainty), ratio(p.cpu_ratio_host),
        p.clipped_ns > 0 ? format_duration_ns(p.clipped_ns) : std::string("-"));
  }
  s += "  wall: attributed / plain wall time; bias: the residual per instruction; CPU: attributed "
       "less\n"
       "  preemption and interrupts / plain CPU time (n/a: preemption exceeds it); +/-: two "
       "standard\n"
       "  errors from the calibration's scatter alone; host: CPU over the host drift; clamped: "
       "where\n"
       "  the base exceeded a pc's ticks\n";
  return s;
}

nlohmann::json accuracy_json(const Accuracy& a) {
  nlohmann::json policies = nlohmann::json::array();
  const PolicyAccuracy* chosen = nullptr;
  for (const PolicyAccuracy& p : a.policies) {
    if (p.policy == a.chosen) chosen = &p;
    policies.push_back({{"base", vm::base_policy_name(p.policy)},
                        {"base_ns", p.base_ns},
                        {"attributed_ns", p.attributed_ns},
                        {"ratio", p.ratio},
                        {"bias_ns_per_instruction", p.bias_ns},
                        {"cpu_ratio", p.cpu_ratio},
                        {"ratio_uncertainty", p.ratio_uncertainty},
                        {"cpu_ratio_uncertainty", p.cpu_ratio_uncertainty},
                        {"clipped_ns", p.clipped_ns},
                        {"cpu_ratio_host", p.cpu_ratio_host}});
  }
  const PolicyAccuracy none;
  const PolicyAccuracy& c = chosen ? *chosen : none;
  return {{"base", vm::base_policy_name(a.chosen)},
          {"plain_ns", a.plain_ns},
          {"plain_cpu_ns", a.plain_cpu_ns},
          {"plain_runs", a.plain_runs},
          {"plain_min_ns", a.plain_min_ns},
          {"plain_max_ns", a.plain_max_ns},
          {"plain_cpu_min_ns", a.plain_cpu_min_ns},
          {"plain_cpu_max_ns", a.plain_cpu_max_ns},
          {"attributed_ns", c.attributed_ns},
          {"ratio", c.ratio},
          {"bias_ns_per_instruction", c.bias_ns},
          {"preempted_ns", a.preempted_ns},
          {"preempted_inside_ns", a.preempted_inside_ns},
          {"preempted_removed_ns", a.preempted_removed_ns},
          {"interrupts_ns", a.interrupts_ns},
          {"overlap_ns", a.overlap_ns},
          {"cpu_ratio", c.cpu_ratio},
          {"above_p99_ns", a.above_p99_ns},
          {"host_run_ticks", a.host_run_ticks},
          {"host_plain_ticks", a.host_plain_ticks},
          {"host_gauges", a.host_gauges},
          {"host_drift", a.host_drift},
          {"cpu_ratio_host", c.cpu_ratio_host},
          {"policies", std::move(policies)}};
}

}  // namespace dis::cost
