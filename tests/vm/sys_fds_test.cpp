// Descriptor tables per Dis thread (Inferno's Fgrp; vm/core/fd_group.h):
// Limbo programs under tests/vm/fds/ run with the built dis in a fresh
// directory, their whole output and the files they wrote compared. Each runs
// under the reference-counting collector and under stress mode, which
// collects at every allocation (FD objects freed late must not close a
// descriptor early, nor keep a pipe open past its holders).
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "dis_runner.h"

namespace fs = std::filesystem;

namespace {

std::string prog(const std::string& name) {
  return "'" + (fs::path(DIS_SOURCE_DIR) / "tests" / "vm" / "fds" / name).string() + "'";
}

// Runs tests/vm/fds/NAME in a fresh directory under both collectors and
// compares its whole output and the files it leaves there.
void expect_run(const std::string& name, const std::string& want,
                const std::vector<std::pair<std::string, std::string>>& files = {},
                const std::string& want_err = "") {
  for (const char* mode : {"dis", "stress"}) {
    fs::path dir = distest::fresh_dir("dis_fds");
    distest::Result r = distest::run_dis(std::string("--gc=") + mode + " " + prog(name) + " '" +
                                         dir.string() + "'");
    EXPECT_EQ(r.status, 0) << mode << r.err;
    EXPECT_EQ(r.err, want_err) << mode;
    EXPECT_EQ(r.out, want) << mode;
    for (const auto& [file, text] : files) EXPECT_EQ(distest::slurp(dir / file), text) << mode;
    fs::remove_all(dir);
  }
}

TEST(SysFds, DupInAForkedTableMovesOnlyThatThreadsOutput) {
  expect_run("dup.b",
             "forked child: dup gave 1\n"
             "parent still prints here\n"
             "forked file: forked child's line\n"
             "saved stdout as 3\n"
             "restored\n"
             "shared file: shared child's line\n"
             "parent's line after the shared child's dup\n"
             "dup of a closed descriptor: -1 fd out of range or not open\n"
             "fildes(1) is a new descriptor: 1\n"
             "written through it\n",
             {{"forked", "forked child's line\n"}});
}

TEST(SysFds, APipeReachesEndOfFileWhenEveryWriterLetsGo) {
  expect_run("pipe.b",
             "read 300 lines, 2590 bytes, last read 0\n"
             "read 50 lines, 390 bytes, last read 0\n"
             "parent's stdout untouched\n");
}

// Without the fix the first write ended the whole VM by SIGPIPE (the fault
// sweep's find under sh's `sort | uniq`), printing nothing.
TEST(SysFds, AWriteOnAClosedPipeRaisesInTheWriterOnly) {
  expect_run("closedpipe.b",
             "writer: handler ran for write on closed pipe\n"
             "writer \"ClosedPipe\":\n"
             "flooder \"ClosedPipe\":write on closed pipe\n"
             "reader \"ClosedPipe\":\n"
             "streamer \"ClosedPipe\":write on closed pipe\n"
             "main: still running\n",
             {},
             "closedpipe.b:39: write on closed pipe\n"
             "closedpipe.b:54: write on closed pipe\n");
}

TEST(SysFds, NewfdKeepsOnlyTheListedDescriptors) {
  expect_run("newfd.b",
             "numbers: a 3, b 4\n"
             "child: write to kept a: 1\n"
             "child: write to dropped b: -1 fd out of range or not open\n"
             "child: fildes(0) nil: 1, fildes(2) nil: 1\n"
             "child: a new open takes the lowest free number: 0\n"
             "parent: write to b: 1\n"
             "parent: fildes(0) nil: 0\n",
             {{"a", "A; parent after NEWFD: print -1, write to b -1\n"}, {"b", "b"}});
}

}  // namespace
