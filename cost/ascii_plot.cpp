// The terminal rendering of plot (render_text in plot.h).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "plot.h"

namespace dis::cost {

namespace {

constexpr char kMarks[] = {'*', '+', 'o', 'x', '#', '@', '%', '&'};

char mark_of(std::size_t i) { return kMarks[i % sizeof kMarks]; }

// Whole numbers print whole (10000, not 1e+04); others with 4 digits.
std::string num(double v) {
  if (v == std::floor(v) && std::fabs(v) < 1e12) return fmt::format("{:.0f}", v);
  return fmt::format("{:.4g}", v);
}

std::size_t total_values(const std::vector<PlotSeries>& series) {
  std::size_t n = 0;
  for (const PlotSeries& s : series) n += s.values.size();
  return n;
}

std::string title(const std::vector<PlotSeries>& series, const std::string& what) {
  std::string names;
  for (const PlotSeries& s : series) names += (names.empty() ? "" : ", ") + s.name;
  return fmt::format("{}: {} ({} values)\n", names, what, total_values(series));
}

std::string legend(const std::vector<PlotSeries>& series) {
  if (series.size() < 2) return {};
  std::string out;
  for (std::size_t i = 0; i < series.size(); ++i)
    out += fmt::format("{}{} {}", i ? "   " : "  ", mark_of(i), series[i].name);
  return out + "\n";
}

// A grid of characters, row 0 at the top.
struct Grid {
  int w, h;
  std::vector<std::string> rows;
  Grid(int width, int height)
      : w(width),
        h(height),
        rows(static_cast<std::size_t>(height), std::string(static_cast<std::size_t>(width), ' ')) {}
  char& at(int col, int row) {
    return rows[static_cast<std::size_t>(row)][static_cast<std::size_t>(col)];
  }
};

std::string render_series(const std::vector<PlotSeries>& series, const PlotOptions& opt) {
  double lo = INFINITY, hi = -INFINITY;
  std::size_t first = SIZE_MAX, last = 0;
  for (const PlotSeries& s : series) {
    for (double v : s.values) {
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
    if (!s.index.empty()) {
      first = std::min(first, s.index.front());
      last = std::max(last, s.index.back());
    }
  }
  const PlotSeries& s0 = series.front();
  std::string out = title(series, fmt::format("{} by {}", axis_label(s0.ylabel, s0.yunit),
                                              axis_label(s0.xlabel, s0.xunit)));
  out += legend(series);
  if (total_values(series) == 0) return out + "(no values)\n";
  Axis ax = nice_axis(lo, hi, std::max(3, opt.text_height / 4), opt.zero_origin);
  int w = std::max(8, opt.text_width), h = std::max(4, opt.text_height);
  Grid g(w, h);
  auto row_of = [&](double v) {
    double f = (v - ax.lo) / (ax.hi - ax.lo);
    return h - 1 - static_cast<int>(std::lround(f * (h - 1)));
  };
  auto col_of = [&](std::size_t idx) {
    if (last == first) return w / 2;
    double f = static_cast<double>(idx - first) / static_cast<double>(last - first);
    return static_cast<int>(std::lround(f * (w - 1)));
  };
  for (std::size_t si = 0; si < series.size(); ++si) {
    const PlotSeries& s = series[si];
    if (opt.kind == PlotKind::Lines) {
      // Join consecutive points: each column spans the rows the line crosses.
      for (std::size_t i = 1; i < s.values.size(); ++i) {
        int c1 = col_of(s.index[i - 1]), c2 = col_of(s.index[i]);
        int r1 = row_of(s.values[i - 1]), r2 = row_of(s.values[i]);
        for (int c = c1; c <= c2; ++c) {
          double f0 = c2 == c1 ? 0 : static_cast<double>(std::max(c - 1, c1) - c1) / (c2 - c1);
          double f1 = c2 == c1 ? 1 : static_cast<double>(c - c1) / (c2 - c1);
          int ra = static_cast<int>(std::lround(r1 + (r2 - r1) * f0));
          int rb = static_cast<int>(std::lround(r1 + (r2 - r1) * f1));
          char ch = ra == rb ? '-' : '|';
          for (int r = std::min(ra, rb); r <= std::max(ra, rb); ++r)
            if (g.at(c, r) == ' ') g.at(c, r) = ch;
        }
      }
    }
    for (std::size_t i = 0; i < s.values.size(); ++i)
      g.at(col_of(s.index[i]), row_of(s.values[i])) = mark_of(si);
  }
  // Label the rows nearest each tick.
  std::vector<std::string> labels(static_cast<std::size_t>(h));
  for (double t = ax.lo; t <= ax.hi + ax.step / 2; t += ax.step) {
    int r = row_of(t);
    if (r >= 0 && r < h)
      labels[static_cast<std::size_t>(r)] = num(std::fabs(t) < ax.step * 1e-9 ? 0 : t);
  }
  std::size_t lw = 0;
  for (const std::string& l : labels) lw = std::max(lw, l.size());
  for (int r = 0; r < h; ++r) {
    std::string row = g.rows[static_cast<std::size_t>(r)];
    while (!row.empty() && row.back() == ' ') row.pop_back();
    out += fmt::format("{:>{}} |{}\n", labels[static_cast<std::size_t>(r)], lw, row);
  }
  out += fmt::format("{:>{}} +{}\n", "", lw, std::string(static_cast<std::size_t>(w), '-'));
  std::string a = std::to_string(first), b = std::to_string(last);
  std::string xl = axis_label(s0.xlabel, s0.xunit);
  std::string axis(static_cast<std::size_t>(w), ' ');
  axis.replace(0, a.size(), a);
  if (last != first && b.size() < static_cast<std::size_t>(w))
    axis.replace(static_cast<std::size_t>(w) - b.size(), b.size(), b);
  if (xl.size() + a.size() + b.size() + 4 < static_cast<std::size_t>(w))
    axis.replace((static_cast<std::size_t>(w) - xl.size()) / 2, xl.size(), xl);
  while (!axis.empty() && axis.back() == ' ') axis.pop_back();
  out += fmt::format("{:>{}}  {}\n", "", lw, axis);
  return out;
}

std::string render_histogram(const std::vector<PlotSeries>& series, const PlotOptions& opt) {
  const PlotSeries& s0 = series.front();
  Bins bins = choose_bins(series, opt.zero_origin);
  std::string what = fmt::format("histogram of {}, bins of {}{}", axis_label(s0.ylabel, s0.yunit),
                                 num(bins.width), s0.yunit.empty() ? "" : " " + s0.yunit);
  std::string out = title(series, what);
  if (total_values(series) == 0) return out + "(no values)\n";
  std::vector<std::string> labels;
  std::size_t lw = 0;
  for (std::size_t i = 0; i < bins.count; ++i) {
    double edge = bins.lo + static_cast<double>(i) * bins.width;
    labels.push_back(num(bins.integers ? edge + 0.5 : edge));
    lw = std::max(lw, labels.back().size());
  }
  int bar_w = std::max(10, opt.text_width - 8);
  for (const PlotSeries& s : series) {
    if (series.size() > 1) out += s.name + ":\n";
    std::vector<std::size_t> counts = bin_counts(s.values, bins);
    std::size_t top = *std::max_element(counts.begin(), counts.end());
    for (std::size_t i = 0; i < bins.count; ++i) {
      // A run of three or more empty bins prints as one line.
      std::size_t run = 0;
      while (i + run < bins.count && counts[i + run] == 0) ++run;
      if (run >= 3) {
        out += fmt::format("{:>{}} | ({} empty bins up to {})\n", labels[i], lw, run,
                           labels[i + run - 1]);
        i += run - 1;
        continue;
      }
      std::size_t len =
          top == 0 ? 0
                   : static_cast<std::size_t>(std::lround(static_cast<double>(counts[i]) * bar_w /
                                                          static_cast<double>(top)));
      if (counts[i] > 0) len = std::max<std::size_t>(len, 1);
      out += fmt::format("{:>{}} |{} {}\n", labels[i], lw, std::string(len, '#'), counts[i]);
    }
  }
  return out;
}

std::string render_box(const std::vector<PlotSeries>& series, const PlotOptions& opt) {
  const PlotSeries& s0 = series.front();
  std::string out = title(series, fmt::format("{}, box: |-[ q1 M q3 ]-| from min to max, "
                                              "a '.' for each value",
                                              axis_label(s0.ylabel, s0.yunit)));
  if (total_values(series) == 0) return out + "(no values)\n";
  double lo = INFINITY, hi = -INFINITY;
  for (const PlotSeries& s : series)
    for (double v : s.values) {
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
  Axis ax = nice_axis(lo, hi, 4, opt.zero_origin);
  int w = std::max(8, opt.text_width);
  auto col = [&](double v) {
    double f = (v - ax.lo) / (ax.hi - ax.lo);
    return std::clamp(static_cast<int>(std::lround(f * (w - 1))), 0, w - 1);
  };
  std::size_t nw = 0;
  for (const PlotSeries& s : series) nw = std::max(nw, s.name.size());
  for (const PlotSeries& s : series) {
    std::string box(static_cast<std::size_t>(w), ' '), strip(static_cast<std::size_t>(w), ' ');
    if (!s.values.empty()) {
      BoxStats b = box_stats(s.values);
      auto put = [&](double v, char c) { box[static_cast<std::size_t>(col(v))] = c; };
      for (int c = col(b.min); c <= col(b.max); ++c) box[static_cast<std::size_t>(c)] = '-';
      for (int c = col(b.q1); c <= col(b.q3); ++c) box[static_cast<std::size_t>(c)] = '=';
      put(b.min, '|');
      put(b.max, '|');
      put(b.q1, '[');
      put(b.q3, ']');
      put(b.median, 'M');
      for (double v : s.values) strip[static_cast<std::size_t>(col(v))] = '.';
    }
    while (!box.empty() && box.back() == ' ') box.pop_back();
    while (!strip.empty() && strip.back() == ' ') strip.pop_back();
    out += fmt::format("{:<{}} |{}\n", s.name, nw, box);
    out += fmt::format("{:<{}} |{}\n", "", nw, strip);
  }
  out += fmt::format("{:<{}} +{}\n", "", nw, std::string(static_cast<std::size_t>(w), '-'));
  std::string axis(static_cast<std::size_t>(w) + 8, ' ');
  for (double t = ax.lo; t <= ax.hi + ax.step / 2; t += ax.step) {
    std::string l = num(std::fabs(t) < ax.step * 1e-9 ? 0 : t);
    auto c = static_cast<std::size_t>(col(t));
    if (c + l.size() <= axis.size()) axis.replace(c, l.size(), l);
  }
  while (!axis.empty() && axis.back() == ' ') axis.pop_back();
  out += fmt::format("{:<{}}  {}\n", "", nw, axis);
  return out;
}

}  // namespace

std::string render_text(const std::vector<PlotSeries>& series, const PlotOptions& opt) {
  if (series.empty()) return "(nothing to plot)\n";
  switch (opt.kind) {
    case PlotKind::Histogram:
      return render_histogram(series, opt);
    case PlotKind::Box:
      return render_box(series, opt);
    case PlotKind::Lines:
    case PlotKind::Dots:
      break;
  }
  return render_series(series, opt);
}

}  // namespace dis::cost
