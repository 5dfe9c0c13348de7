// Sys->FD objects close their host file when freed: by reference count, by
// the collector (a cycle, or anything under --gc=ms), and at exit. With the
// descriptor limit at 100, a program opens the same file 5000 times and
// drops each FD (a third of them inside a cycle) in all three GC modes.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "dis_runner.h"

namespace fs = std::filesystem;

namespace {

std::string files_prog() {
  return "'" + (fs::path(DIS_SOURCE_DIR) / "tests" / "vm" / "gc" / "files.b").string() + "'";
}

TEST(GcFiles, DroppedFdsCloseInEveryMode) {
  fs::path dir = distest::fresh_dir("dis_files");
  for (const char* mode : {"dis", "ms", "stress"}) {
    distest::Result r = distest::run_dis(
        std::string("--gc=") + mode + " " + files_prog() + " '" + dir.string() + "' 5000",
        "ulimit -n 100; ");
    EXPECT_EQ(r.status, 0) << mode << r.err;
    EXPECT_EQ(r.out, "opened 5000 failed 0\nhello, files\n") << mode;
    EXPECT_EQ(distest::slurp(dir / "files.txt"), "hello, files\n") << mode;
  }
  fs::remove_all(dir);
}

}  // namespace
