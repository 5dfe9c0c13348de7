#include "cost_report_html.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>

#include "cost_diff.h"
#include "cost_html_assets.h"
#include "cost_report.h"

namespace dis::cost {

namespace {

using nlohmann::json;

constexpr int kDigits = 5;

// kDigits significant digits, as the shortest decimal that reads back as the
// same double (k / 10^m rounds to the double nearest that decimal).
double round_digits(double x) {
  if (x == 0 || !std::isfinite(x)) return x;
  const int e = static_cast<int>(std::floor(std::log10(std::fabs(x))));
  if (e < -290) return x;  // 10^(digits - e) would overflow
  const int shift = kDigits - 1 - e;
  if (shift <= 0) {
    const double p = std::pow(10.0, -shift);
    return std::round(x / p) * p;
  }
  const double p = std::pow(10.0, shift);
  return std::round(x * p) / p;
}

bool all_objects(const json& a, std::size_t at_least) {
  if (!a.is_array() || a.size() < at_least) return false;
  return std::all_of(a.begin(), a.end(), [](const json& e) { return e.is_object(); });
}

// The keys of the objects in order of first appearance, and for each key
// whose every value is an array of objects, their schema in turn:
// {"$cols": [keys], "$sub": {key: schema}}.
json schema_of(const std::vector<const json*>& objects) {
  std::vector<std::string> cols;
  std::map<std::string, std::size_t> at;
  for (const json* e : objects)
    for (const auto& [k, _] : e->items())
      if (at.emplace(k, cols.size()).second) cols.push_back(k);
  json sub = json::object();
  for (const std::string& k : cols) {
    std::vector<const json*> inner;
    bool nested = true;
    for (const json* e : objects) {
      auto it = e->find(k);
      if (it == e->end()) continue;
      if (!all_objects(*it, 0)) {
        nested = false;
        break;
      }
      for (const json& x : *it) inner.push_back(&x);
    }
    if (nested && !inner.empty()) sub[k] = schema_of(inner);
  }
  json schema = {{"$cols", cols}};
  if (!sub.empty()) schema["$sub"] = std::move(sub);
  return schema;
}

// Rows of the objects by the schema (null for a key an object lacks).
json rows_of(const json& objects, const json& schema) {
  const json& cols = schema["$cols"];
  const json none = json::object();
  const json& sub = schema.contains("$sub") ? schema["$sub"] : none;
  json rows = json::array();
  for (const json& e : objects) {
    json row = json::array();
    for (const json& kj : cols) {
      const std::string& k = kj.get_ref<const std::string&>();
      auto it = e.find(k);
      if (it == e.end())
        row.push_back(nullptr);
      else if (sub.contains(k))
        row.push_back(rows_of(*it, sub[k]));
      else
        row.push_back(compact_json(*it));
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

json columns_of(const json& a) {
  std::vector<const json*> objects;
  for (const json& e : a) objects.push_back(&e);
  json out = schema_of(objects);
  out["$rows"] = rows_of(a, out);
  return out;
}

// What the page computes itself: an instruction's "sampled" (timed <
// count) and "total_ns" (mean x count), and a line's text where the page
// has the source file.
void drop_derived(json& report, const json& sources) {
  if (!report.contains("modules")) return;
  for (json& m : report["modules"]) {
    if (!m.is_object() || !m.contains("lines")) continue;
    const json* files = nullptr;
    for (const json& s : sources)
      if (s["module"] == m["name"]) files = &s["files"];
    for (json& l : m["lines"]) {
      const auto f = l.value("file", -1), n = l.value("line", 0);
      if (files && l.contains("text") && f >= 0 && static_cast<std::size_t>(f) < files->size() &&
          n >= 1 && static_cast<std::size_t>(n) <= (*files)[static_cast<std::size_t>(f)].size() &&
          (*files)[static_cast<std::size_t>(f)][static_cast<std::size_t>(n - 1)] == l["text"])
        l.erase("text");
      if (!l.is_object() || !l.contains("ops")) continue;
      for (json& op : l["ops"]) {
        op.erase("sampled");
        op.erase("total_ns");
      }
    }
  }
}

// Every line of every source file of the shown modules.
json sources_json(const CostData& d, const std::vector<std::size_t>& shown) {
  json out = json::array();
  for (std::size_t mi : shown) {
    const ModuleCost& mc = d.modules[mi];
    out.push_back({{"module", mc.name}, {"files", mc.source_text}});
  }
  return out;
}

// Per shown module, each timed pc's histogram as (bucket step, count) pairs
// (the bucket index less the previous one's), and once for all, each
// bucket's lowest value and width in ns.
json hist_json(const CostData& d, const std::vector<std::size_t>& shown) {
  using H = vm::LogHistogram;
  json low = json::array(), width = json::array();
  for (int i = 0; i < H::kBuckets; ++i) {
    low.push_back(round_digits(d.ns(static_cast<double>(H::bucket_low(i)))));
    width.push_back(round_digits(d.ns(static_cast<double>(H::bucket_width(i)))));
  }
  json mods = json::array();
  for (std::size_t mi : shown) {
    const ModuleCost& mc = d.modules[mi];
    json pcs = json::array(), hs = json::array();
    for (std::size_t pc = 0; pc < pc_count(mc); ++pc) {
      const ProbeRecord& r = mc.pcs[pc];
      if (!r.has_time()) continue;
      json h = json::array();
      int prev = 0;
      for (int i = 0; i < H::kBuckets; ++i)
        if (const std::uint64_t c = r.hist.at(i)) {
          h.push_back(i - prev);
          h.push_back(c);
          prev = i;
        }
      pcs.push_back(pc);
      hs.push_back(std::move(h));
    }
    mods.push_back({{"module", mc.name}, {"pcs", std::move(pcs)}, {"h", std::move(hs)}});
  }
  return {{"low_ns", std::move(low)}, {"width_ns", std::move(width)}, {"modules", std::move(mods)}};
}

std::string function_at(const ModuleCost& mc, std::int32_t entry) {
  for (const FunctionRange& f : mc.functions)
    if (f.pc == entry) return f.name;
  return "<module>";
}

json call_paths_json(const CostData& d, bool counts) {
  json nodes = json::array();
  for (const CallPath& c : d.call_paths) {
    const ModuleCost& mc = d.modules[static_cast<std::size_t>(c.module)];
    json n = {
        {"parent", c.parent}, {"module", mc.name}, {"fn", function_at(mc, c.entry_pc)},
        {"pc", c.entry_pc},   {"calls", c.calls},  {"instructions", c.inclusive_instructions}};
    if (!counts) n["ns"] = d.ns(static_cast<double>(c.inclusive_ticks));
    nodes.push_back(std::move(n));
  }
  return nodes;
}

std::string html_escape(const std::string& s) {
  std::string o;
  for (char c : s) switch (c) {
      case '&':
        o += "&amp;";
        break;
      case '<':
        o += "&lt;";
        break;
      case '>':
        o += "&gt;";
        break;
      case '"':
        o += "&quot;";
        break;
      case '@':  // no marker of the template can come from a title
        o += "&#64;";
        break;
      default:
        o += c;
    }
  return o;
}

template <std::size_t N>
std::string joined(const std::string_view (&parts)[N]) {
  std::string s;
  for (std::string_view p : parts) s += p;
  return s;
}

// Every occurrence; what was put in is not searched again.
void replace_marker(std::string& page, std::string_view marker, const std::string& with) {
  for (std::size_t at = page.find(marker); at != std::string::npos;
       at = page.find(marker, at + with.size()))
    page.replace(at, marker.size(), with);
}

// The template with style, script, title and data in place. In the data,
// '<' appears only inside JSON strings, where \u003c means the same, so no
// "</script>" can end the element early.
std::string page_of(const json& data, const std::string& title) {
  std::string text = data.dump(-1, ' ', false, json::error_handler_t::replace);
  std::string safe;
  safe.reserve(text.size());
  for (char c : text) {
    if (c == '<')
      safe += "\\u003c";
    else
      safe += c;
  }
  // The template's own markers first: style, script and data are not
  // searched for markers.
  std::string page = joined(html_assets::kPage);
  replace_marker(page, "@title@", html_escape(title));
  constexpr std::string_view kMarks[] = {"/*@style@*/", "@data@", "/*@script@*/"};
  const std::string fills[] = {joined(html_assets::kStyle), safe, joined(html_assets::kScript)};
  std::string out;
  std::size_t from = 0;
  for (std::size_t i = 0; i < 3; ++i) {
    const std::size_t at = page.find(kMarks[i], from);
    if (at == std::string::npos)
      throw std::logic_error("cost/html/report.html: a marker is missing or out of order");
    out.append(page, from, at - from);
    out += fills[i];
    from = at + kMarks[i].size();
  }
  out.append(page, from, std::string::npos);
  return out;
}

}  // namespace

json compact_json(const json& j) {
  if (j.is_number_float()) return round_digits(j.get<double>());
  if (j.is_array()) {
    if (all_objects(j, 2)) return columns_of(j);
    json a = json::array();
    for (const json& e : j) a.push_back(compact_json(e));
    return a;
  }
  if (j.is_object()) {
    json o = json::object();
    for (const auto& [k, v] : j.items()) o[k] = compact_json(v);
    return o;
  }
  return j;
}

std::string render_html(const CostData& d, const json& report, const PageFacts& facts) {
  const bool counts = report.value("mode", "") == "count";
  std::vector<std::string> names;
  for (const json& m : report["modules"]) names.push_back(m.value("name", ""));
  std::vector<std::size_t> shown;
  for (std::size_t i = 0; i < d.modules.size(); ++i)
    if (std::find(names.begin(), names.end(), d.modules[i].name) != names.end()) shown.push_back(i);
  json data;
  data["kind"] = "report";
  data["generator"] = std::string("cost ") + DIS_VERSION;
  data["sources"] = sources_json(d, shown);
  json slim = report;
  drop_derived(slim, data["sources"]);
  data["report"] = compact_json(slim);
  if (!counts) data["hist"] = hist_json(d, shown);
  if (!d.call_paths.empty()) data["call_paths"] = compact_json(call_paths_json(d, counts));
  data["outcome"] = {
      {"status", facts.status},
      {"state", d.outcome.status != Outcome::Status::Ok ? outcome_name(d.outcome.status)
                                                        : (facts.status != 0 ? "failed" : "ok")},
      {"message", facts.message},
      {"where", facts.where}};
  if (!facts.accuracy_text.empty()) data["accuracy_text"] = facts.accuracy_text;
  return page_of(data, "cost: " + d.program);
}

std::string render_html_diff(const json& a, const json& b, const std::string& a_name,
                             const std::string& b_name, double confidence) {
  const LineComparison c = compare_lines(a, b, confidence);
  json lines = json::array();
  for (const LineDiff& l : c.lines) {
    json j = {{"module", l.module},
              {"file", l.file},
              {"line", l.line},
              {"in", l.in_a && l.in_b ? "both"
                     : l.in_a         ? "a"
                                      : "b"},
              {"a_instructions", l.a_instructions},
              {"b_instructions", l.b_instructions}};
    if (c.timed) {
      j["a_ns"] = l.a_total_ns;
      j["b_ns"] = l.b_total_ns;
      if (l.in_a && l.in_b) {
        j["testable"] = l.testable;
        j["p"] = l.p;
        j["significant"] = l.significant;
      }
    }
    lines.push_back(std::move(j));
  }
  json data;
  data["kind"] = "diff";
  data["generator"] = std::string("cost ") + DIS_VERSION;
  data["a_name"] = a_name;
  data["b_name"] = b_name;
  data["confidence"] = confidence;
  data["timed"] = c.timed;
  data["runs_each"] = c.runs_each;
  json slim_a = a, slim_b = b;
  drop_derived(slim_a, json::array());
  drop_derived(slim_b, json::array());
  data["a"] = compact_json(slim_a);
  data["b"] = compact_json(slim_b);
  data["lines"] = compact_json(lines);
  return page_of(data, "cost diff: " + a_name + " vs " + b_name);
}

}  // namespace dis::cost
