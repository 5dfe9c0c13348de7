// The program device and the name space (vm/builtins/prog_device.cpp,
// vm/core/name_space.h): tests/vm/progdev/progdev.b reads each thread's
// status, kills a blocked and a sleeping thread and a process group through
// ctl, reads fd and ns, and binds one directory over another in a fresh
// directory; its whole output is compared.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "dis_runner.h"
#include "name_space.h"

namespace fs = std::filesystem;

namespace {

TEST(ProgDevice, StatusKillFdNsAndBindAsInferno) {
  fs::path dir = fs::temp_directory_path() / ("progdev_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir / "a");
  fs::create_directories(dir / "b");
  std::ofstream(dir / "a" / "x") << "x";
  std::ofstream(dir / "b" / "y") << "y";
  const std::string d = dir.string();
  distest::Result r = distest::run_dis(
      "'" + (fs::path(DIS_SOURCE_DIR) / "tests/vm/progdev/progdev.b").string() + "' '" + d + "'");
  fs::remove_all(dir);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(r.out,
            "me: 1 1 ready Progdev[$Sys]\n"
            "blocked: 3 1 recv Progdev\n"
            "listed: 1\n"
            "files: ctl status ns fd wait\n"
            "root lists dev 1 prog 1\n"
            "bad ctl: write: bad process or channel control request\n"
            "kill blocked: ok\n"
            "wait: 1\n"
            "gone: 1\n"
            "kill sleeper: ok\n"
            "wait: 1\n"
            "group: 1\n"
            "killgrp: ok\n"
            "wait: 1\n"
            "both gone:  1\n"
            "fd lines: 6\n"
            "fd:  0 r   0 /dev/cons\n"
            "fd:  1 w   0 /dev/cons\n"
            "fd:  2 w   0 /dev/cons\n"
            "fd:  3 r  /prog/1/wait\n"
            "fd:  4 r  0 /prog/1/fd\n"
            "a: x\n"
            "bind -a: 1 a: x y\n"
            "create: 1 mounted directory forbids creation\n"
            "stat a/y: 0\n"
            "bind: 1 a: y\n"
            "create: 1 b: new y\n"
            "ns: bind / /\n"
            "ns: bind -b #c /dev\n"
            "ns: bind #p /prog\n"
            "ns: bind -c " +
                d + "/b " + d +
                "/a\n"
                "ns: cd " +
                d +
                "\n"
                "unmount: 0 a: x\n"
                "unmount again: -1 not mounted\n"
                "bind nothing: -1 'nothing' file does not exist\n");
}

// The mount table alone: unions search their members in order, MREPL
// replaces, unmount undoes, and ns's lines rebuild the same unions.
TEST(NameSpace, UnionsSearchInOrder) {
  using dis::vm::NameSpace;
  auto exists = [](const std::string& p) {
    return p == "/" || p == "/a" || p == "/b" || p == "/c" || p == "/b/f" || p == "/c/f" ||
           p == "/a/g";
  };
  NameSpace ns;
  std::string err;
  EXPECT_EQ(NameSpace::clean("/x/../y/./z//"), "/y/z");
  EXPECT_EQ(NameSpace::clean("#p/1/.."), "#p");
  ASSERT_TRUE(ns.bind("/b", "/a", NameSpace::kMBEFORE, exists, err)) << err;
  ASSERT_TRUE(ns.bind("/c", "/a", NameSpace::kMAFTER | NameSpace::kMCREATE, exists, err)) << err;
  EXPECT_EQ(ns.resolve("/a", exists), (std::vector<std::string>{"/b", "/a", "/c"}));
  EXPECT_EQ(ns.resolve("/a/f", exists).front(), "/b/f");
  EXPECT_EQ(ns.resolve("/a/g", exists).front(), "/a/g");
  EXPECT_EQ(ns.create_target("/a", exists), "/c");
  EXPECT_EQ(ns.describe("/h"),
            (std::vector<std::string>{"bind /b /a", "bind -a /a /a", "bind -ac /c /a", "cd /h"}));
  auto forked = ns.copy();
  ASSERT_TRUE(ns.unmount("/b", "/a", exists, err)) << err;
  EXPECT_EQ(ns.resolve("/a/f", exists).front(), "/c/f");
  EXPECT_EQ(forked->resolve("/a/f", exists).front(), "/b/f");
  EXPECT_EQ(ns.fresh()->resolve("/a/f", exists).front(), "/a/f");
  EXPECT_FALSE(ns.bind("/b", "/a", NameSpace::kMBEFORE | NameSpace::kMAFTER, exists, err));
  EXPECT_FALSE(ns.bind("/nothing", "/a", 0, exists, err));
  EXPECT_EQ(err, "'/nothing' file does not exist");
}

}  // namespace
