// SVG and PNG rendering of plot through cairo (render_image in plot.h).
// Each data mark (a dot, a histogram bar, a box) is filled on its own in
// its series' colour, so a drawing can be checked mark by mark; several
// series get a legend. An SVG's words are <text> elements added after cairo
// has written the file (its SVG surface draws glyph outlines).
#include <cairo-svg.h>
#include <cairo.h>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "diag.h"
#include "plot.h"

namespace dis::cost {

namespace {

struct Rgb {
  double r, g, b;
};
// Colours whose percentages are exact, so an SVG names them plainly.
constexpr Rgb kPalette[] = {{0.2, 0.4, 0.6}, {0.8, 0.4, 0.0}, {0.2, 0.6, 0.2},
                            {0.6, 0.2, 0.6}, {0.6, 0.6, 0.0}, {0.0, 0.6, 0.6}};

Rgb colour_of(std::size_t i) { return kPalette[i % std::size(kPalette)]; }

// Whole numbers print whole (10000, not 1e+04); others with 4 digits.
std::string num(double v) {
  if (v == std::floor(v) && std::fabs(v) < 1e12) return fmt::format("{:.0f}", v);
  return fmt::format("{:.4g}", v);
}

struct Frame {
  double left, right, top, bottom;  // the plotting area in device units
  Axis x, y;
  bool log_y = false;  // y holds log10 of the values
  double px(double v) const { return left + (v - x.lo) / (x.hi - x.lo) * (right - left); }
  double py(double v) const {
    if (log_y) v = std::log10(v);
    return bottom - (v - y.lo) / (y.hi - y.lo) * (bottom - top);
  }
  // The value axis over [lo, hi]: nice ticks, or powers of ten on a log axis.
  void value_axis(double lo, double hi, bool zero_origin) {
    if (!log_y) {
      y = nice_axis(lo, hi, 6, zero_origin);
      return;
    }
    y.lo = std::floor(std::log10(lo));
    y.hi = std::max(y.lo + 1, std::ceil(std::log10(hi)));
    y.step = 1;
  }
  // A y tick's label (the tick is a value, or its log10).
  std::string y_label(double t) const {
    if (log_y) return num(std::pow(10.0, t));
    return num(std::fabs(t) < y.step * 1e-9 ? 0 : t);
  }
};

// A word of an SVG, written as a <text> element after cairo is done: cairo's
// SVG surface draws text as glyph outlines.
struct SvgText {
  std::string text;
  double x, y, ax, ay, angle, size;
  Rgb colour;
};

class Painter {
 public:
  // With `svg_texts`, text is collected there instead of drawn.
  explicit Painter(cairo_t* cr, std::vector<SvgText>* svg_texts = nullptr)
      : cr_(cr), svg_texts_(svg_texts) {}

  void colour(Rgb c) {
    colour_ = c;
    cairo_set_source_rgb(cr_, c.r, c.g, c.b);
  }
  void black() { colour({0, 0, 0}); }

  // Text anchored by (ax, ay) in [0, 1] of its extents: 0.5/0.5 centres it.
  void text(const std::string& s, double x, double y, double ax, double ay, double angle = 0) {
    if (svg_texts_ != nullptr) {
      cairo_matrix_t m;
      cairo_get_font_matrix(cr_, &m);
      svg_texts_->push_back({s, x, y, ax, ay, angle, m.xx, colour_});
      return;
    }
    cairo_text_extents_t e;
    cairo_text_extents(cr_, s.c_str(), &e);
    cairo_save(cr_);
    cairo_translate(cr_, x, y);
    cairo_rotate(cr_, angle);
    cairo_move_to(cr_, -e.x_bearing - e.width * ax, -e.y_bearing - e.height * ay);
    cairo_show_text(cr_, s.c_str());
    cairo_restore(cr_);
  }

  void line(double x1, double y1, double x2, double y2, double width = 1) {
    cairo_set_line_width(cr_, width);
    cairo_move_to(cr_, x1, y1);
    cairo_line_to(cr_, x2, y2);
    cairo_stroke(cr_);
  }

  void dot(double x, double y, double r) {
    cairo_new_path(cr_);
    cairo_arc(cr_, x, y, r, 0, 2 * M_PI);
    cairo_fill(cr_);
  }

  void rect(double x, double y, double w, double h) {
    cairo_rectangle(cr_, x, y, w, h);
    cairo_fill(cr_);
  }

  cairo_t* cr() { return cr_; }

 private:
  cairo_t* cr_;
  std::vector<SvgText>* svg_texts_;
  Rgb colour_{0, 0, 0};
};

void draw_axes(Painter& p, const Frame& f, const std::string& xlabel, const std::string& ylabel,
               const std::string& title, bool x_ticks) {
  cairo_t* cr = p.cr();
  p.black();
  cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size(cr, 12);
  p.line(f.left, f.bottom, f.right, f.bottom);
  p.line(f.left, f.bottom, f.left, f.top);
  for (double t = f.y.lo; t <= f.y.hi + f.y.step / 2; t += f.y.step) {
    double y = f.py(t);
    p.line(f.left - 4, y, f.left, y);
    p.text(f.y_label(t), f.left - 6, y, 1, 0.5);
  }
  if (x_ticks) {
    for (double t = f.x.lo; t <= f.x.hi + f.x.step / 2; t += f.x.step) {
      double x = f.px(t);
      p.line(x, f.bottom, x, f.bottom + 4);
      p.text(num(std::fabs(t) < f.x.step * 1e-9 ? 0 : t), x, f.bottom + 7, 0.5, 0);
    }
  }
  p.text(xlabel, (f.left + f.right) / 2, f.bottom + 28, 0.5, 0);
  p.text(ylabel, 16, (f.top + f.bottom) / 2, 0.5, 0.5, -M_PI / 2);
  cairo_set_font_size(cr, 14);
  p.text(title, (f.left + f.right) / 2, 12, 0.5, 0);
}

std::string names_of(const std::vector<PlotSeries>& series) {
  std::string names;
  for (const PlotSeries& s : series) names += (names.empty() ? "" : ", ") + s.name;
  return names;
}

void draw_series(Painter& p, Frame f, const std::vector<PlotSeries>& series,
                 const PlotOptions& opt) {
  double lo = INFINITY, hi = -INFINITY, first = INFINITY, last = -INFINITY;
  for (const PlotSeries& s : series) {
    for (double v : s.values) {
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
    if (!s.index.empty()) {
      first = std::min(first, static_cast<double>(s.index.front()));
      last = std::max(last, static_cast<double>(s.index.back()));
    }
  }
  if (!(lo <= hi)) lo = hi = f.log_y ? 1 : 0;
  if (!(first <= last)) first = last = 0;
  f.value_axis(lo, hi, opt.zero_origin);
  f.x = nice_axis(first, last, 8, false);
  const PlotSeries& s0 = series.front();
  draw_axes(p, f, axis_label(s0.xlabel, s0.xunit), axis_label(s0.ylabel, s0.yunit),
            names_of(series), true);
  for (std::size_t si = 0; si < series.size(); ++si) {
    const PlotSeries& s = series[si];
    p.colour(colour_of(si));
    if (opt.kind == PlotKind::Lines && s.values.size() > 1) {
      cairo_set_line_width(p.cr(), 1);
      for (std::size_t i = 0; i < s.values.size(); ++i) {
        double x = f.px(static_cast<double>(s.index[i])), y = f.py(s.values[i]);
        if (i == 0)
          cairo_move_to(p.cr(), x, y);
        else
          cairo_line_to(p.cr(), x, y);
      }
      cairo_stroke(p.cr());
    } else {
      for (std::size_t i = 0; i < s.values.size(); ++i)
        p.dot(f.px(static_cast<double>(s.index[i])), f.py(s.values[i]), 2);
    }
  }
}

void draw_histogram(Painter& p, Frame f, const std::vector<PlotSeries>& series,
                    const PlotOptions& opt) {
  Bins bins = choose_bins(series, opt.zero_origin);
  std::vector<std::vector<std::size_t>> counts;
  std::size_t top = 1;
  for (const PlotSeries& s : series) {
    counts.push_back(bin_counts(s.values, bins));
    top = std::max(top, *std::max_element(counts.back().begin(), counts.back().end()));
  }
  double xlo = bins.lo, xhi = bins.lo + bins.width * static_cast<double>(bins.count);
  f.x = nice_axis(xlo, xhi, 8, opt.zero_origin);
  f.x.lo = std::min(f.x.lo, xlo);
  f.x.hi = std::max(f.x.hi, xhi);
  f.y = nice_axis(0, static_cast<double>(top), 6, true);
  const PlotSeries& s0 = series.front();
  draw_axes(p, f, axis_label(s0.ylabel, s0.yunit), "Count", names_of(series), true);
  double k = static_cast<double>(series.size());
  for (std::size_t si = 0; si < series.size(); ++si) {
    p.colour(colour_of(si));
    for (std::size_t b = 0; b < bins.count; ++b) {
      if (counts[si][b] == 0) continue;
      double x0 = bins.lo + bins.width * (static_cast<double>(b) + static_cast<double>(si) / k);
      double x1 = x0 + bins.width / k;
      double y = f.py(static_cast<double>(counts[si][b]));
      double left = f.px(x0), right = std::max(f.px(x1) - 1, left + 1);
      p.rect(left, y, right - left, f.bottom - y);
    }
  }
}

void draw_box(Painter& p, Frame f, const std::vector<PlotSeries>& series, const PlotOptions& opt) {
  double lo = INFINITY, hi = -INFINITY;
  for (const PlotSeries& s : series)
    for (double v : s.values) {
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
  if (!(lo <= hi)) lo = hi = f.log_y ? 1 : 0;
  f.value_axis(lo, hi, opt.zero_origin);
  f.x = Axis{0, static_cast<double>(series.size()), 1};
  const PlotSeries& s0 = series.front();
  draw_axes(p, f, "", axis_label(s0.ylabel, s0.yunit), names_of(series), false);
  double slot = (f.right - f.left) / static_cast<double>(series.size());
  for (std::size_t si = 0; si < series.size(); ++si) {
    const PlotSeries& s = series[si];
    double cx = f.left + slot * (static_cast<double>(si) + 0.5);
    p.black();
    p.text(s.name, cx, f.bottom + 7, 0.5, 0);
    if (s.values.empty()) continue;
    BoxStats b = box_stats(s.values);
    double half = std::min(40.0, slot * 0.2);
    p.colour(colour_of(si));
    p.rect(cx - half, f.py(b.q3), 2 * half, std::max(1.0, f.py(b.q1) - f.py(b.q3)));
    p.black();
    p.line(cx - half, f.py(b.median), cx + half, f.py(b.median), 2);
    p.line(cx, f.py(b.q3), cx, f.py(b.max));
    p.line(cx, f.py(b.q1), cx, f.py(b.min));
    p.line(cx - half / 2, f.py(b.max), cx + half / 2, f.py(b.max));
    p.line(cx - half / 2, f.py(b.min), cx + half / 2, f.py(b.min));
    // The strip: every value beside the box, grey and small.
    cairo_set_source_rgba(p.cr(), 0.3, 0.3, 0.3, 0.6);
    for (double v : s.values) p.dot(cx + half + 8, f.py(v), 1.5);
  }
}

// Which colour is which series, in the plot's top right corner (a box
// comparison names its boxes below them, in black: they need it too when
// the names are long or many).
void draw_legend(Painter& p, const Frame& f, const std::vector<PlotSeries>& series) {
  cairo_set_font_size(p.cr(), 11);
  double widest = 0;
  for (const PlotSeries& s : series) {
    cairo_text_extents_t e;
    cairo_text_extents(p.cr(), s.name.c_str(), &e);
    widest = std::max(widest, e.x_advance);
  }
  const double row = 15, x = f.right - widest - 26, y = f.top + 6;
  cairo_set_source_rgba(p.cr(), 1, 1, 1, 0.85);
  cairo_rectangle(p.cr(), x - 6, y - 4, widest + 30, row * static_cast<double>(series.size()) + 6);
  cairo_fill(p.cr());
  for (std::size_t si = 0; si < series.size(); ++si) {
    const double ry = y + row * static_cast<double>(si);
    p.colour(colour_of(si));
    p.rect(x, ry + 2, 10, 10);
    p.black();
    p.text(series[si].name, x + 16, ry + 7, 0, 0.5);
  }
}

void draw(cairo_t* cr, const std::vector<PlotSeries>& series, const PlotOptions& opt,
          std::vector<SvgText>* svg_texts) {
  cairo_set_source_rgb(cr, 1, 1, 1);
  cairo_paint(cr);
  Painter p(cr, svg_texts);
  Frame f{};
  f.log_y = opt.log_scale && opt.kind != PlotKind::Histogram;
  f.left = 80;
  f.right = std::max(f.left + 10, opt.image_width - 20.0);
  f.top = 36;
  f.bottom = std::max(f.top + 10, opt.image_height - 50.0);
  if (series.empty()) return;
  switch (opt.kind) {
    case PlotKind::Histogram:
      draw_histogram(p, f, series, opt);
      break;
    case PlotKind::Box:
      draw_box(p, f, series, opt);
      break;
    case PlotKind::Lines:
    case PlotKind::Dots:
      draw_series(p, f, series, opt);
      break;
  }
  if (series.size() > 1) draw_legend(p, f, series);
}

std::string xml_escaped(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

// The <text> elements, anchored as Painter::text anchors its words.
std::string svg_text_elements(const std::vector<SvgText>& texts) {
  std::string out = "<g font-family=\"sans-serif\">\n";
  for (const SvgText& t : texts) {
    const char* anchor = t.ax < 0.25 ? "start" : t.ax > 0.75 ? "end" : "middle";
    const char* baseline = t.ay < 0.25 ? "hanging" : t.ay > 0.75 ? "alphabetic" : "central";
    out += fmt::format(
        "<text x=\"{:.2f}\" y=\"{:.2f}\" font-size=\"{:.1f}\" text-anchor=\"{}\" "
        "dominant-baseline=\"{}\" fill=\"rgb({:.0f}%,{:.0f}%,{:.0f}%)\"",
        t.x, t.y, t.size, anchor, baseline, 100 * t.colour.r, 100 * t.colour.g, 100 * t.colour.b);
    if (t.angle != 0)
      out += fmt::format(" transform=\"rotate({:.1f} {:.2f} {:.2f})\"", t.angle * 180 / M_PI, t.x,
                         t.y);
    out += ">" + xml_escaped(t.text) + "</text>\n";
  }
  return out + "</g>\n";
}

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

void render_image(const std::vector<PlotSeries>& series, const PlotOptions& opt,
                  const std::string& path) {
  auto fail = [&](const std::string& msg) { throw InputError(Diagnostic{path, 0, 0, -1, msg}); };
  if (opt.image_width < 100 || opt.image_height < 100 || opt.image_width > 20000 ||
      opt.image_height > 20000)
    fail("image size must be between 100 and 20000");
  bool svg = ends_with(path, ".svg"), png = ends_with(path, ".png");
  if (!svg && !png) fail("output must end in .svg or .png");
  using SurfacePtr = std::unique_ptr<cairo_surface_t, decltype(&cairo_surface_destroy)>;
  SurfacePtr surface(
      svg ? cairo_svg_surface_create(path.c_str(), opt.image_width, opt.image_height)
          : cairo_image_surface_create(CAIRO_FORMAT_ARGB32, opt.image_width, opt.image_height),
      cairo_surface_destroy);
  if (cairo_surface_status(surface.get()) != CAIRO_STATUS_SUCCESS)
    fail(std::string("cannot create: ") +
         cairo_status_to_string(cairo_surface_status(surface.get())));
  cairo_t* cr = cairo_create(surface.get());
  std::vector<SvgText> texts;
  draw(cr, series, opt, svg ? &texts : nullptr);
  cairo_status_t st = cairo_status(cr);
  cairo_destroy(cr);
  if (st != CAIRO_STATUS_SUCCESS)
    fail(std::string("drawing failed: ") + cairo_status_to_string(st));
  if (png) {
    st = cairo_surface_write_to_png(surface.get(), path.c_str());
  } else {
    cairo_surface_finish(surface.get());
    st = cairo_surface_status(surface.get());
  }
  if (st != CAIRO_STATUS_SUCCESS) fail(std::string("cannot write: ") + cairo_status_to_string(st));
  if (svg) {
    std::string doc;
    {
      std::ifstream in(path, std::ios::binary);
      std::ostringstream all;
      all << in.rdbuf();
      doc = all.str();
    }
    const std::size_t end = doc.rfind("</svg>");
    if (end == std::string::npos) fail("cairo wrote no </svg>");
    doc.insert(end, svg_text_elements(texts));
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!(out << doc)) fail("cannot write");
  }
}

}  // namespace dis::cost
