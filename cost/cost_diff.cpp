#include "cost_diff.h"

#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <vector>

#include "cost_report.h"
#include "diag.h"
#include "stats.h"

namespace dis::cost {

namespace {

using nlohmann::json;

// The fields the diff reads, checked against cost_schema.json's types, so
// a hand-edited or truncated report is refused with the field's place
// rather than ending the tool on a JSON type error.
enum class Kind { String, Integer, Count, Number };

[[noreturn]] void refuse(const std::string& path, const std::string& what) {
  throw InputError(Diagnostic{path, 0, 0, -1, what});
}

void check_field(const json& obj, const char* key, Kind kind, const std::string& where,
                 const std::string& path) {
  if (!obj.contains(key)) return;
  const json& v = obj[key];
  bool ok = false;
  const char* need = "";
  switch (kind) {
    case Kind::String:
      ok = v.is_string(), need = "a string";
      break;
    case Kind::Integer:
      ok = v.is_number_integer(), need = "an integer";
      break;
    case Kind::Count:
      ok = v.is_number_unsigned(), need = "an integer of 0 or more";
      break;
    case Kind::Number:
      ok = v.is_number() && v.get<double>() >= 0, need = "a number of 0 or more";
      break;
  }
  if (!ok) refuse(path, where + "." + key + ": " + need + " is needed");
}

void check_array(const json& obj, const char* key, const std::string& where,
                 const std::string& path) {
  if (obj.contains(key) && !obj[key].is_array())
    refuse(path, where + "." + key + ": an array is needed");
}

void check_fields(const json& j, const std::string& path) {
  check_field(j, "mode", Kind::String, "report", path);
  check_field(j, "runs", Kind::Count, "report", path);
  const json& mods = j["modules"];
  for (std::size_t m = 0; m < mods.size(); ++m) {
    const std::string mw = "modules[" + std::to_string(m) + "]";
    if (!mods[m].is_object()) refuse(path, mw + ": an object is needed");
    check_field(mods[m], "name", Kind::String, mw, path);
    check_array(mods[m], "lines", mw, path);
    if (!mods[m].contains("lines")) continue;
    const json& lines = mods[m]["lines"];
    for (std::size_t l = 0; l < lines.size(); ++l) {
      const std::string lw = mw + ".lines[" + std::to_string(l) + "]";
      const json& line = lines[l];
      if (!line.is_object()) refuse(path, lw + ": an object is needed");
      check_field(line, "file", Kind::Integer, lw, path);
      check_field(line, "line", Kind::Integer, lw, path);
      check_field(line, "text", Kind::String, lw, path);
      check_array(line, "ops", lw, path);
      check_array(line, "run_ns", lw, path);
      if (line.contains("run_ns"))
        for (const json& r : line["run_ns"])
          if (!r.is_number()) refuse(path, lw + ".run_ns: numbers are needed");
      if (!line.contains("ops")) continue;
      const json& ops = line["ops"];
      for (std::size_t o = 0; o < ops.size(); ++o) {
        const std::string ow = lw + ".ops[" + std::to_string(o) + "]";
        if (!ops[o].is_object()) refuse(path, ow + ": an object is needed");
        check_field(ops[o], "pc", Kind::Integer, ow, path);
        check_field(ops[o], "op", Kind::String, ow, path);
        check_field(ops[o], "count", Kind::Count, ow, path);
        check_field(ops[o], "timed", Kind::Count, ow, path);
        check_field(ops[o], "mean_ns", Kind::Number, ow, path);
        check_field(ops[o], "std_ns", Kind::Number, ow, path);
      }
    }
  }
}

struct OpKey {
  std::string module;
  std::int64_t file, line, pc;
  auto operator<=>(const OpKey&) const = default;
};
struct OpVal {
  std::string op, text;
  std::uint64_t count = 0, timed = 0;
  double mean = 0, std = 0;
};

std::map<OpKey, OpVal> ops_of_report(const json& j) {
  std::map<OpKey, OpVal> m;
  for (const json& mod : j["modules"]) {
    std::string name = mod.value("name", "");
    if (!mod.contains("lines")) continue;
    for (const json& l : mod["lines"]) {
      for (const json& op : l.value("ops", json::array())) {
        OpKey k{name, l.value("file", -1), l.value("line", 0), op.value("pc", -1)};
        OpVal v;
        v.op = op.value("op", "");
        v.text = l.value("text", "");
        v.count = op.value("count", std::uint64_t{0});
        v.timed = op.value("timed", std::uint64_t{0});
        v.mean = op.value("mean_ns", 0.0);
        v.std = op.value("std_ns", 0.0);
        m[k] = v;
      }
    }
  }
  return m;
}

// Within one run, a standard error says nothing of how the host moved
// between the two runs, which on a shared host is often the larger part.
std::string one_run_caveat(const json& a, const json& b) {
  if (a.value("runs", 1) >= 2 && b.value("runs", 1) >= 2) return "";
  return "(one run each: the host's drift from run to run is not in these standard errors; "
         "reports merged from cost --repeat N carry it)\n";
}

std::string num(double v, int prec = 1) {
  std::ostringstream s;
  s.setf(std::ios::fixed);
  s.precision(prec);
  s << v;
  return s.str();
}

}  // namespace

json parse_report(std::string_view text, const std::string& path) {
  json j;
  try {
    j = json::parse(text);
  } catch (const json::parse_error& e) {
    throw InputError(
        Diagnostic{path, 0, 0, static_cast<std::int64_t>(e.byte), "not a JSON document"});
  } catch (const json::exception&) {
    // out_of_range: a number too large for a double.
    refuse(path, "not a JSON document: a number out of range");
  }
  if (!j.is_object() || !j.contains("schema") || j["schema"] != "disvm-cost/1" ||
      !j.contains("modules") || !j["modules"].is_array())
    refuse(path, "not a cost report (schema disvm-cost/1)");
  check_fields(j, path);
  return j;
}

std::string diff_by_instruction(const json& a, const json& b, double confidence,
                                const std::string& an, const std::string& bn) {
  auto ma = ops_of_report(a), mb = ops_of_report(b);
  bool timed = a.value("mode", "") == "time" && b.value("mode", "") == "time";
  std::ostringstream o;
  o << "cost diff: a = " << an << ", b = " << bn << "\n";
  if (timed)
    o << "Welch's t test per instruction at " << num(confidence, 1)
      << "% confidence; * marks a significant difference of mean time\n"
      << one_run_caveat(a, b);
  else
    o << "counts only (a report is in count mode)\n";
  std::size_t compared = 0, significant = 0, count_changes = 0, only_one = 0;
  std::string last_line;
  auto line_header = [&](const OpKey& k, const OpVal& v) {
    std::string h = k.module + " line " + std::to_string(k.line) + ": " + v.text;
    if (h != last_line) {
      o << h << "\n";
      last_line = h;
    }
  };
  std::map<OpKey, int> keys;
  for (auto& [k, _] : ma) keys[k] |= 1;
  for (auto& [k, _] : mb) keys[k] |= 2;
  for (auto& [k, where] : keys) {
    if (where != 3) {
      ++only_one;
      const OpVal& v = where == 1 ? ma[k] : mb[k];
      line_header(k, v);
      o << "  - " << v.op << " pc " << k.pc << ": only in " << (where == 1 ? "a" : "b") << "\n";
      continue;
    }
    const OpVal& x = ma[k];
    const OpVal& y = mb[k];
    ++compared;
    bool counts_differ = x.count != y.count;
    if (counts_differ) ++count_changes;
    std::string sig;
    std::string times;
    if (timed && x.timed >= 2 && y.timed >= 2) {
      SampleStats sa{}, sb{};
      sa.n = x.timed;
      sa.mean = x.mean;
      sa.stddev = x.std;
      sa.variance = x.std * x.std;
      sb.n = y.timed;
      sb.mean = y.mean;
      sb.stddev = y.std;
      sb.variance = y.std * y.std;
      WelchResult w = welch_t(sb, sa, confidence);
      if (w.significant) ++significant;
      double pct = x.mean != 0 ? 100.0 * (y.mean - x.mean) / x.mean : 0;
      times = format_duration_ns(x.mean) + " -> " + format_duration_ns(y.mean) + " (" +
              (pct >= 0 ? "+" : "") + num(pct) + "%, p " + num(w.p, 4) + ")";
      sig = w.significant ? " *" : "";
    }
    if (!counts_differ && sig.empty()) continue;
    line_header(k, x);
    o << "  - " << x.op << " pc " << k.pc << ":";
    if (counts_differ) o << " count " << x.count << " -> " << y.count;
    if (!times.empty()) o << " mean " << times;
    o << sig << "\n";
  }
  o << compared << " instructions compared";
  if (timed) o << ", " << significant << " significantly different";
  o << ", " << count_changes << " with different counts";
  if (only_one) o << ", " << only_one << " in one report only";
  o << "\n";
  return o.str();
}

namespace {

struct LineKey {
  std::string module;
  std::int64_t file, line;
  auto operator<=>(const LineKey&) const = default;
};
struct LineVal {
  std::string text;
  std::uint64_t instructions = 0;
  double total = 0;          // ns: sum over its instructions of count x mean
  double variance = 0;       // of that estimate: sum of count^2 / timed x std^2
  std::vector<double> runs;  // per-run totals (--repeat), else empty
  // An instruction of the line was timed fewer than twice: its share of the
  // total has no variance estimate, so the total's standard error is unknown
  // (taking it as zero made every once-run line "significant").
  bool unknown_variance = false;
};

std::map<LineKey, LineVal> lines_of_report(const json& j) {
  std::map<LineKey, LineVal> m;
  for (const json& mod : j["modules"]) {
    std::string name = mod.value("name", "");
    if (!mod.contains("lines")) continue;
    for (const json& l : mod["lines"]) {
      LineVal v;
      v.text = l.value("text", "");
      for (const json& op : l.value("ops", json::array())) {
        const auto count = op.value("count", std::uint64_t{0});
        const auto timed = op.value("timed", std::uint64_t{0});
        const double mean = op.value("mean_ns", 0.0), sd = op.value("std_ns", 0.0);
        v.instructions += count;
        v.total += static_cast<double>(count) * mean;
        if (timed >= 2)
          v.variance += static_cast<double>(count) * static_cast<double>(count) /
                        static_cast<double>(timed) * sd * sd;
        else if (count > 0)
          v.unknown_variance = true;
      }
      for (const json& r : l.value("run_ns", json::array())) v.runs.push_back(r.get<double>());
      if (v.instructions == 0) continue;
      m[{name, l.value("file", -1), l.value("line", 0)}] = std::move(v);
    }
  }
  return m;
}

SampleStats stats_of(const std::vector<double>& v) {
  SampleStats s{};
  s.n = v.size();
  for (double x : v) s.mean += x;
  s.mean /= static_cast<double>(v.size());
  for (double x : v) s.variance += (x - s.mean) * (x - s.mean);
  s.variance /= static_cast<double>(v.size() - 1);
  s.stddev = std::sqrt(s.variance);
  return s;
}

}  // namespace

LineComparison compare_lines(const json& a, const json& b, double confidence) {
  auto la = lines_of_report(a), lb = lines_of_report(b);
  LineComparison c;
  c.timed = a.value("mode", "") == "time" && b.value("mode", "") == "time";
  c.runs_each = a.value("runs", 1) >= 2 && b.value("runs", 1) >= 2;
  const double alpha = 1 - confidence / 100;
  std::map<LineKey, int> keys;
  for (auto& [k, _] : la) keys[k] |= 1;
  for (auto& [k, _] : lb) keys[k] |= 2;
  for (auto& [k, where] : keys) {
    LineDiff d;
    d.module = k.module;
    d.file = k.file;
    d.line = k.line;
    d.in_a = where & 1;
    d.in_b = where & 2;
    const LineVal& x = d.in_a ? la[k] : lb[k];
    d.text = x.text;
    if (d.in_a) d.a_instructions = la[k].instructions, d.a_total_ns = la[k].total;
    if (d.in_b) d.b_instructions = lb[k].instructions, d.b_total_ns = lb[k].total;
    if (where != 3) {
      c.lines.push_back(std::move(d));
      continue;
    }
    const LineVal& y = lb[k];
    if (c.timed) {
      if (x.runs.size() >= 2 && y.runs.size() >= 2) {
        d.p = welch_t(stats_of(y.runs), stats_of(x.runs), confidence).p;
      } else if (x.unknown_variance || y.unknown_variance) {
        d.testable = false;
      } else {
        const double se = std::sqrt(x.variance + y.variance);
        const double diff = y.total - x.total;
        d.p = se > 0 ? std::erfc(std::fabs(diff) / se / std::sqrt(2.0)) : (diff != 0 ? 0 : 1);
      }
      d.significant = d.testable && d.p < alpha;
    }
    c.lines.push_back(std::move(d));
  }
  return c;
}

std::string diff_reports(const json& a, const json& b, double confidence, const std::string& an,
                         const std::string& bn) {
  const LineComparison c = compare_lines(a, b, confidence);
  const bool timed = c.timed;
  std::ostringstream o;
  o << "cost diff: a = " << an << ", b = " << bn << "\n";
  if (timed)
    o << "per source line: total time (count x mean of its instructions); significance at "
      << num(confidence, 1)
      << "% confidence from the totals' standard errors (normal test; Welch's t over the runs "
         "when both reports merged several); * marks a significant difference\n";
  else
    o << "per source line: instruction counts only (a report is in count mode)\n";
  if (timed) o << one_run_caveat(a, b);
  std::size_t compared = 0, significant = 0, count_changes = 0, only_one = 0, untestable = 0;
  for (const LineDiff& d : c.lines) {
    const std::string head = d.module + " line " + std::to_string(d.line) + ": ";
    if (!d.in_a || !d.in_b) {
      ++only_one;
      o << head << d.text << "\n  executed only in " << (d.in_a ? "a" : "b") << "\n";
      continue;
    }
    ++compared;
    const bool counts_differ = d.a_instructions != d.b_instructions;
    if (counts_differ) ++count_changes;
    std::string times, sig;
    if (timed) {
      if (!d.testable) ++untestable;
      if (d.significant) ++significant;
      const double pct =
          d.a_total_ns != 0 ? 100.0 * (d.b_total_ns - d.a_total_ns) / d.a_total_ns : 0;
      times = format_duration_ns(d.a_total_ns) + " -> " + format_duration_ns(d.b_total_ns) + " (" +
              (pct >= 0 ? "+" : "") + num(pct) + "%, " +
              (d.testable ? "p " + num(d.p, 4) : std::string("not testable")) + ")";
      sig = d.significant ? " *" : "";
    }
    if (!counts_differ && sig.empty()) continue;
    o << head << d.text << "\n  ";
    if (!times.empty()) o << "total " << times;
    if (counts_differ)
      o << (times.empty() ? "" : ", ") << "instructions " << d.a_instructions << " -> "
        << d.b_instructions;
    o << sig << "\n";
  }
  o << compared << " lines compared";
  if (timed) o << ", " << significant << " significantly different";
  o << ", " << count_changes << " with different counts";
  if (only_one) o << ", " << only_one << " executed in one report only";
  if (untestable)
    o << ", " << untestable << " not testable (an instruction timed fewer than twice)";
  o << "\n";
  return o.str();
}

json read_report(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) refuse(path, "cannot read the report");
  std::ostringstream text;
  text << in.rdbuf();
  return parse_report(text.str(), path);
}

std::string diff_reports(const std::string& a_path, const std::string& b_path, double confidence,
                         bool by_instruction) {
  json a = read_report(a_path), b = read_report(b_path);
  return by_instruction ? diff_by_instruction(a, b, confidence, a_path, b_path)
                        : diff_reports(a, b, confidence, a_path, b_path);
}

}  // namespace dis::cost
