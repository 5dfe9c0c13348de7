// Reading numeric samples for bstat: one number per line, or one column of
// delimited text (ministat's -C/-d), or the values of an observation line.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace dis::cost {

struct Sample {
  std::string name;            // the file name, "<stdin>", or file:NAME for observations
  std::vector<double> values;  // in input order
};

struct ColumnSpec {
  int column = 1;                  // 1-based
  std::string delimiters = " \t";  // any of these separates fields
};

// ministat's reading rules: fields split on any delimiter character (runs
// count as one), a field starting with '#' ends the line, lines with fewer
// fields than `column` are skipped. A field that is not a finite number is
// an InputError naming file, line, column.
Sample read_column_sample(std::istream& in, const std::string& name, const ColumnSpec& spec);
// "-" is stdin (named "<stdin>"); an unreadable file is an InputError.
Sample read_column_file(const std::string& path, const ColumnSpec& spec);

// All values of the observation lines named `obs_name` in the file,
// concatenated (summary lines of that name are passed over); InputError
// when there is none, or only a summary line.
Sample read_observation_sample(const std::string& path, const std::string& obs_name);

}  // namespace dis::cost
