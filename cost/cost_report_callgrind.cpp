// The callgrind profile (Callgrind format version 1, read by KCachegrind
// and QCachegrind): positions are source lines, events are Instr (Dis
// instructions executed) and Ns (attributed time in integer ns; absent when
// counts only). Each function of each module is an `fn=` with its cost per
// source line (`fl=` its first file, `fi=` when a line lies in another);
// call sites become `cfn=`/`calls=` arcs with inclusive cost; time outside
// instructions is one function per bucket in the file "<runtime>", so the
// file's total equals the attributed total. --mem adds the events Alloc,
// Bytes, FreedRc, FreedGc and Live per line (cost_mem.h); call arcs carry
// instructions only, so those are exclusive. A timed run's error bars
// (cost_quality.h) are comment lines after the first.
#include <fmt/format.h>

#include <boost/container/small_vector.hpp>
#include <cmath>
#include <map>

#include "cost_mem.h"
#include "cost_quality.h"
#include "cost_report.h"

namespace dis::cost {

namespace {

struct Costs {
  std::uint64_t instr = 0;
  double ticks = 0;
  vm::MemSite mem;
};

std::string cost_cols(const CostData& d, bool counts, std::uint64_t instr, double ticks,
                      const vm::MemSite* mem = nullptr) {
  std::string s =
      counts ? std::to_string(instr) : fmt::format("{} {}", instr, std::llround(d.ns(ticks)));
  if (d.memory && mem) s += " " + mem_callgrind_cols(*mem);
  return s;
}

// The function (index into functions_of) holding pc.
std::size_t function_index(const std::vector<FunctionCost>& fns, std::int32_t pc) {
  for (std::size_t i = 0; i < fns.size(); ++i)
    if (pc >= fns[i].pc && pc < fns[i].end_pc) return i;
  return 0;
}

std::int32_t first_line(const ModuleCost& mc, std::int32_t pc) {
  PcLine pl = line_of(mc, pc);
  return pl.file < 0 ? pc : pl.line;
}

}  // namespace

std::string render_callgrind(const CostData& d, const ReportOptions& o) {
  bool counts = detail::counts_only(d, o);
  Totals t = totals_of(d);
  std::string s = "# callgrind format\n";
  if (!counts) s += quality_text(d, "# ", o.confidence);
  s += "version: 1\n";
  s += fmt::format("creator: disvm cost {}\n", d.environment ? d.environment->version : "");
  s += fmt::format("cmd: {}\n", d.program);
  s += fmt::format("desc: Outcome: {}\n", outcome_text(d.outcome));
  s += "positions: line\n";
  s += "event: Instr : Dis instructions executed\n";
  if (!counts) s += "event: Ns : Time attributed (ns)\n";
  if (d.memory)
    s += "event: Alloc : Heap objects allocated\nevent: Bytes : Bytes allocated\n"
         "event: FreedRc : Bytes freed by reference counting\n"
         "event: FreedGc : Bytes freed by the collector\nevent: Live : Bytes live at exit\n";
  s += counts ? "events: Instr" : "events: Instr Ns";
  s += d.memory ? std::string(" ") + kMemEvents + "\n" : "\n";
  const vm::MemSite all = mem_total(d);
  s += fmt::format("summary: {}\n", cost_cols(d, counts, t.instructions,
                                              t.instruction_ticks + t.outside_ticks, &all));

  for (std::size_t mi : shown_modules(d, o.module)) {
    const ModuleCost& mc = d.modules[mi];
    if (!mc.module) continue;
    std::vector<FunctionCost> fns = functions_of(mc);
    for (std::size_t fi = 0; fi < fns.size(); ++fi) {
      const FunctionCost& f = fns[fi];
      // Cost per (file, line) of this function, in line order.
      std::map<std::pair<std::int32_t, std::int32_t>, Costs> per_line;
      for (std::int32_t pc = f.pc; pc < f.end_pc; ++pc) {
        const ProbeRecord& r = mc.pcs[static_cast<std::size_t>(pc)];
        if (r.count == 0) continue;
        PcLine pl = line_of(mc, pc);
        Costs& c = per_line[{pl.file, pl.line}];
        c.instr += r.count;
        c.ticks += r.total_estimate();
        if (static_cast<std::size_t>(pc) < mc.mem.size())
          c.mem.merge(mc.mem[static_cast<std::size_t>(pc)]);
      }
      boost::container::small_vector<const CallSite*, 8> sites;  // a function calls a few
      for (const CallSite& cs : mc.call_sites)
        if (cs.pc >= f.pc && cs.pc < f.end_pc && cs.calls > 0) sites.push_back(&cs);
      if (per_line.empty() && sites.empty()) continue;
      PcLine entry = line_of(mc, f.pc);
      std::int32_t fl = entry.file;
      s += fmt::format("\nfl={}\nfn={}\n", detail::source_file_name(mc, fl),
                       detail::function_display_name(mc, f.name));
      std::int32_t cur = fl;
      for (const auto& [key, c] : per_line) {
        if (key.first != cur) {
          s += fmt::format("fi={}\n", detail::source_file_name(mc, key.first));
          cur = key.first;
        }
        s += fmt::format("{} {}\n", key.second, cost_cols(d, counts, c.instr, c.ticks, &c.mem));
      }
      if (cur != fl) s += fmt::format("fi={}\n", detail::source_file_name(mc, fl));
      for (const CallSite* cs : sites) {
        PcLine at = line_of(mc, cs->pc);
        if (cs->callee_module >= 0 &&
            static_cast<std::size_t>(cs->callee_module) < d.modules.size()) {
          const ModuleCost& callee = d.modules[static_cast<std::size_t>(cs->callee_module)];
          std::vector<FunctionCost> cfns = functions_of(callee);
          const FunctionCost& cf = cfns[function_index(cfns, cs->callee_pc)];
          PcLine centry = line_of(callee, cf.pc);
          s += fmt::format("cfl={}\ncfn={}\n", detail::source_file_name(callee, centry.file),
                           detail::function_display_name(callee, cf.name));
          s += fmt::format("calls={} {}\n", cs->calls, first_line(callee, cf.pc));
        } else {
          s += fmt::format("cfl=<builtin>\ncfn={}\ncalls={} 0\n",
                           cs->callee_name.empty() ? "<unknown>" : cs->callee_name, cs->calls);
        }
        s += fmt::format("{} {}\n", at.line,
                         cost_cols(d, counts, cs->inclusive_instructions,
                                   static_cast<double>(cs->inclusive_ticks)));
      }
    }
  }
  if (!counts) {
    for (const NamedRecord& b : d.buckets) {
      if (b.rec.count == 0) continue;
      s += fmt::format("\nfl=<runtime>\nfn={}\n0 {}\n", b.name,
                       cost_cols(d, counts, 0, b.rec.total_estimate()));
    }
  }
  if (d.memory && !d.memory->runtime.empty())
    s += fmt::format("\nfl=<runtime>\nfn=<runtime>\n0 {}\n",
                     cost_cols(d, counts, 0, 0, &d.memory->runtime));
  s += fmt::format("\ntotals: {}\n", cost_cols(d, counts, t.instructions,
                                               t.instruction_ticks + t.outside_ticks, &all));
  return s;
}

}  // namespace dis::cost
