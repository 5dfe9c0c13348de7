#include "cost_report.h"

#include "cost_report_html.h"

namespace dis::cost {

bool parse_view(std::string_view text, View& out) {
  static constexpr std::pair<std::string_view, View> kViews[] = {
      {"line", View::Line}, {"fn", View::Fn},   {"op", View::Op},
      {"pc", View::Pc},     {"top", View::Top}, {"profile", View::Profile}};
  for (const auto& [name, v] : kViews)
    if (text == name) {
      out = v;
      return true;
    }
  return false;
}

const char* view_name(View v) {
  switch (v) {
    case View::Line:
      return "line";
    case View::Fn:
      return "fn";
    case View::Op:
      return "op";
    case View::Pc:
      return "pc";
    case View::Top:
      return "top";
    case View::Profile:
      return "profile";
  }
  return "line";
}

bool parse_format(std::string_view text, Format& out) {
  if (text == "text")
    out = Format::Text;
  else if (text == "json")
    out = Format::Json;
  else if (text == "csv")
    out = Format::Csv;
  else if (text == "callgrind")
    out = Format::Callgrind;
  else if (text == "html")
    out = Format::Html;
  else
    return false;
  return true;
}

void write_report(std::ostream& out, const CostData& d, const ReportOptions& o) {
  switch (o.format) {
    case Format::Text:
      out << render_text(d, o);
      break;
    case Format::Json:
      out << render_json(d, o);
      break;
    case Format::Csv:
      out << render_csv(d, o);
      break;
    case Format::Callgrind:
      out << render_callgrind(d, o);
      break;
    case Format::Html:
      out << render_html(d, render_json_value(d, o), {});
      break;
  }
}

namespace detail {

bool counts_only(const CostData& d, const ReportOptions& o) {
  return o.counts_only || d.mode == Mode::Count;
}

const std::string& source_line(const ModuleCost& mc, std::int32_t file, std::int32_t line) {
  static const std::string kNone;
  if (file < 0 || static_cast<std::size_t>(file) >= mc.source_text.size() || line < 1) return kNone;
  const auto& text = mc.source_text[static_cast<std::size_t>(file)];
  if (static_cast<std::size_t>(line) > text.size()) return kNone;
  return text[static_cast<std::size_t>(line - 1)];
}

std::string source_file_name(const ModuleCost& mc, std::int32_t file) {
  if (mc.module && file >= 0 && static_cast<std::size_t>(file) < mc.module->source_files.size())
    return mc.module->source_files[static_cast<std::size_t>(file)];
  return mc.name + ".dis";
}

std::string function_display_name(const ModuleCost& mc, const std::string& fn) {
  return mc.name + "->" + fn;
}

}  // namespace detail

}  // namespace dis::cost
