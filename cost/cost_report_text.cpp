// The text report: the paper's per-line listing and the other views.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "cost_mem.h"
#include "cost_quality.h"
#include "cost_report.h"

namespace dis::cost {

namespace {

using detail::counts_only;

struct Widths {
  std::size_t name = 6;   // the paper's op column ("mframe")
  std::size_t count = 4;  // the paper's count column ("2000")
};

std::size_t digits(std::uint64_t n) { return std::to_string(n).size(); }

void widen(Widths& w, std::string_view name, std::uint64_t count) {
  w.name = std::max(w.name, name.size());
  w.count = std::max(w.count, digits(count));
}

std::string dur(const CostData& d, double ticks) { return format_duration_ns(d.ns(ticks)); }

// Where the stream base's rounds ran: before the run, or between its slices.
// With rounds during the run, the level they set (StreamCalibration::fit).
std::string rounds_when(const vm::Base& b) {
  // The sampled view tops a short run's rounds up after it (top_up).
  const std::string after =
      b.stream_after_rounds > 0
          ? fmt::format(", {} of them after the program", b.stream_after_rounds)
          : "";
  if (b.stream_run_rounds == 0) return after.empty() ? ", run before the program" : after;
  const std::string level = fmt::format(
      ", scaled by {:.3f} to the rounds beside each stretch of the run", b.stream_level);
  if (b.stream_run_rounds >= b.stream_rounds) return ", run between the program's slices" + level;
  return fmt::format(", {} of them between the program's slices", b.stream_run_rounds) + after +
         level;
}

// `- name count mean min max std` (counts only: `- name count`).
std::string stat_line(const CostData& d, bool counts, std::string_view name, const ProbeRecord& r,
                      const Widths& w) {
  std::string s = fmt::format("- {:<{}} {:>{}}", name, w.name, r.count, w.count);
  if (!counts && r.has_estimate()) {
    if (r.has_time())
      s += fmt::format(" {:>9} {:>9} {:>9} {:>9}", dur(d, r.mean()),
                       dur(d, static_cast<double>(r.min)), dur(d, static_cast<double>(r.max)),
                       dur(d, r.stddev()));
    else
      s += fmt::format(" {:>9} {:>9} {:>9} {:>9}", dur(d, r.mean()), "-", "-", "-");
    if (r.sampled()) s += fmt::format("  (timed {} of {})", r.timed, r.single_count());
    // min, max and std are of the executions timed alone.
    if (r.bulk_count > 0) s += fmt::format("  ({} in fused loops, timed whole)", r.bulk_count);
  } else if (!counts && r.count > 0) {
    // Sampling timed none of them: say so, rather than look like the count
    // view.
    s += fmt::format("  (timed 0 of {})", r.count);
  }
  return s + "\n";
}

// The column header over stat_line's rows.
std::string stat_header(bool counts, std::string_view what, const Widths& w) {
  // n: executions (the paper's narrow count column keeps its width).
  std::string s = fmt::format("  {:<{}} {:>{}}", what, w.name, "n", w.count);
  if (!counts) s += fmt::format(" {:>9} {:>9} {:>9} {:>9}", "mean", "min", "max", "std");
  return s + "\n";
}

std::string percent(double part, double whole) {
  return fmt::format("{:.1f}", whole > 0 ? 100.0 * part / whole : 0.0);
}

// A read's cost to a tenth of a ns: the timed view's overhead is set
// against it, and 10.0 and 10.5 ns would both print as 10 ns.
std::string read_cost_ns(double ns) {
  return ns > 0 && ns < 99.95 ? fmt::format("{:.1f} ns", ns) : format_duration_ns(ns);
}

std::string header(const CostData& d, const ReportOptions& o) {
  bool counts = counts_only(d, o);
  std::string s = fmt::format("cost: {} ({}{}{})\n", d.program, counts ? "counts" : "time",
                              d.memory ? ", memory" : "",
                              d.runs > 1 ? fmt::format(", {} runs merged", d.runs) : "");
  if (d.outcome.status != Outcome::Status::Ok)
    s += "outcome: " + outcome_text(d.outcome) + "; the figures are of what ran\n";
  Totals t = totals_of(d);
  if (counts)
    return s +
           fmt::format(
               "counts only: no clock read, {}\ninstructions: {}\n",
               d.timer_calibrated ? "calibrated earlier by another caller" : "no calibration",
               t.instructions) +
           mem_header_text(d);
  const vm::TimerInfo& tm = d.timer;
  s += fmt::format("timer: {}, {:.4f} ticks/ns", tm.name, tm.ticks_per_ns);
  if (tm.calibration_rounds > 0)
    s += fmt::format(" (calibrated: {} rounds, spread {:.3f}%)", tm.calibration_rounds,
                     100 * tm.calibration_spread);
  if (!tm.fallback_reason.empty()) s += fmt::format(" (no TSC: {})", tm.fallback_reason);
  s += fmt::format("; one read {} min, {} median\n", read_cost_ns(tm.read.min_ns),
                   read_cost_ns(tm.read.median_ns));
  const vm::Base& base = d.base;
  if (base.policy == vm::BasePolicy::Stream)
    s += fmt::format(
        "base: stream, per instruction class (below); {} empty instructions through the probe: "
        "min {}, median {}, mean {} ticks\n",
        base.samples, base.min_ticks, base.median_ticks, base.mean_ticks);
  else
    s += fmt::format(
        "base: {} of {} empty instructions through the probe = {} ticks ({}); min {}, median {}, "
        "mean {} ticks\n",
        vm::base_policy_name(base.policy), base.samples, base.ticks,
        dur(d, static_cast<double>(base.ticks)), base.min_ticks, base.median_ticks,
        base.mean_ticks);
  if (base.stream_rounds > 0) {
    s += "base stream: per instruction";
    for (std::size_t c = 0; c < kNumCostClasses; ++c)
      s += fmt::format("{} {} {:.2f} ticks ({:.2f} ns)", c ? "," : "",
                       cost_class_name(static_cast<CostClass>(c)), base.stream_class_ticks[c],
                       d.ns(base.stream_class_ticks[c]));
    s += fmt::format(
        "; in a fused pair in the plain run, plus {:.2f} ticks; per run of an array "
        "loop (timed whole, as the plain run runs it)",
        base.stream_fusion_ticks[static_cast<std::size_t>(Fusion::Pair)]);
    for (std::size_t f = 2; f < kNumFusions; ++f)
      s += fmt::format("{} {} {:.2f} ticks", f > 2 ? "," : "", fusion_name(static_cast<Fusion>(f)),
                       base.stream_fusion_ticks[f]);
    s += fmt::format("; an mcall plus {:.2f} ticks per builtin call", base.stream_builtin_ticks);
    s += fmt::format(
        "; {:.2f} ticks over all: (timed raw - plain) / instructions on {} synthetic streams run "
        "in this process, fitted by least squares (residual {:.2f} ticks per instruction, RMS); "
        "median of {} rounds of {} instructions{} (spread {:.2f} ticks, standard error of the "
        "median {:.2f} ticks), calibrated in {:.0f} ms\n",
        base.stream_ticks, base.stream_streams, base.stream_residual_ticks, base.stream_rounds,
        base.stream_instructions, rounds_when(base), base.stream_spread_ticks, base.stream_se_ticks,
        base.stream_ms);
  }
  if (d.sample_every > 0)
    s += fmt::format("sampled: about 1 in {} executions timed; counts exact\n", d.sample_every);
  s += fmt::format("instructions: {}; attributed {} (instructions {}, outside instructions {})",
                   t.instructions, dur(d, t.instruction_ticks + t.outside_ticks),
                   dur(d, t.instruction_ticks), dur(d, t.outside_ticks));
  if (d.overlap_ticks > 0)
    s += fmt::format(
        "; {} of it counted twice (recorded while a thread waited in a builtin, whose mcall holds "
        "the wait)",
        dur(d, d.overlap_ticks));
  if (d.wall_ns > 0) s += fmt::format("; wall {}", format_duration_ns(d.wall_ns));
  if (d.preempted_ns > 0) {
    s += fmt::format("; host preemption {} (in the timed slices",
                     format_duration_ns(d.preempted_ns));
    for (const NamedRecord& b : d.buckets)
      if (b.name == vm::kPreemptedBucket)
        s += fmt::format("; {} of it taken out of {} instruction intervals into bucket {}",
                         dur(d, b.rec.total_estimate()), b.rec.timed, b.name);
    s += ")";
  }
  if (t.probe_ticks > 0)
    s += fmt::format("; probe bookkeeping {} (not attributed)", dur(d, t.probe_ticks));
  s += "\n";
  s += quality_text(d, "", o.confidence);
  if (o.environment && d.environment) s += vm::environment_text(*d.environment, "env ");
  return s;
}

// The executed instructions of a line, one stat line each.
void emit_ops(std::string& s, const CostData& d, bool counts, const ModuleCost& mc,
              const LineCost& lc, const Widths& w) {
  for (std::int32_t pc : lc.pcs) {
    const ProbeRecord& r = mc.pcs[static_cast<std::size_t>(pc)];
    if (r.count == 0) continue;
    s += stat_line(d, counts, op_name(mc.module->code[static_cast<std::size_t>(pc)].op), r, w);
  }
}

// Run-to-run spread of a line's time under --repeat: `= runs N mean std
// (cv)`, and whether it is reproducible (cost_quality.h RunSpread).
std::string run_spread_line(const CostData& d, const RunSpread& r, double confidence) {
  return fmt::format("= runs {} mean {} std {} ({}%){}\n", r.runs, dur(d, r.mean), dur(d, r.sd),
                     percent(r.sd, r.mean),
                     r.reproducible ? ""
                                    : fmt::format("  not reproducible: above {:.0f}% at {}%",
                                                  100 * kReproducibleCv, confidence));
}

Widths module_widths(const ModuleCost& mc) {
  Widths w;
  for (std::size_t pc = 0; pc < pc_count(mc); ++pc)
    if (mc.pcs[pc].count > 0) widen(w, op_name(mc.module->code[pc].op), mc.pcs[pc].count);
  return w;
}

void line_view(std::string& s, const CostData& d, const ReportOptions& o) {
  bool counts = counts_only(d, o);
  for (std::size_t mi : shown_modules(d, o.module)) {
    const ModuleCost& mc = d.modules[mi];
    if (!mc.module) continue;
    s += fmt::format("\n== module {}\n", mc.name);
    Widths w = module_widths(mc);
    s += stat_header(counts, "op", w);
    std::vector<LineCost> lines = lines_of(mc);
    std::size_t li = 0;
    std::int32_t current_file = -2;
    auto file_header = [&](std::int32_t file) {
      if (file == current_file) return;
      current_file = file;
      if (file < 0)
        s += "-- (no source positions: one entry per pc)\n";
      else
        s += fmt::format("-- {}\n", detail::source_file_name(mc, file));
    };
    auto emit_line = [&](const LineCost& lc) {
      if (o.hide_unexecuted && lc.instructions == 0) return;
      file_header(lc.file);
      const bool spread = !counts && lc.run_ticks.size() > 1 && lc.instructions > 0;
      const RunSpread r = spread ? run_spread(lc.run_ticks, o.confidence) : RunSpread{};
      // A line not reproducible from run to run is marked '!'.
      const char mark = r.reproducible ? ':' : '!';
      if (lc.file < 0)
        s += fmt::format("pc {}{}\n", lc.line, mark);
      else
        s += fmt::format("{:>5}{} {}\n", lc.line, mark, detail::source_line(mc, lc.file, lc.line));
      emit_ops(s, d, counts, mc, lc, w);
      if (spread) s += run_spread_line(d, r, o.confidence);
      if (!mc.mem.empty()) s += mem_line_text(mem_of(mc, lc.pcs));
    };
    // Files with text show every line; lines owning code get their ops.
    std::int32_t nfiles = static_cast<std::int32_t>(mc.source_text.size());
    while (li < lines.size()) {
      std::int32_t file = lines[li].file;
      std::size_t end = li;
      while (end < lines.size() && lines[end].file == file) ++end;
      bool have_text =
          file >= 0 && file < nfiles && !mc.source_text[static_cast<std::size_t>(file)].empty();
      if (!have_text || o.hide_unexecuted) {
        while (li < end) emit_line(lines[li++]);
        continue;
      }
      file_header(file);
      while (li < end && lines[li].line < 1) emit_line(lines[li++]);  // no real line
      std::int32_t last =
          std::max(static_cast<std::int32_t>(mc.source_text[static_cast<std::size_t>(file)].size()),
                   lines[end - 1].line);
      for (std::int32_t ln = 1; ln <= last; ++ln) {
        if (li < end && lines[li].line == ln)
          emit_line(lines[li++]);
        else
          s += fmt::format("{:>5}: {}\n", ln, detail::source_line(mc, file, ln));
      }
    }
  }
}

void outside_view(std::string& s, const CostData& d, const ReportOptions& o) {
  bool counts = counts_only(d, o);
  Widths w;
  for (const auto& b : d.buckets) widen(w, b.name, b.rec.count);
  for (const auto& b : d.builtins) widen(w, b.name, b.rec.count);
  widen(w, "free", d.refcount_frees.count);
  // A row of nothing (count 0) has no mean to show: it is left out.
  const auto section = [&](const char* title, const std::vector<NamedRecord>& records) {
    if (std::none_of(records.begin(), records.end(),
                     [](const NamedRecord& b) { return b.rec.count > 0; }))
      return;
    s += fmt::format("\n-- {}\n", title);
    s += stat_header(counts, "what", w);
    for (const auto& b : records)
      if (b.rec.count > 0) s += stat_line(d, counts, b.name, b.rec, w);
  };
  section("outside instructions", d.buckets);
  section("builtins (time inside their mcall)", d.builtins);
  if (d.refcount_frees.count > 0) {
    s += "\n-- reference-count frees (time inside instructions)\n";
    s += stat_header(counts, "what", w);
    s += stat_line(d, counts, "free", d.refcount_frees, w);
  }
}

void fn_view(std::string& s, const CostData& d, const ReportOptions& o) {
  bool counts = counts_only(d, o);
  Totals t = totals_of(d);
  for (std::size_t mi : shown_modules(d, o.module)) {
    const ModuleCost& mc = d.modules[mi];
    s += fmt::format("\n== module {}\n", mc.name);
    std::vector<FunctionCost> fns = functions_of(mc);
    std::size_t nw = 8;
    for (const auto& f : fns) nw = std::max(nw, f.name.size());
    if (counts) {
      s += fmt::format("{:<{}} {:>6} {:>12} {:>6} {:>12} {:>8}\n", "function", nw, "pc",
                       "exclusive", "%", "inclusive", "calls");
      for (const auto& f : fns) {
        std::string incl = f.inclusive ? std::to_string(f.inclusive->inclusive_instructions) : "-";
        std::string calls = f.inclusive ? std::to_string(f.inclusive->calls) : "-";
        s += fmt::format(
            "{:<{}} {:>6} {:>12} {:>6} {:>12} {:>8}\n", f.name, nw, f.pc, f.instructions,
            percent(static_cast<double>(f.instructions), static_cast<double>(t.instructions)), incl,
            calls);
      }
      continue;
    }
    double total = own_ticks(d, t);
    s += fmt::format("{:<{}} {:>6} {:>12} {:>10} {:>6} {:>10} {:>6} {:>8}\n", "function", nw, "pc",
                     "instrs", "exclusive", "%", "inclusive", "%", "calls");
    for (const auto& f : fns) {
      std::string incl = "-", incl_pct = "-", calls = "-";
      if (f.inclusive) {
        incl = dur(d, static_cast<double>(f.inclusive->inclusive_ticks));
        incl_pct = percent(static_cast<double>(f.inclusive->inclusive_ticks), total);
        calls = std::to_string(f.inclusive->calls);
      }
      s += fmt::format("{:<{}} {:>6} {:>12} {:>10} {:>6} {:>10} {:>6} {:>8}\n", f.name, nw, f.pc,
                       f.instructions, dur(d, f.exclusive_ticks), percent(f.exclusive_ticks, total),
                       incl, incl_pct, calls);
    }
  }
}

void op_view(std::string& s, const CostData& d, const ReportOptions& o) {
  bool counts = counts_only(d, o);
  Totals t = totals_of(d);
  s += "\n";
  if (counts) {
    s += fmt::format("{:<8} {:>12} {:>6}\n", "op", "count", "%");
    for (const OpCost& oc : ops_of(d, true))
      s += fmt::format(
          "{:<8} {:>12} {:>6}\n", op_name(oc.op), oc.rec.count,
          percent(static_cast<double>(oc.rec.count), static_cast<double>(t.instructions)));
    return;
  }
  s += fmt::format("{:<8} {:>12} {:>10} {:>6} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9}\n", "op", "count",
                   "total", "%", "mean", "min", "max", "std", "median", "p99");
  for (const OpCost& oc : ops_of(d)) {
    const ProbeRecord& r = oc.rec;
    s += fmt::format(
        "{:<8} {:>12} {:>10} {:>6} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9}\n", op_name(oc.op), r.count,
        dur(d, oc.ticks), percent(oc.ticks, t.instruction_ticks), dur(d, r.mean()),
        dur(d, static_cast<double>(r.min_or_zero())), dur(d, static_cast<double>(r.max)),
        dur(d, r.stddev()), dur(d, r.median()), dur(d, r.percentile(99)));
  }
}

void pc_view(std::string& s, const CostData& d, const ReportOptions& o) {
  bool counts = counts_only(d, o);
  for (std::size_t mi : shown_modules(d, o.module)) {
    const ModuleCost& mc = d.modules[mi];
    if (!mc.module) continue;
    s += fmt::format("\n== module {}\n", mc.name);
    if (counts)
      s += fmt::format("{:>6} {:>6} {:<8} {:>12}\n", "pc", "line", "op", "count");
    else
      s += fmt::format("{:>6} {:>6} {:<8} {:>12} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9}\n", "pc",
                       "line", "op", "count", "mean", "min", "max", "std", "median", "p99");
    for (std::size_t pc = 0; pc < pc_count(mc); ++pc) {
      const ProbeRecord& r = mc.pcs[pc];
      PcLine pl = line_of(mc, static_cast<std::int32_t>(pc));
      std::string line = pl.file < 0 ? std::string("-") : std::to_string(pl.line);
      std::string_view op = op_name(mc.module->code[pc].op);
      if (counts || !r.has_estimate()) {
        s += fmt::format("{:>6} {:>6} {:<8} {:>12}\n", pc, line, op, r.count);
        continue;
      }
      if (!r.has_time()) {  // only inside fused loops: their mean alone
        s += fmt::format("{:>6} {:>6} {:<8} {:>12} {:>9}\n", pc, line, op, r.count,
                         dur(d, r.mean()));
        continue;
      }
      s += fmt::format("{:>6} {:>6} {:<8} {:>12} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9}\n", pc, line,
                       op, r.count, dur(d, r.mean()), dur(d, static_cast<double>(r.min)),
                       dur(d, static_cast<double>(r.max)), dur(d, r.stddev()), dur(d, r.median()),
                       dur(d, r.percentile(99)));
    }
  }
}

void top_view(std::string& s, const CostData& d, const ReportOptions& o) {
  bool counts = counts_only(d, o);
  Totals t = totals_of(d);
  std::vector<HotLine> hot = hottest_lines(d, o.module, o.top, counts);
  s += "\n";
  std::vector<std::string> where;
  std::size_t ww = 5;
  for (const HotLine& h : hot) {
    where.push_back(h.line.file < 0
                        ? fmt::format("{}: pc {}", d.modules[h.module].name, h.line.line)
                        : fmt::format("{}:{}",
                                      detail::source_file_name(d.modules[h.module], h.line.file),
                                      h.line.line));
    ww = std::max(ww, where.back().size());
  }
  if (counts)
    s += fmt::format("{:>4} {:<{}} {:>12} {:>6}  {}\n", "rank", "where", ww, "instrs", "%",
                     "source");
  else
    s += fmt::format("{:>4} {:<{}} {:>10} {:>6} {:>12}  {}\n", "rank", "where", ww, "time", "%",
                     "instrs", "source");
  for (std::size_t i = 0; i < hot.size(); ++i) {
    const HotLine& h = hot[i];
    std::string src = h.line.file < 0
                          ? std::string()
                          : detail::source_line(d.modules[h.module], h.line.file, h.line.line);
    auto b = src.find_first_not_of(" \t");
    src = b == std::string::npos ? std::string() : src.substr(b);
    if (counts)
      s += fmt::format(
          "{:>4} {:<{}} {:>12} {:>6}  {}\n", i + 1, where[i], ww, h.line.instructions,
          percent(static_cast<double>(h.line.instructions), static_cast<double>(t.instructions)),
          src);
    else
      s += fmt::format("{:>4} {:<{}} {:>10} {:>6} {:>12}  {}\n", i + 1, where[i], ww,
                       dur(d, h.line.ticks), percent(h.line.ticks, own_ticks(d, t)),
                       h.line.instructions, src);
  }
}

void profile_view(std::string& s, const CostData& d, const ReportOptions& o) {
  bool counts = counts_only(d, o);
  Profile p = profile_of(d, counts);
  s += "\n";
  if (counts) {
    s += fmt::format("total: {} instructions\n", static_cast<std::uint64_t>(p.total_ticks));
    s += fmt::format("{:>12} {:>6}  {}\n", "instrs", "%", "where");
    for (const auto& e : p.entries)
      s += fmt::format("{:>12} {:>6.1f}  {}\n", static_cast<std::uint64_t>(e.ticks), e.percent,
                       e.what);
    return;
  }
  s += fmt::format("total: {} attributed: instructions {}, outside instructions {}\n",
                   dur(d, p.total_ticks), dur(d, p.instruction_ticks), dur(d, p.outside_ticks));
  if (d.overlap_ticks > 0 && p.total_ticks > 0)
    s += fmt::format(
        "({} of the total, {:.1f}%, is counted twice: recorded while a thread waited in a "
        "builtin, and also in that builtin's mcall)\n",
        dur(d, d.overlap_ticks), 100 * d.overlap_ticks / p.total_ticks);
  // Shares of the program's own time; what the host took is shown apart.
  const double preempted = p.preempted_ticks, own = p.own_ticks;
  if (preempted > 0)
    s += fmt::format(
        "host preemption {} ({:.1f}% of the total) is the host's, not the program's: shares below "
        "are of the program's own {}\n",
        dur(d, preempted), p.total_ticks > 0 ? 100 * preempted / p.total_ticks : 0.0, dur(d, own));
  s += fmt::format("{:>10} {:>6}  {}\n", "time", "%", "where");
  for (const auto& e : p.entries)
    s += fmt::format("{:>10} {:>6.1f}  {}\n", dur(d, e.ticks), e.percent, e.what);
}

}  // namespace

std::string render_text(const CostData& d, const ReportOptions& o) {
  std::string s = header(d, o);
  switch (o.view) {
    case View::Line:
      line_view(s, d, o);
      outside_view(s, d, o);
      s += mem_functions_text(d, o.module);
      break;
    case View::Fn:
      fn_view(s, d, o);
      s += mem_functions_text(d, o.module);
      break;
    case View::Op:
      op_view(s, d, o);
      break;
    case View::Pc:
      pc_view(s, d, o);
      outside_view(s, d, o);
      break;
    case View::Top:
      top_view(s, d, o);
      break;
    case View::Profile:
      profile_view(s, d, o);
      break;
  }
  return s;
}

}  // namespace dis::cost
