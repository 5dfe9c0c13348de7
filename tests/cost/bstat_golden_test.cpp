// bstat against the real ministat: every case in fixtures/bstat/cases.txt
// was run through Debian's ministat 20150715; bstat must print the same.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "ministat_text.h"
#include "sample_input.h"
#include "tool_runner.h"

namespace dis::cost::test {
namespace {

struct Case {
  std::string name;
  std::vector<std::string> args;  // ministat's spelling
};

std::vector<Case> load_cases() {
  std::vector<Case> cases;
  std::ifstream in(fixtures() + "/bstat/cases.txt");
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    auto tab = line.find('\t');
    Case c;
    c.name = line.substr(0, tab);
    std::istringstream rest(line.substr(tab + 1));
    for (std::string a; rest >> a;) c.args.push_back(a);
    cases.push_back(c);
  }
  return cases;
}

// Each case's arguments exactly as ministat was given them: bstat's short
// options are ministat's, with ministat's meanings (-w width, -n statistics
// only).
std::string bstat_args(const std::vector<std::string>& args) {
  std::string out;
  for (const std::string& a : args) out += " '" + a + "'";
  return out;
}

TEST(BstatGolden, EveryCaseMatchesMinistat) {
  std::vector<Case> cases = load_cases();
  ASSERT_GE(cases.size(), 20u);
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    std::string expected = read_text(fixtures() + "/bstat/" + c.name + ".out");
    ASSERT_FALSE(expected.empty());
    ToolRun r = run_shell("cd '" + fixtures() + "/bstat' && '" + tool("bstat") + "' --quiet" +
                          bstat_args(c.args) + " </dev/null 2>/dev/null");
    EXPECT_EQ(r.status, 0);
    EXPECT_EQ(r.out, expected);
  }
}

TEST(BstatGolden, LibraryReportMatchesMinistat) {
  ColumnSpec spec;
  std::vector<Sample> samples = {read_column_file(fixtures() + "/bstat/tjr", spec),
                                 read_column_file(fixtures() + "/bstat/net", spec)};
  samples[0].name = "tjr";
  samples[1].name = "net";
  MinistatOptions opt;
  EXPECT_EQ(ministat_report(samples, opt), read_text(fixtures() + "/bstat/seed_pid.out"));
}

TEST(BstatGolden, SeedDataShowsTheOnePercentDifference) {
  ToolRun r = run_shell("cd '" + fixtures() + "/bstat' && '" + tool("bstat") +
                        "' --format json tjr net 2>/dev/null");
  ASSERT_EQ(r.status, 0);
  EXPECT_NE(r.out.find("\"significant\": true"), std::string::npos);
  EXPECT_NE(r.out.find("\"percent\": -1.16494"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace dis::cost::test
