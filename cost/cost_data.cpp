#include "cost_data.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <map>

namespace dis::cost {

namespace {

bool starts(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }
bool ends(std::string_view s, std::string_view p) {
  return s.size() >= p.size() && s.substr(s.size() - p.size()) == p;
}

std::vector<std::string> read_lines(const std::filesystem::path& p) {
  std::vector<std::string> lines;
  std::ifstream in(p, std::ios::binary);
  if (!in) return lines;
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(std::move(line));
  }
  return lines;
}

}  // namespace

const char* outcome_name(Outcome::Status s) {
  switch (s) {
    case Outcome::Status::Ok:
      return "ok";
    case Outcome::Status::Failed:
      return "failed";
    case Outcome::Status::Interrupted:
      return "interrupted";
  }
  return "?";
}

std::string outcome_text(const Outcome& o) {
  std::string s = outcome_name(o.status);
  if (o.status == Outcome::Status::Ok) return s;
  if (!o.error.empty() && o.error != s) s += ": " + o.error;
  if (!o.where.empty()) s += " at " + o.where;
  if (o.pc >= 0) s += " (pc " + std::to_string(o.pc) + ")";
  return s;
}

std::vector<FunctionRange> functions_from_links(const Module& m) {
  std::vector<FunctionRange> out;
  for (const Link& l : m.links)
    if (l.pc >= 0 && static_cast<std::size_t>(l.pc) < m.code.size()) out.push_back({l.name, l.pc});
  std::sort(out.begin(), out.end(), [](const FunctionRange& a, const FunctionRange& b) {
    return a.pc != b.pc ? a.pc < b.pc : a.name < b.name;
  });
  // Two links at one pc (an alias) would make an empty range: keep the first.
  out.erase(
      std::unique(out.begin(), out.end(),
                  [](const FunctionRange& a, const FunctionRange& b) { return a.pc == b.pc; }),
      out.end());
  return out;
}

std::vector<std::vector<std::string>> load_source_text(const Module& m,
                                                       const std::filesystem::path& dir) {
  std::vector<std::vector<std::string>> out;
  for (const std::string& f : m.source_files) {
    std::filesystem::path p(f);
    std::vector<std::filesystem::path> tries = {p};
    if (!dir.empty()) {
      if (p.is_relative()) tries.push_back(dir / p);
      tries.push_back(dir / p.filename());
    }
    std::vector<std::string> lines;
    for (const auto& t : tries) {
      std::error_code ec;
      if (!std::filesystem::is_regular_file(t, ec)) continue;
      lines = read_lines(t);
      break;
    }
    out.push_back(std::move(lines));
  }
  return out;
}

std::size_t pc_count(const ModuleCost& mc) {
  return mc.module ? std::min(mc.pcs.size(), mc.module->code.size()) : 0;
}

PcLine line_of(const ModuleCost& mc, std::int32_t pc) {
  if (!mc.module || mc.module->positions.size() != mc.module->code.size() || pc < 0 ||
      static_cast<std::size_t>(pc) >= mc.module->positions.size())
    return {-1, pc};
  const SrcPos& p = mc.module->positions[static_cast<std::size_t>(pc)];
  return {p.file, p.line};
}

std::vector<LineCost> lines_of(const ModuleCost& mc) {
  std::map<std::pair<std::int32_t, std::int32_t>, LineCost> by_line;
  for (std::size_t pc = 0; pc < pc_count(mc); ++pc) {
    PcLine pl = line_of(mc, static_cast<std::int32_t>(pc));
    LineCost& lc = by_line[{pl.file, pl.line}];
    lc.file = pl.file;
    lc.line = pl.line;
    lc.pcs.push_back(static_cast<std::int32_t>(pc));
    const ProbeRecord& r = mc.pcs[pc];
    lc.instructions += r.count;
    lc.ticks += r.total_estimate();
    lc.merged.merge(r);
  }
  std::vector<LineCost> out;
  out.reserve(by_line.size());
  for (auto& [key, lc] : by_line) {
    for (const auto& run : mc.run_pc_ticks) {
      double t = 0;
      for (std::int32_t pc : lc.pcs)
        if (static_cast<std::size_t>(pc) < run.size())
          t += static_cast<double>(run[static_cast<std::size_t>(pc)]);
      lc.run_ticks.push_back(t);
    }
    out.push_back(std::move(lc));
  }
  return out;
}

std::vector<HotLine> hottest_lines(const CostData& d, const std::string& only, std::size_t n,
                                   bool by_count) {
  std::vector<HotLine> hot;
  for (std::size_t mi : shown_modules(d, only))
    for (LineCost& lc : lines_of(d.modules[mi]))
      if (lc.instructions > 0) hot.push_back({mi, std::move(lc)});
  std::stable_sort(hot.begin(), hot.end(), [by_count](const HotLine& a, const HotLine& b) {
    return by_count ? a.line.instructions > b.line.instructions : a.line.ticks > b.line.ticks;
  });
  if (hot.size() > n) hot.resize(n);
  return hot;
}

std::vector<FunctionCost> functions_of(const ModuleCost& mc) {
  std::int32_t n = static_cast<std::int32_t>(pc_count(mc));
  std::vector<FunctionCost> out;
  if (mc.functions.empty() || mc.functions.front().pc > 0)
    out.push_back(
        {"<module>", 0, mc.functions.empty() ? n : std::min(n, mc.functions.front().pc), 0, 0, {}});
  for (std::size_t i = 0; i < mc.functions.size(); ++i) {
    std::int32_t end = i + 1 < mc.functions.size() ? mc.functions[i + 1].pc : n;
    out.push_back({mc.functions[i].name, mc.functions[i].pc, std::min(end, n), 0, 0, {}});
  }
  for (FunctionCost& f : out) {
    for (std::int32_t pc = f.pc; pc < f.end_pc; ++pc) {
      const ProbeRecord& r = mc.pcs[static_cast<std::size_t>(pc)];
      f.instructions += r.count;
      f.exclusive_ticks += r.total_estimate();
    }
    for (const FunctionCall& c : mc.function_calls)
      if (c.entry_pc == f.pc) f.inclusive = c;
  }
  return out;
}

std::vector<OpCost> ops_of(const CostData& d, bool by_count) {
  std::vector<OpCost> all(kNumOps);
  for (std::size_t i = 0; i < kNumOps; ++i) all[i].op = kOpTable[i].op;
  for (const ModuleCost& mc : d.modules) {
    if (!mc.module) continue;
    for (std::size_t pc = 0; pc < pc_count(mc); ++pc) {
      OpCost& oc = all[static_cast<std::size_t>(mc.module->code[pc].op)];
      oc.rec.merge(mc.pcs[pc]);
      oc.ticks += mc.pcs[pc].total_estimate();
    }
  }
  std::vector<OpCost> out;
  for (OpCost& oc : all)
    if (oc.rec.count > 0) out.push_back(std::move(oc));
  by_count = by_count || d.mode == Mode::Count;
  std::stable_sort(out.begin(), out.end(), [by_count](const OpCost& a, const OpCost& b) {
    if (by_count) return a.rec.count > b.rec.count;
    return a.ticks > b.ticks;
  });
  return out;
}

std::string_view op_class(Op op) {
  std::string_view n = op_name(op);
  if (ends(n, "call") || ends(n, "frame") || ends(n, "spawn") || n == "ret" || n == "load" ||
      n == "exit" || n == "runt")
    return "call";
  if (n == "alt" || n == "nbalt" || n == "send" || n == "recv" || starts(n, "newc"))
    return "channel";
  if (is_branch(op) || starts(n, "case") || n == "goto" || n == "raise" || n == "nop" ||
      n == "eclr")
    return "control";
  if (starts(n, "new") || starts(n, "mnew")) return "alloc";
  if (starts(n, "cons") || starts(n, "head") || n == "tail" || starts(n, "slice") ||
      starts(n, "len") || starts(n, "ind") || n == "insc" || n == "addc")
    return "string/array/list";
  if (starts(n, "mov") || n == "lea" || n == "self") return "move";
  if (starts(n, "cvt")) return "convert";
  return "arith";
}

Totals totals_of(const CostData& d) {
  Totals t;
  for (const ModuleCost& mc : d.modules)
    for (const ProbeRecord& r : mc.pcs) {
      t.instructions += r.count;
      t.instruction_ticks += r.total_estimate();
    }
  for (const NamedRecord& b : d.buckets) {
    if (b.name == vm::kProbeBucket)
      t.probe_ticks += b.rec.total_estimate();
    else
      t.outside_ticks += b.rec.total_estimate();
  }
  for (const NamedRecord& b : d.builtins) t.builtin_ticks += b.rec.total_estimate();
  return t;
}

double preempted_ticks(const CostData& d) {
  for (const NamedRecord& b : d.buckets)
    if (b.name == vm::kPreemptedBucket) return b.rec.total_estimate();
  return 0;
}

double own_ticks(const CostData& d, const Totals& t) {
  return std::max(0.0, t.instruction_ticks + t.outside_ticks - preempted_ticks(d));
}

Profile profile_of(const CostData& d, bool counts_only) {
  Profile p;
  Totals t = totals_of(d);
  p.instruction_ticks = t.instruction_ticks;
  p.outside_ticks = t.outside_ticks;
  p.total_ticks = t.instruction_ticks + t.outside_ticks;
  p.preempted_ticks = preempted_ticks(d);
  p.own_ticks = own_ticks(d, t);
  bool counts = counts_only || d.mode == Mode::Count;
  if (counts) {
    // Counts only: instruction classes by executions, as shares of all.
    p.total_ticks = p.own_ticks = p.instruction_ticks = static_cast<double>(t.instructions);
    p.outside_ticks = p.preempted_ticks = 0;
  }
  std::map<std::string, double> classes;
  for (const OpCost& oc : ops_of(d, counts))
    classes[std::string(op_class(oc.op))] += counts ? static_cast<double>(oc.rec.count) : oc.ticks;
  bool less_builtins = !counts && t.builtin_ticks > 0;
  if (less_builtins) classes["call"] = std::max(0.0, classes["call"] - t.builtin_ticks);
  for (const auto& [cls, v] : classes)
    p.entries.push_back(
        {"instructions: " + cls + (less_builtins && cls == "call" ? " (less builtins)" : ""), v,
         0});
  if (!counts) {
    for (const NamedRecord& b : d.builtins)
      p.entries.push_back({"builtin " + b.name, b.rec.total_estimate(), 0});
    for (const NamedRecord& b : d.buckets)
      if (b.name != vm::kProbeBucket && b.name != vm::kPreemptedBucket)
        p.entries.push_back({b.name, b.rec.total_estimate(), 0});
  }
  for (ProfileEntry& e : p.entries) e.percent = p.own_ticks > 0 ? 100.0 * e.ticks / p.own_ticks : 0;
  std::stable_sort(p.entries.begin(), p.entries.end(),
                   [](const ProfileEntry& a, const ProfileEntry& b) {
                     if (a.ticks != b.ticks) return a.ticks > b.ticks;
                     return a.what < b.what;
                   });
  return p;
}

std::vector<std::size_t> shown_modules(const CostData& d, const std::string& only) {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < d.modules.size(); ++i)
    if (only.empty() || d.modules[i].name == only) out.push_back(i);
  return out;
}

std::optional<std::string> resolve_module(const CostData& d, const std::string& asked) {
  const auto folded = [](std::string s) {
    std::ranges::transform(s, s.begin(), [](unsigned char c) { return std::tolower(c); });
    return s;
  };
  std::optional<std::string> alike;
  int alikes = 0;
  for (const ModuleCost& mc : d.modules) {
    if (mc.name == asked) return mc.name;
    if (folded(mc.name) == folded(asked) && alike != mc.name) {
      alike = mc.name;
      ++alikes;
    }
  }
  if (alikes == 1) return alike;
  return std::nullopt;
}

std::string module_names(const CostData& d) {
  std::string out;
  for (const ModuleCost& mc : d.modules) {
    if (mc.name.empty()) continue;
    out += (out.empty() ? "" : ", ") + mc.name;
  }
  return out;
}

Fusion fusion_at(const ModuleCost& mc, std::size_t pc) {
  return pc < mc.fusion.size() ? mc.fusion[pc] : Fusion::None;
}

std::vector<double> builtin_calls_by_pc(const ModuleCost& mc) {
  std::vector<double> calls(mc.pcs.size(), 0);
  for (const CallSite& s : mc.call_sites)
    if (s.callee_module < 0 && !s.callee_name.empty() && s.pc >= 0 &&
        static_cast<std::size_t>(s.pc) < calls.size())
      calls[static_cast<std::size_t>(s.pc)] += static_cast<double>(s.calls);
  return calls;
}

std::vector<double> pc_bases(const CostData& d, const ModuleCost& mc, vm::BasePolicy policy) {
  const std::vector<double> builtins = builtin_calls_by_pc(mc);
  std::vector<double> out(mc.pcs.size(), 0);
  for (std::size_t pc = 0; pc < out.size(); ++pc) {
    const auto n = static_cast<double>(mc.pcs[pc].count);
    const Op op = mc.module && pc < mc.module->code.size() ? mc.module->code[pc].op : Op::nop_;
    out[pc] = d.base.exact_for(policy, op, fusion_at(mc, pc), n > 0 ? builtins[pc] / n : 0);
  }
  return out;
}

std::vector<double> pc_base_totals(const CostData& d, const ModuleCost& mc, vm::BasePolicy policy) {
  std::vector<double> out = pc_bases(d, mc, policy);
  for (std::size_t pc = 0; pc < out.size(); ++pc)
    out[pc] = vm::Base::total(mc.pcs[pc], out[pc], d.base.run_for(policy, fusion_at(mc, pc)));
  return out;
}

}  // namespace dis::cost
