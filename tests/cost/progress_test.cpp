// A long cost run says on a terminal that it is still running, and clears
// that line when it ends; on a file or a pipe it writes nothing of it.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "tool_runner.h"

namespace dis::cost::test {
namespace {

namespace fs = std::filesystem;

// A program that takes a little over the 3 s after which progress shows.
std::string sleeper() {
  const fs::path dir = fs::path(testing::TempDir()) / "cost_progress";
  fs::create_directories(dir);
  const std::string path = (dir / "sleeper.b").string();
  std::ofstream(path) << "implement P;\ninclude \"sys.m\";\ninclude \"draw.m\";\n"
                         "P: module { init: fn(nil: ref Draw->Context, nil: list of string); };\n"
                         "init(nil: ref Draw->Context, nil: list of string)\n{\n"
                         "\tsys := load Sys Sys->PATH;\n\tsys->sleep(4200);\n}\n";
  return path;
}

TEST(CostProgress, ALongRunShowsElapsedTimeOnATerminalOnly) {
  const std::string prog = sleeper();
  const std::string plain = (fs::path(testing::TempDir()) / "cost_progress" / "plain.err").string();
  // script(1) gives cost a terminal; the report goes to /dev/null, so what
  // script prints is cost's stderr alone. The second run, at the same time,
  // has its stderr on a file.
  ToolRun r = run_shell("script -qec '" + tool("cost") + " --count " + prog +
                        " >/dev/null' /dev/null </dev/null & " + tool("cost") + " --count " + prog +
                        " >/dev/null 2>" + plain + "; wait");
  EXPECT_NE(r.out.find("\rcost: running run 1, 3 s"), std::string::npos) << r.out;
  // The line is erased at the end, so the terminal is left clean.
  EXPECT_NE(r.out.find("\r\033[K"), std::string::npos) << r.out;
  EXPECT_EQ(read_text(plain).find("cost: running"), std::string::npos) << read_text(plain);
}

}  // namespace
}  // namespace dis::cost::test
