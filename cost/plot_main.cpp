// plot: draw observation lines (bench -o output) in the terminal, or as SVG
// or PNG. `grep BASE x | plot -o` removes one layer of outliers first.
#include <cairo.h>
#include <fmt/format.h>
#include <fontconfig/fontconfig.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <iostream>
#include <string>
#include <vector>

#include "diag.h"
#include "log_option.h"
#include "observations.h"
#include "plot.h"
#include "stats.h"

using namespace dis::cost;

namespace {

int terminal_columns() {
  struct winsize wsz {};
  if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &wsz) != -1 && wsz.ws_col > 20)
    return wsz.ws_col;
  return 80;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "plot: draw observation lines (NAME:STYLE:XLABEL:XUNIT:YLABEL:YUNIT v1 v2 ...) "
      "as a series, a histogram or a box comparison"};
  app.set_version_flag("--version", std::string("plot ") + DIS_VERSION);
  dis::add_log_option(app);
  std::vector<std::string> files, names;
  std::string range_text, kind_text, out_path;
  int layers = 0;
  bool zero = false;
  PlotOptions opt;
  int text_width = -1;

  app.add_option("files", files, "observation files ('-' or none: stdin)");
  app.add_option("-n,--name", names, "plot the series NAME (repeatable; default: all)")
      ->allow_extra_args(false);
  app.add_option("-r,--range", range_text, "only values FIRST-LAST (from 1, inclusive)");
  app.add_option("-p,--kind", kind_text, "1l lines, 1d dots, 1h histogram, box comparison")
      ->check(CLI::IsMember({"1l", "1d", "1h", "box"}));
  app.add_flag("-o,--outliers", layers,
               "remove one layer of outliers (> 2 std from the mean); repeat: -ooo");
  app.add_flag("-z,--zero", zero, "include zero on the value axis");
  app.add_option("--out", out_path, "write FILE.svg or FILE.png instead of the terminal plot");
  app.add_option("--width", opt.image_width, "image width (default 800)")
      ->check(CLI::Range(100, 20000));
  app.add_option("--height", opt.image_height, "image height (default 500)")
      ->check(CLI::Range(100, 20000));
  app.add_option("--text-width", text_width, "terminal plot columns (default: fit the terminal)")
      ->check(CLI::Range(8, 1000));
  app.add_option("--text-height", opt.text_height, "terminal plot rows (default 20)")
      ->check(CLI::Range(4, 1000));

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int rc = app.exit(e);
    return rc == 0 ? 0 : 2;
  }

  try {
    if (files.empty()) files.push_back("-");
    ValueRange range;
    if (!range_text.empty()) range = parse_range(range_text);
    std::vector<Observation> all;
    for (const std::string& f : files) {
      std::vector<Observation> obs = read_observation_file(f);
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
              fmt::format("'{}' is a summary line; plot needs observations (bench -o)", n)});
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
