// Renderers of a CostData (cost_data.h): text, JSON, CSV and callgrind.
//
// Text (the paper's shape): a header (program, timer, base, totals,
// environment), then per module and source file every source line
// `LINE: text` in order, each executed one followed by one line per executed
// instruction in pc order: `- op count mean min max std`, durations with
// units chosen per value (duration_format.h). Then the time outside
// instructions (buckets), builtins and reference-count frees. Other views:
// --by fn, --by op, --by pc, --top N, --profile.
//
// Counts only (ReportOptions::counts_only, or CostData::mode == Count): no
// times anywhere, and no timer, base or environment block in text, so the
// text is deterministic (golden tests rest on it). JSON still carries the
// environment when present.
//
// JSON: one object documented by cost/cost_schema.json; it carries every
// view regardless of ReportOptions::view (the -s module filter applies).
// CSV: one table per view, with a header row; time columns in ns.
// Callgrind: "# callgrind format", positions = source line, events Instr
// (Dis instructions) and Ns (attributed time, rounded to integer ns).
// HTML: one self-contained page over the JSON report (cost_report_html.h).
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <string_view>

#include "cost_data.h"
#include "duration_format.h"

namespace dis::cost {

enum class View { Line, Fn, Op, Pc, Top, Profile };
enum class Format { Text, Json, Csv, Callgrind, Html };

struct ReportOptions {
  View view = View::Line;
  Format format = Format::Text;
  bool counts_only = false;      // --count
  bool hide_unexecuted = false;  // line view: only lines whose code ran
  std::size_t top = 10;          // --top N
  std::string module;            // -s NAME: only this module ("" = all)
  bool environment = true;       // text: print the environment block
  // --repeat N: a line whose run-to-run variation is proven above
  // kReproducibleCv at this confidence (percent) is marked.
  double confidence = 95;
};

// "line" "fn" "op" "pc" "top" "profile"; false on anything else.
bool parse_view(std::string_view text, View& out);
// "text" "json" "csv" "callgrind" "html"; false on anything else.
bool parse_format(std::string_view text, Format& out);
const char* view_name(View v);

std::string render_text(const CostData& d, const ReportOptions& o);
nlohmann::json render_json_value(const CostData& d, const ReportOptions& o);
std::string render_json(const CostData& d, const ReportOptions& o);  // indented, ends in '\n'
std::string render_csv(const CostData& d, const ReportOptions& o);
std::string render_callgrind(const CostData& d, const ReportOptions& o);

// Dispatches on o.format.
void write_report(std::ostream& out, const CostData& d, const ReportOptions& o);

// Shared by the renderers.
namespace detail {
bool counts_only(const CostData& d, const ReportOptions& o);
// The source text of (file, line) in mc, "" when unknown.
const std::string& source_line(const ModuleCost& mc, std::int32_t file, std::int32_t line);
std::string source_file_name(const ModuleCost& mc, std::int32_t file);
std::string function_display_name(const ModuleCost& mc, const std::string& fn);
}  // namespace detail

}  // namespace dis::cost
