#include "ministat_text.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace dis::cost {

namespace {

constexpr char kSymbols[] = {' ', 'x', '+', '*', '%', '#', '@', 'O'};

std::string cformat(const char* format, auto... args) {
  char buf[256];
  int n = std::snprintf(buf, sizeof buf, format, args...);
  return std::string(buf, static_cast<std::size_t>(std::max(0, n)));
}

// The plot's scale, grown over every sample's min, max and mean +- stddev.
struct Scale {
  double min = 999e99, max = -999e99, span = 0, dx = 0, x0 = 0;
  int width;
  explicit Scale(int w) : width(w) {}
  void include(double a) {
    if (a < min) min = a;
    if (a > max) max = a;
    span = max - min;
    dx = span / (width - 1.0);
    x0 = min - .5 * dx;
  }
  int column(double v) const { return static_cast<int>((v - x0) / dx); }
};

}  // namespace

char sample_symbol(std::size_t i) { return i + 1 < sizeof kSymbols ? kSymbols[i + 1] : '?'; }

int ministat_default_width() {
  int width = 74;
  if (isatty(STDOUT_FILENO)) {
    const char* cols = std::getenv("COLUMNS");
    struct winsize wsz {};
    if (cols != nullptr && *cols != '\0')
      width = std::atoi(cols);
    else if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &wsz) != -1 && wsz.ws_col > 0)
      width = wsz.ws_col - 2;
  }
  return width;
}

std::string ministat_plot(const std::vector<Sample>& samples, const std::vector<SampleStats>& stats,
                          int width, bool separate_bars) {
  Scale sc(width);
  for (const SampleStats& s : stats) {
    sc.include(s.min);
    sc.include(s.max);
    sc.include(s.mean - s.stddev);
    sc.include(s.mean + s.stddev);
  }
  if (sc.span == 0) return "[no plot, span is zero width]\n";

  auto w = static_cast<std::size_t>(width);
  std::vector<unsigned char> grid;  // rows of `width` cells, row 0 unused
  int height = 0;
  std::vector<std::string> bars(samples.size());

  for (std::size_t d = 0; d < samples.size(); ++d) {
    const auto val = static_cast<unsigned char>(d + 1);
    std::vector<double> sorted = samples[d].values;
    std::sort(sorted.begin(), sorted.end());
    // Tallest stack of equal columns, plus one.
    int m = 1, j = 0, prev = -1;
    for (double v : sorted) {
      int x = sc.column(v);
      if (x == prev) {
        m = std::max(m, ++j);
      } else {
        j = 1;
        prev = x;
      }
    }
    m += 1;
    if (m > height) {
      grid.resize(static_cast<std::size_t>(m) * w);
      std::fill(grid.begin() + static_cast<std::ptrdiff_t>(height) * width, grid.end(), 0);
    }
    height = m;  // ministat's quirk: the last sample decides the height
    prev = -1;
    j = 0;
    for (double v : sorted) {
      int x = sc.column(v);
      if (x == prev) {
        ++j;
      } else {
        j = 1;
        prev = x;
      }
      grid[static_cast<std::size_t>(j) * w + static_cast<std::size_t>(x)] |= val;
    }
    std::string& bar = bars[separate_bars ? d : 0];
    if (bar.empty()) bar.assign(w, '\0');
    const SampleStats& s = stats[d];
    if (!std::isnan(s.stddev)) {
      int x = sc.column(s.mean - s.stddev);
      int hi = sc.column(s.mean + s.stddev);
      bar[static_cast<std::size_t>(hi)] = '|';
      bar[static_cast<std::size_t>(x)] = '|';
      for (int i = x + 1; i < hi; ++i)
        if (bar[static_cast<std::size_t>(i)] == '\0') bar[static_cast<std::size_t>(i)] = '_';
    }
    bar[static_cast<std::size_t>(sc.column(s.median))] = 'M';
    bar[static_cast<std::size_t>(sc.column(s.mean))] = 'A';
  }

  std::string rule = "+" + std::string(w, '-') + "+\n";
  std::string out = rule;
  for (int i = 1; i < height; ++i) {
    out += '|';
    for (std::size_t c = 0; c < w; ++c)
      out += kSymbols[grid[static_cast<std::size_t>(height - i) * w + c] & 7];
    out += "|\n";
  }
  for (const std::string& bar : bars) {
    if (bar.empty()) continue;
    out += '|';
    for (char c : bar) out += c == '\0' ? ' ' : c;
    out += "|\n";
  }
  out += rule;
  return out;
}

std::string ministat_report(const std::vector<Sample>& samples, const MinistatOptions& opt) {
  std::vector<SampleStats> stats;
  for (const Sample& s : samples) stats.push_back(describe(s.values));
  std::string out;
  for (std::size_t i = 0; i < samples.size(); ++i)
    out += cformat("%c %s\n", sample_symbol(i), samples[i].name.c_str());
  if (!opt.stats_only && opt.plot)
    out += ministat_plot(samples, stats, opt.width, opt.separate_bars);
  out += "    N           Min           Max        Median           Avg        Stddev\n";
  double pct = kConfidenceLevels[static_cast<std::size_t>(opt.confidence_index)];
  for (std::size_t i = 0; i < samples.size(); ++i) {
    const SampleStats& s = stats[i];
    out += cformat("%c %3d %13.8g %13.8g %13.8g %13.8g %13.8g\n", sample_symbol(i),
                   static_cast<int>(s.n), s.min, s.max, s.median, s.mean, s.stddev);
    if (i == 0 || opt.stats_only) continue;
    StudentResult r = student_t(s, stats[0], pct, opt.exact_t);
    if (r.significant) {
      out += cformat("Difference at %.1f%% confidence\n", pct);
      out += cformat("\t%g +/- %g\n", r.diff, r.halfwidth);
      out += cformat("\t%g%% +/- %g%%\n", r.pct, r.pct_halfwidth);
      out += cformat("\t(Student's t, pooled s = %g)\n", r.pooled_s);
    } else {
      out += cformat("No difference proven at %.1f%% confidence\n", pct);
    }
  }
  return out;
}

}  // namespace dis::cost
