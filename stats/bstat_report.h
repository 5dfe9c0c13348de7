// bstat's additions to ministat's report: Welch's t, the Mann-Whitney rank
// test, the paired t test, effect size, and the warnings (small samples, outliers, strata);
// plus the JSON form of the whole analysis.
#pragma once

#include <string>
#include <vector>

#include "ministat_text.h"
#include "sample_input.h"

namespace dis::cost {

struct BstatOptions {
  MinistatOptions ministat;
  bool welch = false;
  bool rank = false;
  bool effect = false;
  bool paired = false;  // the samples' k-th values are pairs (equal sizes: the caller checks)
};

// Text printed after ministat's report for the extras asked for (may be empty).
std::string bstat_extras(const std::vector<Sample>& samples, const BstatOptions& opt);

// Warnings for the analysis, one line each, no trailing newline: samples too
// small to prove anything without assuming normality, outliers (as plot --outliers
// would remove them), stratification.
std::vector<std::string> bstat_warnings(const std::vector<Sample>& samples,
                                        const BstatOptions& opt);

// Everything (statistics, every test, warnings) as a JSON document.
std::string bstat_json(const std::vector<Sample>& samples, const BstatOptions& opt);

// One CSV row per sample: its statistics and Student's t against the first
// sample (empty for the first).
std::string bstat_csv(const std::vector<Sample>& samples, const BstatOptions& opt);

}  // namespace dis::cost
