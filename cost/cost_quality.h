// A timed report's error bars (issue 39): what every format states of its
// own figures, so the question the paper asks of its `cost` (are the
// numbers accurate, reliable, realistic?) is answered on every run, not
// only under --accuracy.
//
//  - the timer's resolution (TimerResolution: the step its reads advance
//    by, and how often they moved by an artefact instead);
//  - the base per instruction over this run and its spread;
//  - an estimate of how far the attributed total may sit from the truth:
//    the base's uncertainty per executed instruction (two standard errors
//    of the stream calibration, plus how far the calibration streams
//    disagree with one base per class: a program's mix may sit as far off),
//    the sampling error of --sample, and host preemption left inside
//    instruction intervals; `cost --accuracy` measures what this estimates;
//  - one-line warnings: most instructions shorter than one timer step, the
//    host taking more than kHostShare of the run, attributed totals above
//    the run's wall time.
// Only a timed run that measured its timer's resolution has error bars (a
// report built by hand, a count run: none), so the renderers print them
// only when error_bars() says so.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cost_data.h"

namespace dis::cost {

// The host taking more than this share of the run's wall time is warned of.
inline constexpr double kHostShare = 0.05;
// More than this share of the executions below one timer step is warned of.
inline constexpr double kBelowResolution = 0.5;

struct Quality {
  double base_ns = 0;      // per executed instruction, this run's mean
  double base_min_ns = 0;  // the smallest and largest per pc (stream: by class)
  double base_max_ns = 0;
  double base_spread_ns = 0;  // stream: two standard errors; else the empties' deviation
  // Share of the timed executions whose own mean is below one timer step.
  double below_resolution = 0;
  // The estimate, as shares of the program's own time (the attributed
  // total less the host's buckets, preempted and interrupts): its parts and
  // their sum (the random parts in quadrature, the host's added: it only
  // adds).
  bool estimated = false;
  double accuracy = 0, calibration = 0, model = 0, sampling = 0, host = 0;
  double attributed_ns = 0, own_ns = 0, wall_ns = 0, host_share = 0;
  // --repeat N: the lines with time, those not reproducible (RunSpread),
  // and the hottest line's coefficient of variation from run to run.
  std::size_t repeat_lines = 0, unreproducible = 0;
  double hottest_cv = 0;
  std::vector<std::string> warnings;
};

// Whether d carries error bars (a timed run that measured its timer).
bool error_bars(const CostData& d);
Quality quality_of(const CostData& d, double confidence_percent = 95);
// The header's lines, each ending in '\n' and starting with `prefix` ("" in
// text, "# " in CSV and callgrind); "" when d has no error bars. Under
// --repeat they say which lines are not reproducible at `confidence`.
std::string quality_text(const CostData& d, const std::string& prefix = "",
                         double confidence_percent = 95);
// The "quality" object of the JSON report (cost_schema.json); null when d
// has no error bars.
nlohmann::json quality_json(const CostData& d, double confidence_percent = 95);

// Run-to-run reliability of a line under --repeat N.
struct RunSpread {
  std::size_t runs = 0;
  double mean = 0, sd = 0, cv = 0;  // of the per-run ticks
  // False when the runs prove, at the chosen confidence, that the line's
  // coefficient of variation exceeds kReproducibleCv (a chi-square test of
  // the variance against (kReproducibleCv x mean)^2).
  bool reproducible = true;
};
inline constexpr double kReproducibleCv = 0.05;
// From the per-run ticks (fewer than two runs, or no time: reproducible, cv 0).
RunSpread run_spread(const std::vector<double>& run_ticks, double confidence_percent);

}  // namespace dis::cost
