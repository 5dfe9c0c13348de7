// A run whose standard output cannot be written (a full disk: /dev/full)
// ends with a message and a non-zero status, not 0 with its output cut
// short; the program's own writes saw -1, as Inferno's would. The same for
// cost, whose report goes there too.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "dis_runner.h"

namespace {

TEST(OutputError, AFullDiskEndsTheRunWithAMessage) {
  const std::filesystem::path dir = distest::fresh_dir("output_error");
  const std::string err = (dir / "err").string();
  const std::string fib = std::string("'") + DIS_SOURCE_DIR + "/samples/fib.b'";
  for (const std::string tool : {"dis", "cost --count"}) {
    const std::string cmd =
        std::string(DIS_BIN_DIR) + "/" + tool + " " + fib + " >/dev/full 2>'" + err + "'";
    const int rc = std::system(cmd.c_str());
    ASSERT_TRUE(WIFEXITED(rc)) << cmd;
    EXPECT_EQ(WEXITSTATUS(rc), 1) << cmd;
    const std::string name = tool.substr(0, tool.find(' '));
    EXPECT_EQ(distest::slurp(err), name + ": write error on standard output\n") << cmd;
  }
  // The same run with somewhere to write succeeds.
  EXPECT_EQ(distest::run_dis(std::string("'") + DIS_SOURCE_DIR + "/samples/fib.b'").status, 0);
  std::filesystem::remove_all(dir);
}

// `dis prog | head -1` ends quietly when head has gone, by SIGPIPE as other
// Unix tools do: no message, and no million failed prints afterwards. The
// shell starts dis with SIGPIPE ignored; dis restores the default.
TEST(OutputError, AReaderThatLeavesEndsTheRunQuietly) {
  const std::filesystem::path dir = distest::fresh_dir("output_error");
  const std::string lines = std::string("'") + DIS_SOURCE_DIR + "/tests/vm/fds/lines.b'";
  const std::string cmd = "trap '' PIPE; (" + std::string(DIS_BIN_DIR) + "/dis " + lines + " 2>'" +
                          (dir / "err").string() + "'; echo $? >'" + (dir / "rc").string() +
                          "') | head -1 >'" + (dir / "out").string() + "'";
  const int rc = std::system(cmd.c_str());
  ASSERT_TRUE(WIFEXITED(rc)) << cmd;
  EXPECT_EQ(WEXITSTATUS(rc), 0) << cmd;
  EXPECT_EQ(distest::slurp(dir / "out"), "line 0\n");
  EXPECT_EQ(distest::slurp(dir / "err"), "");
  EXPECT_EQ(distest::slurp(dir / "rc"), "141\n");  // 128 + SIGPIPE
  std::filesystem::remove_all(dir);
}

}  // namespace
