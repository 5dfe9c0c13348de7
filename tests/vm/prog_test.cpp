// /prog/N/wait (vm/core/prog_wait.h) on its own, then Inferno's shell, which
// waits for its commands through it: sh -c with a command, a `for` loop of
// the std builtins and $status (needs ../shared's Inferno dis/ tree).
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "dis_runner.h"

namespace fs = std::filesystem;

namespace {

TEST(Prog, WaitFileGivesEachChildsExit) {
  distest::Result r = distest::run_dis(
      "'" + (fs::path(DIS_SOURCE_DIR) / "tests" / "vm" / "devices" / "wait.b").string() + "'");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(r.out, "no such thread: 1\nfd2path: 1\n1\n1\n1\n");
}

// Inferno's sh on the corpus tree: its output for `line`.
distest::Result sh(const std::string& line) {
  const fs::path root = fs::path(DIS_SHARED_DIR) / "corpus" / "inferno";
  return distest::run_dis("--root '" + root.string() + "' '" + (root / "dis" / "sh.dis").string() +
                          "' -c '" + line + "'");
}

bool have_corpus() {
  return fs::exists(fs::path(DIS_SHARED_DIR) / "corpus" / "inferno" / "dis" / "sh.dis");
}

TEST(Prog, InfernoShellRunsACommand) {
  if (!have_corpus()) GTEST_SKIP() << "no ../shared/corpus/inferno";
  distest::Result r = sh("echo hello");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "hello\n");
}

TEST(Prog, InfernoShellLoopsWithStd) {
  if (!have_corpus()) GTEST_SKIP() << "no ../shared/corpus/inferno";
  distest::Result r = sh("load std; for i in a b c {echo $i}; if {~ $i c} {echo last}");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "a\nb\nc\nlast\n");
}

TEST(Prog, InfernoShellStatusOfAFailedCommand) {
  if (!have_corpus()) GTEST_SKIP() << "no ../shared/corpus/inferno";
  // grep ends with fail:no matches; the shell keeps the text after fail:.
  distest::Result r = sh("grep zzz /dev/null; echo $status; echo ok; echo [$status]");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "no matches\nok\n[]\n");
}

}  // namespace
