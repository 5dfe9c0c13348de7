// The CSV report: one table per view, header row first, times in ns.
//   line, pc: kind,module,file,line,pc,name,count[,timed,total_ns,mean_ns,
//             min_ns,max_ns,std_ns,median_ns,p99_ns]
//             kind = pc (name = opcode), bucket, builtin, refcount;
//             every pc is listed, executed or not
//   fn:       module,function,pc,end_pc,instructions[,exclusive_ns],calls,
//             inclusive_instructions[,inclusive_ns] (calls/inclusive empty
//             when the probe did not provide them)
//   op:       op,class,count[,timed,total_ns,...p99_ns]
//   top:      rank,module,file,line,instructions[,total_ns],percent,source
//   profile:  what,value,percent (value: ns, or instructions when counts only;
//             percent of the program's own time, host preemption apart)
// Fields are quoted (RFC 4180) when they hold a comma, quote or line break.
// The run's outcome ("# outcome: ok", or failed or interrupted with the
// error, position and pc) and a timed run's error bars (cost_quality.h) come
// first, as lines starting with "# " (pandas: comment="#"). --mem adds its columns to the pc and fn
// tables and a row of kind runtime (cost_mem.h).
#include <fmt/format.h>

#include <algorithm>

#include "cost_mem.h"
#include "cost_quality.h"
#include "cost_report.h"

namespace dis::cost {

namespace {

std::string field(std::string_view s) {
  if (s.find_first_of(",\"\n\r") == std::string_view::npos) return std::string(s);
  std::string out = "\"";
  for (char ch : s) {
    if (ch == '"') out += '"';
    out += ch;
  }
  return out + "\"";
}

std::string num(double v) { return fmt::format("{:.3f}", v); }

const char* kStatHeader = ",timed,total_ns,mean_ns,min_ns,max_ns,std_ns,median_ns,p99_ns";

std::string stat_fields(const CostData& d, const ProbeRecord& r) {
  return fmt::format(",{},{},{},{},{},{},{},{}", r.timed, num(d.ns(r.total_estimate())),
                     num(d.ns(r.mean())), num(d.ns(static_cast<double>(r.min_or_zero()))),
                     num(d.ns(static_cast<double>(r.max))), num(d.ns(r.stddev())),
                     num(d.ns(r.median())), num(d.ns(r.percentile(99))));
}

// --mem: a site's memory columns (zeros for a row that allocates nothing).
std::string mem_fields(const CostData& d, const ModuleCost* mc, std::size_t pc) {
  if (!d.memory) return "";
  return mem_csv_fields(mc && pc < mc->mem.size() ? mc->mem[pc] : vm::MemSite{});
}

void pc_table(std::string& s, const CostData& d, const ReportOptions& o, bool counts) {
  s += "kind,module,file,line,pc,name,count";
  if (!counts) s += kStatHeader;
  if (d.memory) s += kMemCsvHeader;
  s += "\n";
  for (std::size_t mi : shown_modules(d, o.module)) {
    const ModuleCost& mc = d.modules[mi];
    if (!mc.module) continue;
    for (std::size_t pc = 0; pc < pc_count(mc); ++pc) {
      PcLine pl = line_of(mc, static_cast<std::int32_t>(pc));
      std::string file = pl.file < 0 ? std::string() : detail::source_file_name(mc, pl.file);
      std::string line = pl.file < 0 ? std::string() : std::to_string(pl.line);
      s += fmt::format("pc,{},{},{},{},{},{}", field(mc.name), field(file), line, pc,
                       op_name(mc.module->code[pc].op), mc.pcs[pc].count);
      if (!counts) s += stat_fields(d, mc.pcs[pc]);
      s += mem_fields(d, &mc, pc);
      s += "\n";
    }
  }
  auto extra = [&](const char* kind, const std::string& name, const ProbeRecord& r) {
    s += fmt::format("{},,,,,{},{}", kind, field(name), r.count);
    if (!counts) s += stat_fields(d, r);
    s += mem_fields(d, nullptr, 0);
    s += "\n";
  };
  if (d.memory) s += "runtime,,,,,<runtime>,0" + mem_csv_fields(d.memory->runtime) + "\n";
  for (const auto& b : d.buckets) extra("bucket", b.name, b.rec);
  for (const auto& b : d.builtins) extra("builtin", b.name, b.rec);
  if (d.refcount_frees.count > 0) extra("refcount", "free", d.refcount_frees);
}

void fn_table(std::string& s, const CostData& d, const ReportOptions& o, bool counts) {
  s += counts ? "module,function,pc,end_pc,instructions,calls,inclusive_instructions"
              : "module,function,pc,end_pc,instructions,exclusive_ns,calls,inclusive_instructions,"
                "inclusive_ns";
  if (d.memory) s += kMemCsvHeader;
  s += "\n";
  for (std::size_t mi : shown_modules(d, o.module)) {
    const ModuleCost& mc = d.modules[mi];
    for (const FunctionCost& f : functions_of(mc)) {
      s += fmt::format("{},{},{},{},{}", field(mc.name), field(f.name), f.pc, f.end_pc,
                       f.instructions);
      if (!counts) s += "," + num(d.ns(f.exclusive_ticks));
      if (f.inclusive) {
        s += fmt::format(",{},{}", f.inclusive->calls, f.inclusive->inclusive_instructions);
        if (!counts) s += "," + num(d.ns(static_cast<double>(f.inclusive->inclusive_ticks)));
      } else {
        s += counts ? ",," : ",,,";
      }
      if (d.memory) s += mem_csv_fields(mem_of_range(mc, f.pc, f.end_pc));
      s += "\n";
    }
  }
}

void op_table(std::string& s, const CostData& d, bool counts) {
  s += "op,class,count";
  if (!counts) s += kStatHeader;
  s += "\n";
  for (const OpCost& oc : ops_of(d, counts)) {
    s += fmt::format("{},{},{}", op_name(oc.op), field(op_class(oc.op)), oc.rec.count);
    if (!counts) s += stat_fields(d, oc.rec);
    s += "\n";
  }
}

void top_table(std::string& s, const CostData& d, const ReportOptions& o, bool counts) {
  Totals t = totals_of(d);
  s += counts ? "rank,module,file,line,instructions,percent,source\n"
              : "rank,module,file,line,instructions,total_ns,percent,source\n";
  std::vector<HotLine> hot = hottest_lines(d, o.module, o.top, counts);
  double total = counts ? static_cast<double>(t.instructions) : own_ticks(d, t);
  for (std::size_t i = 0; i < hot.size(); ++i) {
    const HotLine& h = hot[i];
    std::string file = h.line.file < 0 ? std::string()
                                       : detail::source_file_name(d.modules[h.module], h.line.file);
    std::string src = h.line.file < 0
                          ? std::string()
                          : detail::source_line(d.modules[h.module], h.line.file, h.line.line);
    double part = counts ? static_cast<double>(h.line.instructions) : h.line.ticks;
    s += fmt::format("{},{},{},{},{}", i + 1, field(d.modules[h.module].name), field(file),
                     h.line.line, h.line.instructions);
    if (!counts) s += "," + num(d.ns(h.line.ticks));
    s += fmt::format(",{:.3f},{}\n", total > 0 ? 100.0 * part / total : 0.0, field(src));
  }
}

void profile_table(std::string& s, const CostData& d, bool counts) {
  Profile p = profile_of(d, counts);
  if (p.preempted_ticks > 0)
    s += fmt::format(
        "# host preemption {} ns is the host's, not the program's: percent is of the "
        "program's own {} ns\n",
        num(d.ns(p.preempted_ticks)), num(d.ns(p.own_ticks)));
  s += "what,value,percent\n";
  for (const ProfileEntry& e : p.entries)
    s += fmt::format("{},{},{:.3f}\n", field(e.what),
                     counts ? fmt::format("{:.0f}", e.ticks) : num(d.ns(e.ticks)), e.percent);
}

}  // namespace

std::string render_csv(const CostData& d, const ReportOptions& o) {
  bool counts = detail::counts_only(d, o);
  // The error bars as comment lines before the table.
  // How the run ended first, as every format records it.
  std::string s = "# outcome: " + outcome_text(d.outcome) + "\n";
  if (!counts) s += quality_text(d, "# ", o.confidence);
  switch (o.view) {
    case View::Line:
    case View::Pc:
      pc_table(s, d, o, counts);
      break;
    case View::Fn:
      fn_table(s, d, o, counts);
      break;
    case View::Op:
      op_table(s, d, counts);
      break;
    case View::Top:
      top_table(s, d, o, counts);
      break;
    case View::Profile:
      profile_table(s, d, counts);
      break;
  }
  return s;
}

}  // namespace dis::cost
