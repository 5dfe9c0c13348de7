#include "observations.h"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <fstream>
#include <iostream>
#include <istream>
#include <ostream>

#include "diag.h"
#include "stats.h"

namespace dis::cost {

namespace {

constexpr const char* kFieldNames[] = {"NAME", "STYLE", "XLABEL", "XUNIT", "YLABEL", "YUNIT"};

[[noreturn]] void fail(const std::string& file, int line, std::size_t col, std::string msg) {
  throw InputError(Diagnostic{file, line, static_cast<std::int32_t>(col + 1), -1, std::move(msg)});
}

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

// Parses a whole token as a finite decimal number.
bool parse_number(std::string_view tok, double& out) {
  const char* b = tok.data();
  const char* e = b + tok.size();
  if (b != e && *b == '+') ++b;
  auto [p, ec] = std::from_chars(b, e, out);
  return ec == std::errc() && p == e && std::isfinite(out);
}

}  // namespace

std::string format_number(double v) {
  char buf[64];
  auto [p, ec] = std::to_chars(buf, buf + sizeof buf, v);
  (void)ec;
  return std::string(buf, p);
}

std::string quote_for_message(std::string_view text, std::size_t max) {
  std::string out;
  for (std::size_t i = 0; i < text.size() && i < max; ++i) {
    auto c = static_cast<unsigned char>(text[i]);
    out += c >= 0x20 && c < 0x7f ? static_cast<char>(c) : '?';
  }
  if (text.size() > max) out += "...";
  return out;
}

Observation parse_observation_line(std::string_view text, const std::string& file, int line) {
  Observation obs;
  obs.file = file;
  obs.line = line;
  std::size_t i = 0;
  while (i < text.size() && is_blank(text[i])) ++i;
  std::size_t hstart = i;
  while (i < text.size() && !is_blank(text[i])) ++i;
  std::string_view header = text.substr(hstart, i - hstart);

  std::string* fields[] = {&obs.name, &obs.style, &obs.xlabel, &obs.xunit, &obs.ylabel, &obs.yunit};
  std::size_t nfields = 0;
  std::size_t fstart = 0;
  for (std::size_t k = 0; k <= header.size(); ++k) {
    if (k == header.size() || header[k] == ':') {
      if (nfields < 6) *fields[nfields] = std::string(header.substr(fstart, k - fstart));
      ++nfields;
      fstart = k + 1;
    }
  }
  if (nfields != 6) {
    fail(file, line, hstart,
         fmt::format("observation header '{}' has {} field{}, expected 6 "
                     "(NAME:STYLE:XLABEL:XUNIT:YLABEL:YUNIT)",
                     quote_for_message(header, 60), nfields, nfields == 1 ? "" : "s"));
  }
  for (int f : {0, 1}) {
    if (fields[f]->empty())
      fail(file, line, hstart, fmt::format("field {} of the header is empty", kFieldNames[f]));
  }

  std::size_t index = 0;
  while (true) {
    while (i < text.size() && is_blank(text[i])) ++i;
    if (i >= text.size()) break;
    std::size_t vstart = i;
    while (i < text.size() && !is_blank(text[i])) ++i;
    std::string_view tok = text.substr(vstart, i - vstart);
    ++index;
    double v = 0;
    if (!parse_number(tok, v)) {
      fail(file, line, vstart,
           fmt::format("field value {}: '{}' is not a finite decimal number", index,
                       quote_for_message(tok)));
    }
    obs.values.push_back(v);
  }
  if (obs.is_summary() && obs.values.size() != 5) {
    fail(file, line, hstart,
         fmt::format("summary line '{}' needs 5 values (n mean min max std), has {}", obs.name,
                     obs.values.size()));
  }
  return obs;
}

std::vector<Observation> read_observations(std::istream& in, const std::string& file) {
  std::vector<Observation> out;
  std::string text;
  int line = 0;
  while (std::getline(in, text)) {
    ++line;
    std::size_t k = 0;
    while (k < text.size() && is_blank(text[k])) ++k;
    if (k == text.size() || text[k] == '#') continue;
    out.push_back(parse_observation_line(text, file, line));
  }
  if (in.bad()) throw InputError(Diagnostic{file, 0, 0, -1, "read error"});
  return out;
}

std::vector<Observation> read_observation_file(const std::string& path) {
  if (path == "-") return read_observations(std::cin, "<stdin>");
  std::ifstream in(path);
  if (!in) throw InputError(Diagnostic{path, 0, 0, -1, "cannot open file"});
  return read_observations(in, path);
}

SummaryValues summary_values(const Observation& obs) {
  if (!obs.is_summary() || obs.values.size() != 5) {
    throw InputError(
        Diagnostic{obs.file, obs.line, 0, -1, fmt::format("'{}' is not a summary line", obs.name)});
  }
  return SummaryValues{obs.values[0], obs.values[1], obs.values[2], obs.values[3], obs.values[4]};
}

std::string format_observation_line(const Observation& obs) {
  std::string out = fmt::format("{}:{}:{}:{}:{}:{}", obs.name, obs.style, obs.xlabel, obs.xunit,
                                obs.ylabel, obs.yunit);
  for (double v : obs.values) {
    out += ' ';
    out += format_number(v);
  }
  return out;
}

void write_observation_line(std::ostream& out, const Observation& obs) {
  out << obs.name << ':' << obs.style << ':' << obs.xlabel << ':' << obs.xunit << ':' << obs.ylabel
      << ':' << obs.yunit;
  for (double v : obs.values) out << ' ' << format_number(v);
}

Observation make_summary(const std::string& name, const std::string& ylabel,
                         const std::string& yunit, std::span<const double> values) {
  Observation obs;
  obs.name = name;
  obs.style = "summary";
  obs.xlabel = "Sample";
  obs.xunit = "n";
  obs.ylabel = ylabel;
  obs.yunit = yunit;
  SampleStats s = describe(values);
  obs.values = {static_cast<double>(s.n), s.mean, s.min, s.max, s.stddev};
  return obs;
}

ValueRange parse_range(std::string_view text) {
  auto bad = [&]() -> ValueRange {
    throw InputError(Diagnostic{"-r", 0, 0, -1,
                                fmt::format("'{}' is not a range (FIRST-LAST, FIRST- or N, "
                                            "counted from 1)",
                                            text)});
  };
  auto num = [&](std::string_view s, std::size_t& out) {
    if (s.empty()) return false;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return ec == std::errc() && p == s.data() + s.size() && out >= 1;
  };
  ValueRange r;
  auto dash = text.find('-');
  if (dash == std::string_view::npos) {
    if (!num(text, r.first)) return bad();
    r.last = r.first;
    return r;
  }
  if (!num(text.substr(0, dash), r.first)) return bad();
  std::string_view rest = text.substr(dash + 1);
  if (!rest.empty() && !num(rest, r.last)) return bad();
  if (r.last < r.first) return bad();
  return r;
}

std::vector<double> apply_range(std::span<const double> values, const ValueRange& r) {
  if (r.first > values.size()) return {};
  std::size_t last = std::min(r.last, values.size());
  return std::vector<double>(values.begin() + static_cast<std::ptrdiff_t>(r.first - 1),
                             values.begin() + static_cast<std::ptrdiff_t>(last));
}

}  // namespace dis::cost
