// Sys->stat, fstat, wstat, dirread, remove, chdir, pipe, pread, pwrite,
// stream, iounit and fd2path on the host file system:
// Limbo programs under tests/vm/sysfs/ run with the built dis inside a fresh
// temporary directory, their whole output compared with the expected text
// (the directory's path and the host user and group names substituted).
#include <grp.h>
#include <gtest/gtest.h>
#include <pwd.h>

#include <filesystem>
#include <string>

#include "dis_runner.h"

namespace fs = std::filesystem;

namespace {

std::string prog(const std::string& name) {
  return "'" + (fs::path(DIS_SOURCE_DIR) / "tests" / "vm" / "sysfs" / name).string() + "'";
}

std::string replace_all(std::string s, const std::string& from, const std::string& to) {
  for (std::size_t i = s.find(from); i != std::string::npos; i = s.find(from, i + to.size()))
    s.replace(i, from.size(), to);
  return s;
}

std::string host_user() {
  const passwd* pw = ::getpwuid(::getuid());
  return pw ? pw->pw_name : std::to_string(::getuid());
}

std::string host_group() {
  const group* gr = ::getgrgid(::getgid());
  return gr ? gr->gr_name : std::to_string(::getgid());
}

const char* const kFilesExpected =
    "stat DIR/a.txt: 0 name=a.txt file length=6 perm=640\n"
    "stat DIR/b.txt: 0 name=b.txt file length=10 perm=640\n"
    "stat DIR/sub: 0 name=sub dir length=0 perm=755\n"
    "stat DIR/sub/: 0 name=sub dir length=0 perm=755\n"
    "owner: uid=USER gid=GROUP muid=USER dtype=U\n"
    "dirread DIR: 3 entries\n"
    "  a.txt file 6\n"
    "  b.txt file 10\n"
    "  sub dir 0\n"
    "fstat: 0 name=b.txt file length=10\n"
    "remove a.txt: 0\n"
    "stat DIR/a.txt: 'DIR/a.txt' file does not exist\n"
    "remove sub: Directory not empty\n"
    "stat DIR/sub: 0 name=sub dir length=0 perm=755\n"
    "wstat: 0\n"
    "stat DIR/b.txt: 'DIR/b.txt' file does not exist\n"
    "stat DIR/c.txt: 0 name=c.txt file length=10 perm=600\n"
    "fwstat: 0\n"
    "stat DIR/d.txt: 0 name=d.txt file length=4 perm=600\n"
    "mtime: 1000000000\n"
    "fstat after rename: d.txt\n"
    "fwstat onto sub: File exists\n"
    "chdir nowhere: 'DIR/nowhere' file does not exist\n"
    "chdir sub: 0\n"
    "read inner.txt: inner text\n"
    "stat inner.txt: 0 name=inner.txt file length=11 perm=640\n"
    "dirread .: 1 entries\n"
    "  inner.txt file 11\n";

TEST(SysFiles, StatDirreadRemoveChdirWstat) {
  // Stress mode checks every reference count the Dir strings and arrays add.
  for (const char* mode : {"dis", "stress"}) {
    fs::path dir = distest::fresh_dir("dis_sysfs");
    distest::Result r = distest::run_dis(
        std::string("--gc=") + mode + " " + prog("files.b") + " '" + dir.string() + "'",
        "umask 022; ");
    EXPECT_EQ(r.status, 0) << mode << r.err;
    EXPECT_EQ(r.err, "") << mode;
    std::string got = replace_all(r.out, dir.string(), "DIR");
    std::string want =
        replace_all(replace_all(kFilesExpected, "USER", host_user()), "GROUP", host_group());
    EXPECT_EQ(got, want) << mode;
    // The host saw the same changes.
    EXPECT_FALSE(fs::exists(dir / "a.txt"));
    EXPECT_FALSE(fs::exists(dir / "b.txt"));
    EXPECT_FALSE(fs::exists(dir / "c.txt"));
    EXPECT_EQ(distest::slurp(dir / "d.txt"), "0123");
    EXPECT_TRUE(fs::is_directory(dir / "sub"));
    EXPECT_EQ(fs::status(dir / "d.txt").permissions() & fs::perms::all,
              fs::perms::owner_read | fs::perms::owner_write);
    fs::remove_all(dir);
  }
}

TEST(SysFiles, DirreadReturnsALargeDirectoryInChunks) {
  fs::path dir = distest::fresh_dir("dis_sysfs_many");
  distest::Result r = distest::run_dis(prog("many.b") + " '" + dir.string() + "' 1000");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out,
            "last dirread: 0\n"
            "entries 1000, each once 1000, bad 0, several chunks 1\n");
  fs::remove_all(dir);
}

// A missing file reads as Inferno's "'PATH' file does not exist"; other
// failures give the host's reason.
TEST(SysFiles, FailuresReturnMinusOneWithTheHostReason) {
  fs::path dir = distest::fresh_dir("dis_sysfs_bad");
  distest::Result r = distest::run_dis(prog("bad.b") + " '" + dir.string() + "'");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(replace_all(r.out, dir.string(), "DIR"),
            "stat missing: -1 'DIR/missing' file does not exist, name 1\n"
            "remove full: -1 Directory not empty\n"
            "remove missing: -1 'DIR/missing' file does not exist\n"
            "chdir to a file: -1 Not a directory\n"
            "wstat slash name: -1 Invalid argument\n"
            "dirread of a file: -1 Not a directory, nil 1\n"
            "still there: 0 x\n");
  EXPECT_TRUE(fs::exists(dir / "full" / "x"));
  fs::remove_all(dir);
}

TEST(SysFiles, PipePositionedIoStreamIounitFd2path) {
  for (const char* mode : {"dis", "stress"}) {
    fs::path dir = distest::fresh_dir("dis_sysfs_io");
    distest::Result r = distest::run_dis(std::string("--gc=") + mode + " " + prog("io.b") + " '" +
                                         dir.string() + "'");
    EXPECT_EQ(r.status, 0) << mode << r.err;
    EXPECT_EQ(r.err, "") << mode;
    EXPECT_EQ(replace_all(r.out, dir.string(), "DIR"),
              "pipe into 1 slot: -1\n"
              "pipe: 0, ends 1\n"
              "iounit of a pipe: 4096\n"
              "writer wrote 200 lines; read 200 lines, 1690 bytes\n"
              "pwrite at 4: 10\n"
              "pwrite at 0: 4\n"
              "pread from 2: 12 cd0123456789\n"
              "pread 3 at 12: 2 89\n"
              "pread past the end: 0\n"
              "read after them: 4 abcd\n"
              "iounit of a file: 0\n"
              "fd2path: DIR/data\n"
              "stream to stdout: abcd0123456789\n"
              "streamed 14\n"
              "stream to a file: 14\n"
              "stream from a write-only file: -1 Bad file descriptor\n"
              "pwrite to a read-only file: -1 Bad file descriptor\n")
        << mode;
    EXPECT_EQ(distest::slurp(dir / "copy"), "abcd0123456789") << mode;
    fs::remove_all(dir);
  }
}

}  // namespace
