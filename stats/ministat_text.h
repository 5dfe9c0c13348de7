// The text FreeBSD's ministat prints, reproduced character for character:
// the legend, the ASCII distribution plot, the N/Min/Max/Median/Avg/Stddev
// table and, for each sample after the first, the Student's t comparison
// against the first. Quirks are kept on purpose so outputs compare equal
// (the plot's height is that of the last sample drawn; all samples share one
// bar line unless `separate_bars`).
#pragma once

#include <string>
#include <vector>

#include "sample_input.h"
#include "stats.h"

namespace dis::cost {

inline constexpr int kMaxSamples = 7;  // ministat's symbols: x + * % # @ O

struct MinistatOptions {
  int width = 74;
  int confidence_index = 2;    // 95%
  bool exact_t = false;        // Boost quantiles instead of ministat's table
  bool plot = true;            // -A turns it off
  bool separate_bars = false;  // -s
  bool stats_only = false;     // ministat -n: no plot, no tests
};

// ministat's default width: 74, or on a terminal $COLUMNS, else its width - 2.
int ministat_default_width();

// The ASCII distribution plot (or "[no plot, span is zero width]").
std::string ministat_plot(const std::vector<Sample>& samples, const std::vector<SampleStats>& stats,
                          int width, bool separate_bars);

// The whole report. Samples need at least 3 values each (checked by caller).
std::string ministat_report(const std::vector<Sample>& samples, const MinistatOptions& opt);

// The symbol ministat gives sample i (0-based): x + * % # @ O.
char sample_symbol(std::size_t i);

}  // namespace dis::cost
