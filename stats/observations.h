// Observation lines, the measurement tools' interchange format (DESIGN.md,
// Formats and Conventions):
//   NAME:STYLE:XLABEL:XUNIT:YLABEL:YUNIT v1 v2 ...
//   NAME:summary:Sample:n:Time:ns n mean min max std
// Lines may be of any length. Blank lines and lines starting with '#' (the
// environment header) are skipped. A malformed line raises dis::InputError
// naming the file, the line, the column and the field at fault.
#pragma once

#include <cstddef>
#include <iosfwd>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace dis::cost {

struct Observation {
  std::string name;
  std::string style;  // plot hint: 1l (lines), 1d (dots), 1h (histogram), summary
  std::string xlabel, xunit, ylabel, yunit;
  std::vector<double> values;
  std::string file;  // where it was read from, for messages
  int line = 0;      // 1-based, 0 when built in memory

  bool is_summary() const { return style == "summary"; }
};

// The five values of a summary line.
struct SummaryValues {
  double n = 0, mean = 0, min = 0, max = 0, std = 0;
};

// Parses one line (without its newline). Throws InputError on malformed input.
Observation parse_observation_line(std::string_view text, const std::string& file, int line);

// Reads every observation line of a stream; `file` names it in messages.
std::vector<Observation> read_observations(std::istream& in, const std::string& file);

// Reads a file ("-" is stdin). An unreadable file is an InputError.
std::vector<Observation> read_observation_file(const std::string& path);

// The values of a summary line; InputError unless it is one with 5 values.
SummaryValues summary_values(const Observation& obs);

// Writes the line (no newline) with values in shortest round-trip form.
std::string format_observation_line(const Observation& obs);
void write_observation_line(std::ostream& out, const Observation& obs);

// A summary line for a sample: NAME:summary:Sample:n:YLABEL:YUNIT n mean min max std.
Observation make_summary(const std::string& name, const std::string& ylabel,
                         const std::string& yunit, std::span<const double> values);

// A 1-based inclusive range of values, "A-B", "A-" (to the end) or "A".
struct ValueRange {
  std::size_t first = 1;
  std::size_t last = static_cast<std::size_t>(-1);
};
// Throws InputError (file "-r") when the text is not a range.
ValueRange parse_range(std::string_view text);
// The values inside the range (clipped to the data; empty if none).
std::vector<double> apply_range(std::span<const double> values, const ValueRange& r);

// Shortest text that reads back as the same double.
std::string format_number(double v);

// `text` for quoting in a message: at most `max` bytes, bytes that are not
// printable ASCII shown as '?'.
std::string quote_for_message(std::string_view text, std::size_t max = 40);

}  // namespace dis::cost
