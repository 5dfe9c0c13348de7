// plot: draw observation lines (bench --all output) in the terminal, or as SVG
// or PNG. `grep BASE x | plot --outliers 1` removes one layer of outliers first.
#include <cairo.h>
#include <fmt/format.h>
#include <fontconfig/fontconfig.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "diag.h"
#include "observations.h"
#include "plot.h"
#include "sample_input.h"
#include "stats.h"
#include "tool_cli.h"

using namespace dis::cost;

namespace {

// An observation file, or a plain file of one number per line (as bstat and
// ministat read): the latter is one series named after the file.
std::vector<Observation> read_plot_input(const std::string& path) {
  std::ostringstream text;
  if (path == "-") {
    text << std::cin.rdbuf();
  } else {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw dis::InputError(dis::Diagnostic{path, 0, 0, -1, "cannot open file"});
    text << in.rdbuf();
  }
  const std::string name = path == "-" ? "<stdin>" : path;
  std::istringstream lines(text.str());
  bool plain = false;
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    std::string first;
    if (!(words >> first) || first[0] == '#') continue;
    char* end = nullptr;
    std::strtod(first.c_str(), &end);
    plain = end != first.c_str() && *end == '\0';
    break;
  }
  std::istringstream in(text.str());
  if (!plain) return read_observations(in, name);
  Observation o;
  o.name = name;
  o.style = "1l";
  o.xlabel = "Observation";
  o.ylabel = "Value";
  o.file = name;
  o.line = 1;
  o.values = read_column_sample(in, name, ColumnSpec{}).values;
  return {o};
}

int terminal_columns() {
  struct winsize wsz {};
  if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &wsz) != -1 && wsz.ws_col > 20)
    return wsz.ws_col;
  return 80;
}

}  // namespace

int main(int argc, char** argv) {
  dis::cli::Tool tool("plot",
                      "plot: draw observation lines (NAME:STYLE:XLABEL:XUNIT:YLABEL:YUNIT v1 v2 "
                      "...) or plain files of one number per line as a series, a histogram or a "
                      "box comparison",
                      "plot [OPTIONS] [FILE...]");
  CLI::App& app = tool.app();
  std::vector<std::string> files, names;
  std::string range_text, kind_text, out_path;
  int layers = 0;
  bool zero = false;
  PlotOptions opt;
  int text_width = -1;

  app.add_option("files", files, "observation files ('-' or none: stdin)")->option_text("FILE...");
  app.add_option("--name", names, "plot the series NAME (repeatable; default: all)")
      ->option_text("NAME")
      ->allow_extra_args(false);
  app.add_option("-r,--range", range_text, "only values FIRST-LAST (from 1, inclusive)");
  app.add_option("-p,--kind", kind_text, "1l lines, 1d dots, 1h histogram, box comparison")
      ->check(CLI::IsMember({"1l", "1d", "1h", "box"}));
  app.add_option("--outliers", layers,
                 "remove N layers of outliers (> 2 std from the mean), one after another (the "
                 "paper's plot -o is --outliers 1)")
      ->option_text("N")
      ->check(CLI::Range(1, 100));
  app.add_flag("-z,--zero", zero, "include zero on the value axis");
  app.add_flag("--log-scale", opt.log_scale,
               "logarithmic value axis (images), so microsecond boxes beside millisecond "
               "outliers both show; every value must be above 0");
  tool.add_out(out_path, "write FILE.svg or FILE.png instead of the terminal plot");
  app.add_option("--width", opt.image_width, "image width (default 800)")
      ->check(CLI::Range(100, 20000));
  app.add_option("--height", opt.image_height, "image height (default 500)")
      ->check(CLI::Range(100, 20000));
  app.add_option("--text-width", text_width, "terminal plot columns (default: fit the terminal)")
      ->check(CLI::Range(8, 1000));
  app.add_option("--text-height", opt.text_height, "terminal plot rows (default 20)")
      ->check(CLI::Range(4, 1000));
  if (std::optional<int> rc = tool.parse(argc, argv)) return *rc;

  try {
    if (files.empty()) files.push_back("-");
    ValueRange range;
    if (!range_text.empty()) range = parse_range(range_text);
    std::vector<Observation> all;
    for (const std::string& f : files) {
      std::vector<Observation> obs = read_plot_input(f);
      all.insert(all.end(), obs.begin(), obs.end());
    }
    std::vector<PlotSeries> series;
    if (names.empty()) {
      for (const Observation& o : all)
        if (!o.is_summary()) series.push_back(make_series(o, range));
      if (series.empty()) {
        std::cerr << "plot: no observation lines in the input\n";
        return 2;
      }
    } else {
      for (const std::string& n : names) {
        bool found = false;
        const Observation* summary = nullptr;
        for (const Observation& o : all) {
          if (o.name != n) continue;
          if (o.is_summary()) {
            summary = &o;
            continue;
          }
          found = true;
          series.push_back(make_series(o, range));
        }
        if (!found && summary != nullptr) {
          throw dis::InputError(dis::Diagnostic{
              summary->file, summary->line, 0, -1,
              fmt::format("'{}' is a summary line; plot needs observations (bench --all)", n)});
        }
        if (!found) {
          std::cerr << fmt::format("plot: no observation line named '{}'\n", n);
          return 2;
        }
      }
    }

    if (layers > 0) {
      for (PlotSeries& s : series) {
        OutlierLayers ol = remove_outlier_layers(s.values, layers);
        std::string report;
        std::size_t left = s.values.size();
        for (std::size_t i = 0; i < ol.removed.size(); ++i) {
          report +=
              fmt::format("{}layer {} removed {} of {}", i ? ", " : "", i + 1, ol.removed[i], left);
          left -= ol.removed[i];
        }
        std::cerr << fmt::format("plot: {}: outliers (> 2 std from the mean): {}\n", s.name,
                                 report);
        std::vector<std::size_t> index;
        for (std::size_t k : ol.kept_index) index.push_back(s.index[k]);
        s.values = std::move(ol.kept);
        s.index = std::move(index);
      }
    }

    opt.kind = choose_kind(kind_text, series);
    if (opt.log_scale) {
      if (out_path.empty()) return tool.usage_error("--log-scale draws images only (-o FILE.svg)");
      for (const PlotSeries& s : series)
        for (double v : s.values)
          if (!(v > 0)) {
            std::cerr << fmt::format("plot: {}: --log-scale needs values above 0, not {}\n", s.name,
                                     v);
            return 2;
          }
    }
    opt.zero_origin = zero;
    if (!out_path.empty()) {
      render_image(series, opt, out_path);
      // Let leak checkers see a clean exit: cairo keeps font caches for the process.
      cairo_debug_reset_static_data();
      FcFini();
    } else {
      opt.text_width = text_width > 0 ? text_width : terminal_columns() - 12;
      std::cout << render_text(series, opt) << std::flush;
    }
    return 0;
  } catch (const dis::InputError& e) {
    std::cerr << e.what() << '\n';
    return 2;
  }
}
