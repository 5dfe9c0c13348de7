// Every program of the reference corpus (compiled by Inferno's own Limbo
// compiler) runs under the built `dis` with the expected output and status;
// programs that fail show their message on stderr.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "dis_runner.h"
#include "shared_corpus.h"

namespace fs = std::filesystem;

namespace {

// expected.out without the two lines Inferno's emulator and shell add after
// an uncaught error; returns the message they name ("" if none).
std::string expected_stdout(const std::string& text, std::string& message) {
  std::istringstream in(text);
  std::string line, out;
  bool first = true;
  std::string pending;
  while (std::getline(in, line)) {
    if (line.rfind("[", 0) == 0 && line.find("] Broken: \"") != std::string::npos) {
      auto a = line.find("\"") + 1;
      message = line.substr(a, line.rfind('"') - a);
      continue;
    }
    if (line.rfind("sh: ", 0) == 0 && line.find(" \"") != std::string::npos) continue;
    if (!first) out += "\n";
    out += line;
    first = false;
  }
  if (!text.empty() && text.back() == '\n' && !out.empty()) out += "\n";
  return out;
}

using distest::Result;
using distest::run_dis;
using distest::slurp;

class Corpus : public ::testing::TestWithParam<std::string> {};

TEST_P(Corpus, RunsAsExpected) {
  fs::path dir = fs::path(DIS_SHARED_DIR) / "testdata" / "limbo" / GetParam();
  fs::path prog = dir / (GetParam() + ".dis");
  std::string message;
  std::string want = expected_stdout(slurp(dir / "expected.out"), message);
  int want_status = std::atoi(slurp(dir / "expected.status").c_str());
  Result r = run_dis("'" + fs::absolute(prog).string() + "'");
  EXPECT_EQ(r.out, want);
  EXPECT_EQ(r.status, want_status) << r.err;
  if (!message.empty()) {
    // Our diagnostic: file.b:LINE: message.
    EXPECT_NE(r.err.find(GetParam() + ".b:"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(": " + message + "\n"), std::string::npos) << r.err;
  } else {
    EXPECT_EQ(r.err, "");  // success and fail: exceptions are silent
  }
}

std::vector<std::string> corpus() { return distest::corpus_names(); }

INSTANTIATE_TEST_SUITE_P(Limbo, Corpus, ::testing::ValuesIn(corpus()),
                         [](const auto& param_info) { return param_info.param; });
// Empty in a clone without ../shared: nothing to instantiate then.
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(Corpus);

TEST(Corpus, HasEveryProgram) {
  DIS_NEEDS_SHARED();
  EXPECT_GE(corpus().size(), 18u);
}

TEST(DisTool, UsageErrorsExitTwo) {
  EXPECT_EQ(run_dis("").status, 2);
  EXPECT_EQ(run_dis("/nonexistent/prog.dis").status, 2);
  EXPECT_EQ(run_dis("--no-such-flag x.dis").status, 2);
  Result h = run_dis("--help");
  EXPECT_EQ(h.status, 0);
  EXPECT_NE(h.out.find("--max-instructions"), std::string::npos);
  EXPECT_EQ(run_dis("--version").status, 0);
}

// CLI11 reads "-5" into an unsigned option as 2^64 - 5: --stack-limit -5
// hung the interpreter and --heap-limit -1 meant no limit.
TEST(DisTool, LimitFlagsRefuseNegativeZeroAndHugeValues) {
  const std::string prog = std::string(DIS_SOURCE_DIR) + "/samples/fib.b";
  struct Case {
    std::string flag, message;
  };
  for (const Case& c : std::vector<Case>{
           {"--stack-limit -5", "--stack-limit: Value -5 is negative"},
           {"--stack-limit 0", "--stack-limit: Value 0 not in range"},
           {"--heap-limit -1", "--heap-limit: Value -1 is negative"},
           {"--heap-limit 0", "--heap-limit: Value 0 not in range"},
           {"--heap-limit 2000000", "--heap-limit: Value 2000000 not in range"},
           {"--max-instructions -1", "--max-instructions: Value -1 is negative"},
           {"--trace-limit -1", "--trace-limit: Value -1 is negative"},
           {"--root /nonexistent/dir", "--root: Directory does not exist"},
       }) {
    Result r = run_dis(c.flag + " " + prog);
    EXPECT_EQ(r.status, 2) << c.flag;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << c.flag << ": " << r.err;
  }
  Result ok = run_dis("--stack-limit 1024 --heap-limit 64 --max-instructions 0 " + prog);
  EXPECT_EQ(ok.status, 0) << ok.err;
}

}  // namespace
