// cost --format html end to end, through tests/cost/html_report_check.py:
// every sample's page (and a --diff's, a failing run's, and a generated
// program's of 10,000 lines and 200,000 pcs) well formed for Python's
// html.parser; then the pages in headless Chromium: no console error, every
// executed line shown with its count, a click and an Enter open the right
// instruction table, every view draws; the same in headless Firefox.
// Screenshots, a printed PDF and the largest page's load time go to
// build/html-report/ (CI keeps them).
#include <gtest/gtest.h>

#include <string>

#include "tool_runner.h"

namespace dis::cost {
namespace {

std::string out_dir() { return std::string(DIS_BIN_DIR) + "/../html-report"; }

// Runs one stage; 77 means skipped, its reason on the last line.
void run_stage(const std::string& stage) {
  if (test::run_shell("command -v python3 >/dev/null 2>&1").status != 0)
    GTEST_SKIP() << "no python3 on this machine";
  const std::string cmd = "python3 " + std::string(DIS_SOURCE_DIR) +
                          "/tests/cost/html_report_check.py --bin " + DIS_BIN_DIR + " --source " +
                          DIS_SOURCE_DIR + " --out " + out_dir() + "/" + stage + " --stage " +
                          stage + " 2>&1";
  const test::ToolRun r = test::run_shell(cmd);
  std::cout << r.out;
  if (r.status == 77) GTEST_SKIP() << r.out;
  EXPECT_EQ(r.status, 0) << r.out;
}

TEST(HtmlPages, EverySampleAndALargeProgramAreWellFormed) { run_stage("parse"); }

TEST(HtmlPages, InHeadlessChromium) { run_stage("browser"); }

TEST(HtmlPages, InHeadlessFirefox) { run_stage("firefox"); }

}  // namespace
}  // namespace dis::cost
