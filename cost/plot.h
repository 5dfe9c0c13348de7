// plot: draws observation lines as the paper's plot does. Kinds: a series
// in observation order (joined by lines or as dots, per the line's STYLE),
// a histogram, and a box/strip comparison of several series. Renders as
// text for the terminal (render_text) or as SVG/PNG through cairo
// (render_image).
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "observations.h"

namespace dis::cost {

enum class PlotKind { Lines, Dots, Histogram, Box };

// One series to draw: its values and, for each, its 1-based observation
// number (kept through -r and -o, so gaps show where values were removed).
struct PlotSeries {
  std::string name;
  std::string style;  // the line's plot hint
  std::string xlabel, xunit, ylabel, yunit;
  std::vector<double> values;
  std::vector<std::size_t> index;
};

struct PlotOptions {
  PlotKind kind = PlotKind::Lines;
  bool zero_origin = false;  // -z: the value axis includes 0
  int text_width = 72;       // terminal: columns of the plotting area
  int text_height = 20;      // terminal: rows of the plotting area (series)
  int image_width = 800;     // pixels (PNG) or points (SVG)
  int image_height = 500;
  bool log_scale = false;  // --log-scale: a logarithmic value axis (images)
};

// From an observation line (not a summary line), restricted to a range.
PlotSeries make_series(const Observation& obs, const ValueRange& range);

// The kind for a -p value ("1l", "1d", "1h", "box"). Empty means: from the
// STYLE hints (histogram when every series says 1h; otherwise box for
// several series, dots for a 1d series, lines else). InputError for an
// unknown kind.
PlotKind choose_kind(const std::string& p, const std::vector<PlotSeries>& series);

// Histogram bins shared by all series: integer data over a small range gets
// one bin per integer; otherwise the Freedman-Diaconis width rounded to 1, 2
// or 5 times a power of ten (Sturges' count when the quartiles coincide).
struct Bins {
  double lo = 0;     // lower edge of the first bin
  double width = 1;  // every bin's width
  std::size_t count = 1;
  bool integers = false;  // one bin per integer value
};
Bins choose_bins(const std::vector<PlotSeries>& series, bool zero_origin);
std::vector<std::size_t> bin_counts(std::span<const double> values, const Bins& bins);

// A value axis from lo to hi with "nice" ticks (1, 2, 5 times a power of ten).
struct Axis {
  double lo = 0, hi = 1, step = 1;
};
Axis nice_axis(double lo, double hi, int target_ticks, bool zero_origin);

// Quartiles by linear interpolation (the usual type-7 definition).
struct BoxStats {
  double min = 0, q1 = 0, median = 0, q3 = 0, max = 0;
  std::size_t n = 0;
};
BoxStats box_stats(std::span<const double> values);

// "Time (us)" style label from a label and a unit.
std::string axis_label(const std::string& label, const std::string& unit);

std::string render_text(const std::vector<PlotSeries>& series, const PlotOptions& opt);

// Writes an SVG or PNG (chosen by the path's extension, .svg or .png),
// with a legend when there is more than one series. An SVG's words are
// <text> elements (searchable, selectable), not glyph outlines.
// InputError (file = path) for another extension or a write failure.
void render_image(const std::vector<PlotSeries>& series, const PlotOptions& opt,
                  const std::string& path);

}  // namespace dis::cost
