// plot: terminal goldens, SVG parsed back, PNG size, outlier layers, errors.
#include "plot.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "tool_runner.h"

namespace dis::cost::test {
namespace {

std::string plot_dir() { return fixtures() + "/plot"; }

ToolRun run_plot(const std::string& args) {
  return run_shell("cd '" + plot_dir() + "' && '" + tool("plot") + "' " + args + " 2>&1");
}

std::string temp_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() /
          ("dis_plot_test_" + std::to_string(::getpid()) + "_" + name))
      .string();
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto p = text.find(what); p != std::string::npos; p = text.find(what, p + what.size())) ++n;
  return n;
}

// Minimal XML check: after the declaration, tags nest properly and the one
// root element is <svg ...>. Returns an empty string when well-formed.
std::string xml_problem(const std::string& x) {
  std::size_t i = 0;
  if (x.compare(0, 5, "<?xml") == 0) i = x.find("?>") + 2;
  std::vector<std::string> stack;
  bool seen_root = false;
  while ((i = x.find('<', i)) != std::string::npos) {
    std::size_t end = x.find('>', i);
    if (end == std::string::npos) return "unterminated tag";
    std::string tag = x.substr(i + 1, end - i - 1);
    i = end + 1;
    if (tag.empty()) return "empty tag";
    if (tag[0] == '!' || tag[0] == '?') continue;
    if (tag[0] == '/') {
      std::string name = tag.substr(1);
      if (stack.empty() || stack.back() != name) return "mismatched </" + name + ">";
      stack.pop_back();
      continue;
    }
    std::string name = tag.substr(0, tag.find_first_of(" \t\n/"));
    if (stack.empty()) {
      if (seen_root) return "second root element";
      if (name != "svg") return "root is <" + name + ">";
      seen_root = true;
    }
    if (tag.back() != '/') stack.push_back(name);
  }
  if (!seen_root) return "no root";
  if (!stack.empty()) return "unclosed <" + stack.back() + ">";
  return "";
}

TEST(Plot, TerminalGoldens) {
  struct Golden {
    const char* args;
    const char* file;
  };
  for (const Golden& g :
       {Golden{"--text-width 24 --text-height 6 --name STEP small.obs", "series_lines.txt"},
        Golden{"--text-width 24 --text-height 6 --name DOTS small.obs", "series_dots.txt"},
        Golden{"--text-width 40 --name HIST small.obs", "histogram.txt"},
        Golden{"--text-width 40 --name STEP --name DOTS small.obs", "box.txt"},
        Golden{"--text-width 30 --text-height 5 -r 2-4 --name STEP small.obs", "range.txt"}}) {
    SCOPED_TRACE(g.file);
    ToolRun r = run_plot(g.args);
    EXPECT_EQ(r.status, 0);
    EXPECT_EQ(r.out, read_text(plot_dir() + "/" + g.file));
  }
}

TEST(Plot, OutlierLayersAreReported) {
  ToolRun r =
      run_shell("cd '" + plot_dir() + "' && '" + tool("plot") +
                "' --outliers 3 --text-width 30 --text-height 4 layers.obs 2>&1 >/dev/null");
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out,
            "plot: OUT: outliers (> 2 std from the mean): layer 1 removed 1 of 20, layer 2 "
            "removed 1 of 19, layer 3 removed 0 of 18\n");
  ToolRun one = run_plot("--outliers 1 --text-width 30 --text-height 4 layers.obs");
  EXPECT_NE(one.out.find("layer 1 removed 1 of 20\n"), std::string::npos) << one.out;
  EXPECT_NE(one.out.find("(19 values)"), std::string::npos) << one.out;
}

TEST(Plot, SvgParsesBackWithOneMarkPerValue) {
  std::string path = temp_path("dots.svg");
  ToolRun r = run_plot("--name NOISE --out '" + path + "' svg.obs");
  ASSERT_EQ(r.status, 0) << r.out;
  std::string svg = read_text(path);
  EXPECT_EQ(xml_problem(svg), "");
  EXPECT_NE(svg.find("<svg "), std::string::npos);
  // Every dot is one path filled in the first series' colour.
  EXPECT_EQ(count(svg, "fill:rgb(20%,40%,60%)"), 137u);
  std::filesystem::remove(path);
}

TEST(Plot, SvgHistogramHasOneBarPerNonEmptyBin) {
  std::string path = temp_path("hist.svg");
  ToolRun r = run_plot("--name REAL -p 1h --out '" + path + "' svg.obs");
  ASSERT_EQ(r.status, 0) << r.out;
  std::string svg = read_text(path);
  EXPECT_EQ(xml_problem(svg), "");
  // The same bins the terminal shows: 7 non-empty bins.
  ToolRun text = run_plot("--name REAL --text-width 40 svg.obs");
  std::size_t bins = 0;
  for (std::size_t p = 0; (p = text.out.find(" |#", p)) != std::string::npos; ++p) ++bins;
  EXPECT_EQ(bins, 7u) << text.out;
  EXPECT_EQ(count(svg, "fill:rgb(20%,40%,60%)"), bins);
  std::filesystem::remove(path);
}

TEST(Plot, PngHasTheStatedSize) {
  std::string path = temp_path("series.png");
  ToolRun r = run_plot("--name NOISE --width 640 --height 480 --out '" + path + "' svg.obs");
  ASSERT_EQ(r.status, 0) << r.out;
  std::string png = read_text(path);
  ASSERT_GE(png.size(), 24u);
  EXPECT_EQ(png.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
  EXPECT_EQ(png.substr(12, 4), "IHDR");
  auto be32 = [&](std::size_t at) {
    std::uint32_t v = 0;
    for (std::size_t k = 0; k < 4; ++k) v = v << 8 | static_cast<unsigned char>(png[at + k]);
    return v;
  };
  EXPECT_EQ(be32(16), 640u);
  EXPECT_EQ(be32(20), 480u);
  std::filesystem::remove(path);
}

TEST(Plot, BadInputExitsTwoWithThePosition) {
  std::string path = temp_path("bad.obs");
  {
    std::ofstream out(path);
    out << "A:1l:I::T:ns 1 2\nA:1l:I::T:ns 1 two 3\n";
  }
  ToolRun r = run_shell("'" + tool("plot") + "' '" + path + "' 2>&1");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.out, path + ":2:16: field value 2: 'two' is not a finite decimal number\n");
  r = run_plot("--name NOPE small.obs");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.out, "plot: no observation line named 'NOPE'\n");
  r = run_plot("-r 0-3 small.obs");
  EXPECT_EQ(r.status, 2);
  r = run_plot("--out x.gif small.obs");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.out, "x.gif: output must end in .svg or .png\n");
  r = run_plot("-p pie small.obs");
  EXPECT_EQ(r.status, 2);
  std::filesystem::remove(path);
}

TEST(PlotLibrary, BinsAxesAndBoxes) {
  PlotSeries s;
  s.values = {6, 6, 7, 6, 8, 12, 6, 7};
  Bins b = choose_bins({s}, false);
  EXPECT_TRUE(b.integers);
  EXPECT_EQ(b.lo, 5.5);
  EXPECT_EQ(b.count, 7u);
  EXPECT_EQ(bin_counts(s.values, b), (std::vector<std::size_t>{4, 2, 1, 0, 0, 0, 1}));
  Bins z = choose_bins({s}, true);
  EXPECT_EQ(z.lo, -0.5);
  EXPECT_EQ(z.count, 13u);

  Axis a = nice_axis(3, 97, 5, false);
  EXPECT_EQ(a.step, 20);
  EXPECT_EQ(a.lo, 0);
  EXPECT_EQ(a.hi, 100);
  Axis zoom = nice_axis(1000.2, 1000.9, 4, false);
  EXPECT_NEAR(zoom.step, 0.2, 1e-12);
  EXPECT_NEAR(zoom.lo, 1000.2, 1e-9);
  Axis zero = nice_axis(220, 500, 5, true);
  EXPECT_EQ(zero.lo, 0);

  BoxStats bs = box_stats(std::vector<double>{1, 2, 3, 4, 5, 6, 7, 8, 9});
  EXPECT_EQ(bs.q1, 3);
  EXPECT_EQ(bs.median, 5);
  EXPECT_EQ(bs.q3, 7);

  EXPECT_EQ(axis_label("Time", "us"), "Time (us)");
  EXPECT_EQ(axis_label("Observation", ""), "Observation");
}

}  // namespace
}  // namespace dis::cost::test
