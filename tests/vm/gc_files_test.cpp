// Sys->FD objects close their host file when freed: by reference count, by
// the collector (a cycle, or anything under --gc=ms), and at exit. With the
// descriptor limit at 100, a program opens the same file 5000 times and
// drops each FD (a third of them inside a cycle) in all three GC modes.
// Files still referenced when a program ends close when the VM goes: run in
// process, the host's open descriptors (/proc/self/fd) are back to what
// they were once the VM is destroyed.
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>
#include <string>

#include "dis_runner.h"
#include "gc.h"
#include "vm.h"

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

std::size_t open_descriptors() {
  std::size_t n = 0;
  for ([[maybe_unused]] auto& e : fs::directory_iterator("/proc/self/fd")) ++n;
  return n;
}

// Compiles tests/vm/gc/NAME.b with the built limbo into dir/NAME.dis (this
// test binary has no Limbo front end of its own).
fs::path compile_gc_prog(const std::string& name, const fs::path& dir) {
  fs::path src = fs::path(DIS_SOURCE_DIR) / "tests" / "vm" / "gc" / (name + ".b");
  fs::path out = dir / (name + ".dis");
  std::string cmd =
      std::string(DIS_BIN_DIR) + "/limbo -o '" + out.string() + "' '" + src.string() + "'";
  EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
  return out;
}

TEST(GcFiles, FilesStillReferencedCloseWhenTheVmGoes) {
  constexpr int kFiles = 40;
  fs::path dir = distest::fresh_dir("dis_keepfiles");
  fs::path prog = compile_gc_prog("keepfiles", dir);
  for (dis::vm::GcMode mode :
       {dis::vm::GcMode::Dis, dis::vm::GcMode::MarkSweep, dis::vm::GcMode::Stress}) {
    const std::size_t before = open_descriptors();
    std::size_t during = 0;
    {
      std::ostringstream out, err;
      dis::vm::Options o;
      o.out = &out;
      o.err = &err;
      o.gc = mode;
      dis::vm::VM vm(o);
      dis::vm::RunResult r =
          vm.run_file(prog.string(), {prog.string(), dir.string(), std::to_string(kFiles)});
      EXPECT_EQ(r.status, 0) << r.message << err.str();
      EXPECT_EQ(out.str(), "open " + std::to_string(kFiles) + "\n");
      during = open_descriptors();
    }
    // Without reference counts nothing has been freed yet: every file is
    // still open after the run, and closes with the VM.
    if (mode == dis::vm::GcMode::MarkSweep) {
      EXPECT_EQ(during, before + kFiles);
    }
    EXPECT_GE(during, before);
    EXPECT_EQ(open_descriptors(), before) << static_cast<int>(mode);
  }
  fs::remove_all(dir);
}

}  // namespace
