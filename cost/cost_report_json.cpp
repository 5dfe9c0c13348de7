// The JSON report; its shape is documented by cost/cost_schema.json.
#include "cost_mem.h"
#include "cost_quality.h"
#include "cost_report.h"

namespace dis::cost {

namespace {

using nlohmann::json;

// A record's statistics; counts only: just the count.
json stats(const CostData& d, bool counts, const ProbeRecord& r) {
  json j;
  j["count"] = r.count;
  if (counts) return j;
  j["timed"] = r.timed;
  if (r.bulk_count > 0) j["fused"] = r.bulk_count;
  j["sampled"] = r.sampled();
  j["total_ns"] = d.ns(r.total_estimate());
  j["mean_ns"] = d.ns(r.mean());
  j["min_ns"] = d.ns(static_cast<double>(r.min_or_zero()));
  j["max_ns"] = d.ns(static_cast<double>(r.max));
  j["std_ns"] = d.ns(r.stddev());
  j["median_ns"] = d.ns(r.median());
  j["p99_ns"] = d.ns(r.percentile(99));
  return j;
}

json named(const CostData& d, bool counts, const std::vector<NamedRecord>& v) {
  json a = json::array();
  for (const NamedRecord& n : v) {
    json j = stats(d, counts, n.rec);
    j["name"] = n.name;
    a.push_back(std::move(j));
  }
  return a;
}

json module_json(const CostData& d, bool counts, const ModuleCost& mc, double confidence) {
  json m;
  m["name"] = mc.name;
  m["source_files"] = mc.module ? json(mc.module->source_files) : json::array();
  json lines = json::array();
  for (const LineCost& lc : lines_of(mc)) {
    json l;
    l["file"] = lc.file;
    l["line"] = lc.line;
    if (lc.file >= 0) l["text"] = detail::source_line(mc, lc.file, lc.line);
    l["instructions"] = lc.instructions;
    if (!counts) l["total_ns"] = d.ns(lc.ticks);
    if (!counts && !lc.run_ticks.empty()) {
      json runs = json::array();
      for (double t : lc.run_ticks) runs.push_back(d.ns(t));
      l["run_ns"] = std::move(runs);
      if (lc.run_ticks.size() > 1 && lc.instructions > 0) {
        const RunSpread r = run_spread(lc.run_ticks, confidence);
        l["run_cv"] = r.cv;
        l["reproducible"] = r.reproducible;
      }
    }
    json ops = json::array();
    for (std::int32_t pc : lc.pcs) {
      const ProbeRecord& r = mc.pcs[static_cast<std::size_t>(pc)];
      if (r.count == 0) continue;
      json op = stats(d, counts, r);
      op["pc"] = pc;
      op["op"] = std::string(op_name(mc.module->code[static_cast<std::size_t>(pc)].op));
      ops.push_back(std::move(op));
    }
    l["ops"] = std::move(ops);
    if (!mc.mem.empty())
      if (const vm::MemSite ms = mem_of(mc, lc.pcs); !ms.empty()) l["mem"] = mem_site_json(ms);
    lines.push_back(std::move(l));
  }
  m["lines"] = std::move(lines);
  json fns = json::array();
  for (const FunctionCost& f : functions_of(mc)) {
    json j;
    j["name"] = f.name;
    j["pc"] = f.pc;
    j["end_pc"] = f.end_pc;
    j["instructions"] = f.instructions;
    if (!counts) j["exclusive_ns"] = d.ns(f.exclusive_ticks);
    if (f.inclusive) {
      j["calls"] = f.inclusive->calls;
      j["inclusive_instructions"] = f.inclusive->inclusive_instructions;
      if (!counts) j["inclusive_ns"] = d.ns(static_cast<double>(f.inclusive->inclusive_ticks));
    }
    if (!mc.mem.empty())
      if (const vm::MemSite ms = mem_of_range(mc, f.pc, f.end_pc); !ms.empty())
        j["mem"] = mem_site_json(ms);
    fns.push_back(std::move(j));
  }
  m["functions"] = std::move(fns);
  json sites = json::array();
  for (const CallSite& c : mc.call_sites) {
    json j;
    j["pc"] = c.pc;
    j["callee_module"] =
        c.callee_module >= 0 && static_cast<std::size_t>(c.callee_module) < d.modules.size()
            ? json(d.modules[static_cast<std::size_t>(c.callee_module)].name)
            : json(nullptr);
    j["callee_pc"] = c.callee_pc;
    j["callee_name"] = c.callee_name;
    j["calls"] = c.calls;
    j["inclusive_instructions"] = c.inclusive_instructions;
    if (!counts) j["inclusive_ns"] = d.ns(static_cast<double>(c.inclusive_ticks));
    sites.push_back(std::move(j));
  }
  m["call_sites"] = std::move(sites);
  return m;
}

}  // namespace

nlohmann::json render_json_value(const CostData& d, const ReportOptions& o) {
  bool counts = detail::counts_only(d, o);
  Totals t = totals_of(d);
  json j;
  j["schema"] = "disvm-cost/1";
  j["program"] = d.program;
  json outcome = {{"status", outcome_name(d.outcome.status)}, {"error", d.outcome.error}};
  if (d.outcome.pc >= 0) outcome["pc"] = d.outcome.pc;
  if (!d.outcome.where.empty()) outcome["where"] = d.outcome.where;
  j["outcome"] = std::move(outcome);
  j["mode"] = counts ? "count" : "time";
  j["runs"] = d.runs;
  j["sample_every"] = d.sample_every;
  j["total_instructions"] = t.instructions;
  if (!counts) {
    j["timer_read_ns"] = d.timer.read.min_ns;
    json tm;
    tm["name"] = d.timer.name;
    tm["tsc"] = d.timer.tsc;
    tm["fallback_reason"] = d.timer.fallback_reason;
    tm["ticks_per_ns"] = d.timer.ticks_per_ns;
    tm["calibration_rounds"] = d.timer.calibration_rounds;
    tm["calibration_ms"] = d.timer.calibration_ms;
    tm["calibration_spread"] = d.timer.calibration_spread;
    tm["read_min_ticks"] = d.timer.read.min_ticks;
    tm["read_median_ticks"] = d.timer.read.median_ticks;
    tm["read_min_ns"] = d.timer.read.min_ns;
    tm["read_median_ns"] = d.timer.read.median_ns;
    j["timer"] = std::move(tm);
    json b;
    b["policy"] = vm::base_policy_name(d.base.policy);
    b["ticks"] = d.base.ticks;
    b["ns"] = d.ns(d.base.policy == vm::BasePolicy::Stream ? d.base.stream_ticks
                                                           : static_cast<double>(d.base.ticks));
    b["samples"] = d.base.samples;
    b["min_ticks"] = d.base.min_ticks;
    b["median_ticks"] = d.base.median_ticks;
    b["mean_ticks"] = d.base.mean_ticks;
    if (d.base.stream_rounds > 0) {
      b["stream_ticks"] = d.base.stream_ticks;
      b["stream_ns"] = d.ns(d.base.stream_ticks);
      json cls;
      for (std::size_t c = 0; c < kNumCostClasses; ++c)
        cls[std::string(cost_class_name(static_cast<CostClass>(c)))] = d.base.stream_class_ticks[c];
      b["stream_class_ticks"] = std::move(cls);
      json fused;
      for (std::size_t f = 1; f < kNumFusions; ++f)
        fused[std::string(fusion_name(static_cast<Fusion>(f)))] = d.base.stream_fusion_ticks[f];
      b["stream_fusion_ticks"] = std::move(fused);
      b["stream_builtin_ticks"] = d.base.stream_builtin_ticks;
      b["stream_rounds"] = d.base.stream_rounds;
      b["stream_run_rounds"] = d.base.stream_run_rounds;
      b["stream_after_rounds"] = d.base.stream_after_rounds;
      b["stream_level"] = d.base.stream_level;
      b["stream_instructions"] = d.base.stream_instructions;
      b["stream_spread_ticks"] = d.base.stream_spread_ticks;
      b["stream_se_ticks"] = d.base.stream_se_ticks;
      b["stream_ms"] = d.base.stream_ms;
      b["stream_streams"] = d.base.stream_streams;
      b["stream_residual_ticks"] = d.base.stream_residual_ticks;
    }
    j["base"] = std::move(b);
  }
  if (!counts)
    if (json q = quality_json(d, o.confidence); !q.is_null()) j["quality"] = std::move(q);
  if (d.environment) j["environment"] = vm::environment_json(*d.environment);
  json tot;
  tot["instructions"] = t.instructions;
  if (!counts) {
    tot["instruction_ns"] = d.ns(t.instruction_ticks);
    tot["outside_ns"] = d.ns(t.outside_ticks);
    tot["builtin_ns"] = d.ns(t.builtin_ticks);
    tot["attributed_ns"] = d.ns(t.instruction_ticks + t.outside_ticks);
    tot["probe_ns"] = d.ns(t.probe_ticks);
    tot["wall_ns"] = d.wall_ns;
    tot["overlap_ns"] = d.ns(d.overlap_ticks);
  }
  j["totals"] = std::move(tot);
  json mods = json::array();
  for (std::size_t mi : shown_modules(d, o.module))
    mods.push_back(module_json(d, counts, d.modules[mi], o.confidence));
  j["modules"] = std::move(mods);
  json ops = json::array();
  for (const OpCost& oc : ops_of(d, counts)) {
    json op = stats(d, counts, oc.rec);
    op["op"] = std::string(op_name(oc.op));
    op["class"] = std::string(op_class(oc.op));
    ops.push_back(std::move(op));
  }
  j["ops"] = std::move(ops);
  j["buckets"] = named(d, counts, d.buckets);
  j["builtins"] = named(d, counts, d.builtins);
  j["refcount_frees"] = stats(d, counts, d.refcount_frees);
  if (d.memory) j["memory"] = memory_json(d);
  Profile p = profile_of(d, counts);
  json prof;
  prof["unit"] = counts ? "instructions" : "ns";
  prof["total"] = counts ? p.total_ticks : d.ns(p.total_ticks);
  prof["preempted"] = counts ? 0.0 : d.ns(p.preempted_ticks);
  prof["own"] = counts ? p.own_ticks : d.ns(p.own_ticks);
  json entries = json::array();
  for (const ProfileEntry& e : p.entries)
    entries.push_back(
        {{"what", e.what}, {"value", counts ? e.ticks : d.ns(e.ticks)}, {"percent", e.percent}});
  prof["entries"] = std::move(entries);
  j["profile"] = std::move(prof);
  return j;
}

std::string render_json(const CostData& d, const ReportOptions& o) {
  return render_json_value(d, o).dump(2) + "\n";
}

}  // namespace dis::cost
