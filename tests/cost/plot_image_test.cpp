// plot's images as readers use them: a legend for several series, words an
// SVG reader can search and select, plain numeric input, a log value axis.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "tool_runner.h"

namespace dis::cost::test {
namespace {

std::string temp(const std::string& name) {
  const std::filesystem::path dir = std::filesystem::path(testing::TempDir()) / "plot_image";
  std::filesystem::create_directories(dir);
  return (dir / name).string();
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto p = text.find(what); p != std::string::npos; p = text.find(what, p + what.size())) ++n;
  return n;
}

ToolRun plot(const std::string& args) {
  return run_shell("cd '" + fixtures() + "/plot' && '" + tool("plot") + "' " + args + " 2>&1");
}

TEST(PlotImage, SvgWordsAreTextElements) {
  const std::string svg = temp("words.svg");
  ToolRun r = plot("--name STEP -o " + svg + " small.obs");
  ASSERT_EQ(r.status, 0) << r.out;
  const std::string doc = read_text(svg);
  // The title, the axis labels and the tick labels, as text a reader finds.
  EXPECT_NE(doc.find(">STEP</text>"), std::string::npos);
  EXPECT_NE(doc.find(">Value (ms)</text>"), std::string::npos);
  EXPECT_NE(doc.find(">Step</text>"), std::string::npos);
  // The value axis label turned a quarter: rotate(-90 ...).
  EXPECT_NE(doc.find("transform=\"rotate(-90.0 "), std::string::npos);
  // No glyph outlines: cairo defines them as <symbol>s or glyph paths.
  EXPECT_EQ(doc.find("<symbol"), std::string::npos);
  EXPECT_EQ(doc.find("glyph"), std::string::npos);
  EXPECT_EQ(doc.rfind("</svg>"), doc.size() - 7) << doc.substr(doc.size() - 40);
}

TEST(PlotImage, SeveralSeriesHaveALegendOneHasNone) {
  const std::string two = temp("two.svg"), one = temp("one.svg");
  ASSERT_EQ(plot("--name STEP --name DOTS -p 1l -o " + two + " small.obs").status, 0);
  ASSERT_EQ(plot("--name STEP -o " + one + " small.obs").status, 0);
  const std::string a = read_text(two), b = read_text(one);
  // The legend names each series beside a swatch of its colour: the title
  // "STEP, DOTS" is one text, each legend entry another.
  EXPECT_EQ(count(a, ">STEP</text>"), 1u);
  EXPECT_EQ(count(a, ">DOTS</text>"), 1u);
  EXPECT_EQ(count(b, ">STEP</text>"), 1u);  // the title
  EXPECT_NE(a.find(">STEP, DOTS</text>"), std::string::npos);
  EXPECT_EQ(b.find("text-anchor=\"start\""), std::string::npos);
  EXPECT_EQ(count(a, "text-anchor=\"start\""), 2u);
}

TEST(PlotImage, PlainFilesOfOneNumberPerLineArePlotted) {
  const std::string data = temp("plain.txt");
  std::ofstream(data) << "# as ministat reads them\n3\n1\n4\n1\n5\n9\n2\n6\n";
  ToolRun r = run_shell("'" + tool("plot") + "' --text-width 30 --text-height 5 " + data + " 2>&1");
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find(data), std::string::npos) << r.out;
  ToolRun piped = run_shell("printf '1\\n2\\n3\\n' | '" + tool("plot") +
                            "' --text-width 30 --text-height 5 2>&1");
  EXPECT_EQ(piped.status, 0) << piped.out;
  EXPECT_NE(piped.out.find("<stdin>"), std::string::npos) << piped.out;
}

TEST(PlotImage, LogValueAxisShowsPowersOfTen) {
  const std::string data = temp("wide.obs"), svg = temp("log.svg");
  std::ofstream(data) << "FAST:1l:Observation::Time:us 1 2 3 2 1\n"
                         "SLOW:1l:Observation::Time:us 2000 3000 900 2500 1800\n";
  ToolRun r = run_shell("'" + tool("plot") + "' -p box --log-scale -o " + svg + " " + data +
                        " 2>&1");
  ASSERT_EQ(r.status, 0) << r.out;
  const std::string doc = read_text(svg);
  for (const char* tick : {">1</text>", ">10</text>", ">100</text>", ">1000</text>", ">10000</text>"})
    EXPECT_NE(doc.find(tick), std::string::npos) << tick;
  // Zero has no logarithm.
  std::ofstream(data) << "Z:1l:Observation::Time:us 0 1 2\n";
  ToolRun zero = run_shell("'" + tool("plot") + "' --log-scale -o " + svg + " " + data + " 2>&1");
  EXPECT_EQ(zero.status, 2);
  EXPECT_NE(zero.out.find("--log-scale needs values above 0"), std::string::npos) << zero.out;
}

}  // namespace
}  // namespace dis::cost::test
