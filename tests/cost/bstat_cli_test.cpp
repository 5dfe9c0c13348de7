// bstat beyond ministat: observation lines, extras, warnings, JSON, errors.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "tool_runner.h"

namespace dis::cost::test {
namespace {

std::string bstat_dir() { return fixtures() + "/bstat"; }

// stdout only, or stdout and stderr together.
ToolRun bstat(const std::string& args, bool with_stderr = false) {
  return run_shell("cd '" + bstat_dir() + "' && '" + tool("bstat") + "' " + args +
                   (with_stderr ? " 2>&1" : " 2>/dev/null") + " </dev/null");
}

std::string after_line(const std::string& text, int lines) {
  std::size_t p = 0;
  for (int i = 0; i < lines; ++i) p = text.find('\n', p) + 1;
  return text.substr(p);
}

TEST(BstatCli, ObservationLinesGiveTheSameReport) {
  ToolRun r = bstat("--quiet --name GECKO --name ANOLE lizards.obs");
  ASSERT_EQ(r.status, 0);
  std::string expected = read_text(bstat_dir() + "/lizards.out");
  EXPECT_EQ(r.out.substr(0, r.out.find('\n', r.out.find('\n') + 1) + 1),
            "x lizards.obs:GECKO\n+ lizards.obs:ANOLE\n");
  EXPECT_EQ(after_line(r.out, 2), after_line(expected, 2));
}

TEST(BstatCli, Extras) {
  ToolRun r = bstat("--quiet --welch --rank --effect gecko anole");
  ASSERT_EQ(r.status, 0);
  std::string expected = read_text(bstat_dir() + "/lizards.out");
  ASSERT_EQ(r.out.substr(0, expected.size()), expected);
  std::string extras = r.out.substr(expected.size());
  // By hand: se = sqrt(223.505^2/7 + 264.443^2/6) = 137.08, t = 232.19/se =
  // 1.694, df = 9.90. anole beats gecko in 35 of 42 pairs: U = 7, no ties;
  // 44 of the C(13,6) = 1716 arrangements give U <= 7: p = 88/1716. Pooled
  // s = 242.97: d = 0.956, g = d * (1 - 3/43).
  EXPECT_EQ(extras,
            "+ vs x:\n"
            "\tWelch's t: 232.19 +/- 305.841 (df 9.90, t = 1.694, p = 0.121): no difference "
            "proven at 95.0% confidence\n"
            "\tMann-Whitney U = 7 (exact, p = 0.0513): no difference proven at 95.0% "
            "confidence\n"
            "\tEffect size: Cohen's d = 0.956, Hedges' g = 0.889 (large)\n");
}

TEST(BstatCli, Warnings) {
  ToolRun r = run_shell("cd '" + bstat_dir() + "' && '" + tool("bstat") +
                        "' tjr net_outlier strata small3 2>&1 >/dev/null");
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out,
            "bstat: warning: tjr: 1 outlier more than 2 standard deviations from the mean "
            "(plot --outliers 1 removes them): 1.14408\n"
            "bstat: warning: net_outlier: 1 outlier more than 2 standard deviations from the "
            "mean (plot --outliers 1 removes them): 2.5473\n"
            "bstat: warning: strata: stratified: values fall into 2 bands with nothing between "
            "them: 1..1.019 (n=20), 1.5..1.509 (n=10); the mean and the t test describe "
            "neither band\n"
            "bstat: warning: small3: only 3 values: too few to check that they are normally "
            "distributed, which the t test assumes\n");
  ToolRun tiny = run_shell("cd '" + bstat_dir() + "' && '" + tool("bstat") +
                           "' small3 small3 2>&1 >/dev/null");
  EXPECT_NE(tiny.out.find("small3 vs small3: samples too small to prove any difference without "
                          "assuming normality (smallest possible rank-test p = 0.1 > 0.05)"),
            std::string::npos)
      << tiny.out;
  EXPECT_EQ(bstat("--quiet tjr net_outlier", true).out.find("warning"), std::string::npos);
}

TEST(BstatCli, ExactQuantilesDifferFromTheTable) {
  // ministat's 99.5% column is the one-sided 0.999 quantile: 4.143 for df 10
  // where the true two-sided 99.5% quantile is 3.581.
  ToolRun table = bstat("--quiet --format json -c 99.5 small3 mid30");
  ToolRun exact = bstat("--quiet --format json --exact -c 99.5 gecko anole");
  ASSERT_EQ(table.status, 0);
  ASSERT_EQ(exact.status, 0);
  auto t = nlohmann::json::parse(table.out);
  auto e = nlohmann::json::parse(exact.out);
  EXPECT_EQ(t["t_quantiles"], "ministat-table");
  EXPECT_EQ(t["comparisons"][0]["student"]["t"], 3.375);  // df 31
  EXPECT_EQ(e["t_quantiles"], "exact");
  EXPECT_NEAR(e["comparisons"][0]["student"]["t"].get<double>(), 3.4966, 1e-4);  // df 11
}

TEST(BstatCli, Json) {
  ToolRun r = bstat("--format json tjr net");
  ASSERT_EQ(r.status, 0);
  auto doc = nlohmann::json::parse(r.out);
  EXPECT_EQ(doc["confidence"], 95.0);
  ASSERT_EQ(doc["samples"].size(), 2u);
  EXPECT_EQ(doc["samples"][0]["name"], "tjr");
  EXPECT_EQ(doc["samples"][0]["n"], 10);
  EXPECT_EQ(doc["samples"][1]["median"], 1.117941526);
  auto c = doc["comparisons"][0];
  EXPECT_EQ(c["student"]["df"], 18);
  EXPECT_EQ(c["student"]["t"], 2.101);
  EXPECT_TRUE(c["student"]["significant"].get<bool>());
  EXPECT_TRUE(c["welch"]["significant"].get<bool>());
  EXPECT_TRUE(c["mann_whitney"]["exact"].get<bool>());
  // net beats tjr in 1 + 2 + 5 of the 100 pairs.
  EXPECT_EQ(c["mann_whitney"]["u"], 8.0);
  EXPECT_EQ(doc["samples"][0]["outliers"].size(), 1u);
}

TEST(BstatCli, Paired) {
  // tjr[k] and net[k] taken as pairs: the differences have mean -0.0131476,
  // sd 0.00836684, so t = -4.969 with 9 df (by hand, from the fixtures).
  ToolRun r = bstat("--quiet -A --paired tjr net");
  ASSERT_EQ(r.status, 0);
  ToolRun plain = bstat("--quiet -A tjr net");
  ASSERT_EQ(plain.status, 0);
  EXPECT_EQ(r.out, plain.out +
                       "+ vs x:\n"
                       "\tPaired t: -0.0131476 +/- 0.00598528 (-1.165% +/- 0.5303%; 10 pairs, "
                       "df 9, t = -4.969, p = 0.000771): difference at 95.0% confidence\n");
  auto doc = nlohmann::json::parse(bstat("--format json --paired tjr net").out);
  auto p = doc["comparisons"][0]["paired"];
  EXPECT_EQ(p["pairs"], 10);
  EXPECT_NEAR(p["t_statistic"].get<double>(), -4.96918, 1e-4);
  EXPECT_TRUE(p["significant"].get<bool>());
  EXPECT_TRUE(nlohmann::json::parse(bstat("--format json tjr net").out)["comparisons"][0]["paired"]
                  .is_null());
  // Pairs need samples of one size.
  r = bstat("--paired gecko anole", true);
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.out,
            "bstat: --paired: gecko has 7 values and anole has 6: pairs need samples of one "
            "size\n");
}

TEST(BstatCli, OutFile) {
  std::string path = ::testing::TempDir() + "bstat_out.txt";
  ToolRun r = bstat("--quiet --out '" + path + "' gecko anole");
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(read_text(path), read_text(bstat_dir() + "/lizards.out"));
}

TEST(BstatCli, BadInputExitsTwo) {
  ToolRun r = run_shell("printf '1\\n2\\nabc\\n4\\n' | '" + tool("bstat") + "' 2>&1");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.out, "<stdin>:3:1: field 1: 'abc' is not a finite number\n");
  r = run_shell("printf '1,2\\n3,x\\n' | '" + tool("bstat") + "' -C 2 -d , 2>&1");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.out, "<stdin>:2:3: field 2: 'x' is not a finite number\n");
  r = run_shell("printf '1\\n2\\n' | '" + tool("bstat") + "' 2>&1");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.out, "Dataset <stdin> must contain at least 3 data points\n");
  r = bstat("-c 97 gecko", true);
  EXPECT_EQ(r.status, 2);
  r = bstat("nosuchfile", true);
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.out, "nosuchfile: cannot open file\n");
  r = bstat("--name NOPE lizards.obs", true);
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.out, "lizards.obs: no observation line named 'NOPE'\n");
  r = bstat("gecko gecko gecko gecko gecko gecko gecko gecko", true);
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(bstat("--version").out.substr(0, 6), "bstat ");
}

}  // namespace
}  // namespace dis::cost::test

namespace dis::cost::test {
namespace {

TEST(BstatCli, Csv) {
  ToolRun r = run_shell("cd '" + fixtures() + "/bstat' && '" + tool("bstat") +
                        "' --format csv small3 gecko 2>/dev/null </dev/null");
  ASSERT_EQ(r.status, 0);
  std::vector<std::vector<std::string>> rows;
  std::istringstream in(r.out);
  for (std::string line; std::getline(in, line);) {
    rows.emplace_back();
    std::istringstream fields(line);
    for (std::string f; std::getline(fields, f, ',');) rows.back().push_back(f);
  }
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].size(), 15u);
  EXPECT_EQ(rows[0][0], "name");
  // The reference row leaves the 8 comparison fields empty.
  EXPECT_EQ(r.out.substr(r.out.find('\n') + 1, r.out.find("gecko") - r.out.find('\n') - 1),
            "small3,3,10,12,11,11,1,,,,,,,,\n");
  ASSERT_EQ(rows[2].size(), 15u);
  // The digits ministat prints for the same data (lizards.out), in full.
  EXPECT_EQ(rows[2][1], "7");
  EXPECT_EQ(rows[2][4], "187");
  EXPECT_EQ(rows[2][5].substr(0, 9), "290.14285");
  EXPECT_EQ(rows[2][6].substr(0, 9), "223.50498");
  EXPECT_EQ(rows[2][7], "8");
  EXPECT_EQ(rows[2][8], "2.306");
  EXPECT_EQ(rows[2][9].substr(0, 9), "279.14285");  // 290.142857 - 11
  EXPECT_EQ(rows[2][14], "no");
}

}  // namespace
}  // namespace dis::cost::test
