// Observation lines: parsing, malformed input, very long lines, ranges.
#include "observations.h"

#include <gtest/gtest.h>

#include <cmath>
#include <sstream>
#include <string>

#include "diag.h"

namespace dis::cost {
namespace {

std::string error_of(const std::string& text, const std::string& file = "x.obs") {
  std::istringstream in(text);
  try {
    read_observations(in, file);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(Observations, ParsesTheHeaderAndValues) {
  Observation o = parse_observation_line("BASE:1l:Observation::Time:us 6 6 7 12.5 -3e2", "f", 4);
  EXPECT_EQ(o.name, "BASE");
  EXPECT_EQ(o.style, "1l");
  EXPECT_EQ(o.xlabel, "Observation");
  EXPECT_EQ(o.xunit, "");
  EXPECT_EQ(o.ylabel, "Time");
  EXPECT_EQ(o.yunit, "us");
  EXPECT_EQ(o.values, (std::vector<double>{6, 6, 7, 12.5, -300}));
  EXPECT_EQ(o.line, 4);
  EXPECT_FALSE(o.is_summary());
}

TEST(Observations, SummaryLines) {
  Observation o = parse_observation_line("BASE:summary:Sample:n:Time:ns 1000 6.5 6 12 0.7", "f", 1);
  ASSERT_TRUE(o.is_summary());
  SummaryValues s = summary_values(o);
  EXPECT_EQ(s.n, 1000);
  EXPECT_EQ(s.mean, 6.5);
  EXPECT_EQ(s.min, 6);
  EXPECT_EQ(s.max, 12);
  EXPECT_EQ(s.std, 0.7);
  EXPECT_EQ(error_of("A:summary:Sample:n:Time:ns 1 2 3\n"),
            "x.obs:1:1: summary line 'A' needs 5 values (n mean min max std), has 3");
}

TEST(Observations, SkipsBlankAndCommentLines) {
  std::istringstream in("# cpu: test\n\n  \nA:1d:I::T:ns 1 2\n# end\nB:1h:I::T:ns 3\n");
  auto all = read_observations(in, "f");
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0].line, 4);
  EXPECT_EQ(all[1].name, "B");
  EXPECT_EQ(all[1].line, 6);
}

TEST(Observations, MalformedLinesNameLineAndField) {
  EXPECT_EQ(error_of("A:1l:I::T:ns 1\nA:1l:I:T:ns 1 2\n"),
            "x.obs:2:1: observation header 'A:1l:I:T:ns' has 5 fields, expected 6 "
            "(NAME:STYLE:XLABEL:XUNIT:YLABEL:YUNIT)");
  EXPECT_EQ(error_of("A:1l:I::T:ns 1 2 abc 4\n"),
            "x.obs:1:18: field value 3: 'abc' is not a finite decimal number");
  EXPECT_EQ(error_of("\n\nA:1l:I::T:ns 1 2 3 nan\n"),
            "x.obs:3:20: field value 4: 'nan' is not a finite decimal number");
  EXPECT_EQ(error_of(":1l:I::T:ns 1\n"), "x.obs:1:1: field NAME of the header is empty");
  EXPECT_EQ(error_of("A::I::T:ns 1\n"), "x.obs:1:1: field STYLE of the header is empty");
  EXPECT_EQ(error_of("A:1l:I::T:ns 1 2 3x\n"),
            "x.obs:1:18: field value 3: '3x' is not a finite decimal number");
  EXPECT_EQ(error_of("1 2 3\n"),
            "x.obs:1:1: observation header '1' has 1 field, expected 6 "
            "(NAME:STYLE:XLABEL:XUNIT:YLABEL:YUNIT)");
}

TEST(Observations, ReadsAMillionValuesOnOneLine) {
  const std::size_t n = 1'000'000;
  std::string text = "BIG:1l:Observation::Time:ns";
  text.reserve(n * 8);
  for (std::size_t i = 0; i < n; ++i) text += " " + std::to_string(i % 1000);
  text += "\nNEXT:1d:I::T:ns 7\n";
  std::istringstream in(text);
  auto all = read_observations(in, "big");
  ASSERT_EQ(all.size(), 2u);
  ASSERT_EQ(all[0].values.size(), n);
  double sum = 0;
  for (double v : all[0].values) sum += v;
  EXPECT_EQ(sum, 1000.0 * 499500);  // each 0..999 block sums to 499500
  EXPECT_EQ(all[0].values[n - 1], 999);
  EXPECT_EQ(all[1].values, std::vector<double>{7});
}

TEST(Observations, FormatsAndParsesBack) {
  Observation o;
  o.name = "GCIDLE";
  o.style = "1l";
  o.xlabel = "Observation";
  o.ylabel = "Time";
  o.yunit = "ns";
  o.values = {1, 0.1, 123456789012.0, -2.5e-7};
  std::string text = format_observation_line(o);
  EXPECT_EQ(text, "GCIDLE:1l:Observation::Time:ns 1 0.1 123456789012 -2.5e-07");
  Observation back = parse_observation_line(text, "f", 1);
  EXPECT_EQ(back.values, o.values);
  std::ostringstream out;
  write_observation_line(out, o);
  EXPECT_EQ(out.str(), text);
}

TEST(Observations, SummaryOfASample) {
  std::vector<double> v = {2, 4, 4, 4, 5, 5, 7, 9};
  Observation s = make_summary("X", "Time", "ns", v);
  EXPECT_EQ(format_observation_line(s).substr(0, 34), "X:summary:Sample:n:Time:ns 8 5 2 9");
  EXPECT_NEAR(s.values[4], std::sqrt(32.0 / 7), 1e-12);
}

TEST(Observations, Ranges) {
  ValueRange r = parse_range("1-200");
  EXPECT_EQ(r.first, 1u);
  EXPECT_EQ(r.last, 200u);
  r = parse_range("5-");
  EXPECT_EQ(r.first, 5u);
  EXPECT_EQ(r.last, static_cast<std::size_t>(-1));
  r = parse_range("7");
  EXPECT_EQ(r.first, 7u);
  EXPECT_EQ(r.last, 7u);
  for (const char* bad : {"0-3", "5-2", "x", "", "-4", "1-2-3", "3-x"})
    EXPECT_THROW(parse_range(bad), InputError) << bad;
  std::vector<double> v = {10, 20, 30, 40, 50};
  EXPECT_EQ(apply_range(v, parse_range("2-3")), (std::vector<double>{20, 30}));
  EXPECT_EQ(apply_range(v, parse_range("4-200")), (std::vector<double>{40, 50}));
  EXPECT_TRUE(apply_range(v, parse_range("6-9")).empty());
}

TEST(Observations, MissingFileIsAnInputError) {
  try {
    read_observation_file("/nonexistent/obs.txt");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), "/nonexistent/obs.txt: cannot open file");
  }
}

}  // namespace
}  // namespace dis::cost
