#include "sample_input.h"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <fstream>
#include <iostream>

#include "diag.h"
#include "observations.h"

namespace dis::cost {

Sample read_column_sample(std::istream& in, const std::string& name, const ColumnSpec& spec) {
  Sample s;
  s.name = name;
  std::string text;
  int line = 0;
  auto is_delim = [&](char c) { return spec.delimiters.find(c) != std::string::npos; };
  while (std::getline(in, text)) {
    ++line;
    std::size_t i = 0, start = 0, len = 0;
    int field = 0;
    bool found = false;
    while (true) {
      while (i < text.size() && is_delim(text[i])) ++i;
      if (i >= text.size() || text[i] == '#') break;
      start = i;
      while (i < text.size() && !is_delim(text[i])) ++i;
      len = i - start;
      if (++field == spec.column) {
        found = true;
        break;
      }
    }
    if (!found) continue;
    std::string_view tok(text.data() + start, len);
    if (!tok.empty() && tok.back() == '\r') tok.remove_suffix(1);
    const char* b = tok.data();
    const char* e = b + tok.size();
    if (b != e && *b == '+') ++b;
    double v = 0;
    auto [p, ec] = std::from_chars(b, e, v);
    if (ec != std::errc() || p != e || !std::isfinite(v)) {
      throw InputError(Diagnostic{name, line, static_cast<std::int32_t>(start + 1), -1,
                                  fmt::format("field {}: '{}' is not a finite number", spec.column,
                                              quote_for_message(tok))});
    }
    s.values.push_back(v);
  }
  if (in.bad()) throw InputError(Diagnostic{name, 0, 0, -1, "read error"});
  return s;
}

Sample read_column_file(const std::string& path, const ColumnSpec& spec) {
  if (path == "-") return read_column_sample(std::cin, "<stdin>", spec);
  std::ifstream in(path);
  if (!in) throw InputError(Diagnostic{path, 0, 0, -1, "cannot open file"});
  return read_column_sample(in, path, spec);
}

Sample read_observation_sample(const std::string& path, const std::string& obs_name) {
  std::vector<Observation> all = read_observation_file(path);
  Sample s;
  std::string file = path == "-" ? "<stdin>" : path;
  s.name = file + ":" + obs_name;
  bool found = false;
  const Observation* summary = nullptr;
  for (const Observation& o : all) {
    if (o.name != obs_name) continue;
    if (o.is_summary()) {
      summary = &o;
      continue;
    }
    found = true;
    s.values.insert(s.values.end(), o.values.begin(), o.values.end());
  }
  if (!found && summary != nullptr) {
    throw InputError(Diagnostic{file, summary->line, 0, -1,
                                fmt::format("'{}' is a summary line; bstat needs the "
                                            "observations (bench --all)",
                                            obs_name)});
  }
  if (!found)
    throw InputError(
        Diagnostic{file, 0, 0, -1, fmt::format("no observation line named '{}'", obs_name)});
  return s;
}

}  // namespace dis::cost
