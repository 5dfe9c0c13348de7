// bstat: is there a difference between samples, and at what confidence?
// Prints what FreeBSD's ministat prints, plus optional Welch, rank test,
// paired t and effect size; warnings (small samples, outliers, strata) go to stderr.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "bstat_report.h"
#include "diag.h"
#include "ministat_text.h"
#include "sample_input.h"
#include "tool_cli.h"

using namespace dis::cost;

int main(int argc, char** argv) {
  dis::cli::Tool tool("bstat",
                      "bstat: compare samples the way FreeBSD's ministat does (Student's t), "
                      "with Welch's t, a rank test, effect size, outlier and strata warnings. "
                      "The short options are ministat's, with ministat's meanings; the extras "
                      "are long options.",
                      "bstat [OPTIONS] [FILE...]");
  CLI::App& app = tool.app();
  std::vector<std::string> files;
  ColumnSpec spec;
  std::vector<std::string> names;
  double confidence = 95;
  int width = -1;
  bool no_plot = false, separate = false, stats_only = false, exact = false;
  bool welch = false, rank = false, effect = false, paired = false, quiet = false;
  std::string format = "text", out_path;

  app.add_option("files", files, "samples: one number per line ('-' or none: stdin)")
      ->option_text("FILE...");
  // ministat's options.
  app.add_flag("-A", no_plot, "statistics and comparisons only, no plot (ministat -A)");
  app.add_flag("-n", stats_only, "summary statistics only: no plot, no comparison (ministat -n)");
  app.add_flag("-s", separate, "one avg/median/stddev bar per sample (ministat -s)");
  app.add_option("-C,--column", spec.column, "column to read (from 1; ministat -C)")
      ->option_text("COLUMN")
      ->check(CLI::Range(1, 1 << 20));
  app.add_option("-c,--confidence", confidence, "confidence: 80 90 95 98 99 99.5 (ministat -c)")
      ->check([](const std::string& s) {
        try {
          return confidence_index(std::stod(s)) < 0 ? "supported: 80 90 95 98 99 99.5" : "";
        } catch (...) {
          return "not a number";
        }
      });
  app.add_option("-d,--delimiter", spec.delimiters,
                 "field delimiter characters (\" \\t\"; ministat -d)")
      ->check([](const std::string& s) { return s.empty() ? "empty delimiter" : ""; });
  app.add_option("-w,--width", width,
                 "plot width (ministat -w; default the terminal's, or 74 when not a terminal)")
      ->check(CLI::Range(2, 10000));
  // The extras.
  app.add_option("--name", names, "read the observation line NAME from each file (repeatable)")
      ->option_text("NAME")
      ->allow_extra_args(false);
  app.add_flag("--stats-only", stats_only, "the same as -n");
  app.add_flag("--exact", exact, "exact t quantiles (Boost.Math) instead of ministat's table");
  app.add_flag("--welch", welch, "also Welch's t (variances need not be equal)");
  app.add_flag("--rank", rank, "also the Mann-Whitney U rank test");
  app.add_flag("--paired", paired,
               "also the paired t test: each sample's k-th value was measured with the "
               "first sample's k-th (alternating runs); equal sizes needed");
  app.add_flag("--effect", effect, "also the effect size (Cohen's d, Hedges' g)");
  app.add_flag("--quiet", quiet, "no warnings");
  app.add_option("--format", format, "text, json or csv")
      ->check(CLI::IsMember({"text", "json", "csv"}));
  tool.add_out(out_path, "write the report to FILE instead of stdout");
  if (std::optional<int> rc = tool.parse(argc, argv)) return *rc;

  try {
    if (files.empty()) files.push_back("-");
    std::vector<Sample> samples;
    for (const std::string& f : files) {
      if (names.empty()) {
        samples.push_back(read_column_file(f, spec));
      } else {
        for (const std::string& n : names) samples.push_back(read_observation_sample(f, n));
      }
    }
    if (samples.size() > static_cast<std::size_t>(kMaxSamples)) {
      std::cerr << fmt::format("bstat: too many samples: {} (at most {})\n", samples.size(),
                               kMaxSamples);
      return 2;
    }
    for (const Sample& s : samples) {
      if (s.values.size() < 3) {
        std::cerr << fmt::format("Dataset {} must contain at least 3 data points\n", s.name);
        return 2;
      }
    }

    if (paired)
      for (const Sample& s : samples)
        if (s.values.size() != samples[0].values.size()) {
          std::cerr << fmt::format(
              "bstat: --paired: {} has {} values and {} has {}: pairs need samples of one "
              "size\n",
              samples[0].name, samples[0].values.size(), s.name, s.values.size());
          return 2;
        }

    BstatOptions opt;
    opt.ministat.width = width > 0 ? width : ministat_default_width();
    opt.ministat.confidence_index = confidence_index(confidence);
    opt.ministat.exact_t = exact;
    opt.ministat.plot = !no_plot;
    opt.ministat.separate_bars = separate;
    opt.ministat.stats_only = stats_only;
    opt.welch = welch;
    opt.rank = rank;
    opt.effect = effect;
    opt.paired = paired;

    std::string report;
    if (format == "json") {
      report = bstat_json(samples, opt);
    } else if (format == "csv") {
      report = bstat_csv(samples, opt);
    } else {
      report = ministat_report(samples, opt.ministat);
      if (!stats_only) report += bstat_extras(samples, opt);
    }
    if (out_path.empty()) {
      std::cout << report << std::flush;
    } else {
      std::ofstream out(out_path);
      if (!(out << report)) {
        std::cerr << fmt::format("bstat: {}: cannot write\n", out_path);
        return 2;
      }
    }
    if (format == "text" && !quiet)
      for (const std::string& w : bstat_warnings(samples, opt))
        std::cerr << "bstat: warning: " << w << '\n';
    return 0;
  } catch (const dis::InputError& e) {
    std::cerr << e.what() << '\n';
    return 2;
  }
}
