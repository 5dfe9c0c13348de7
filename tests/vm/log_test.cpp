// The diagnostic log (isa/log.h): off unless asked for, then the loader,
// verifier, collector, scheduler and kernel-process events at the level
// given by --log or DIS_LOG, which every tool takes; a bad level is a usage
// error.
#include "log.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "assembler.h"
#include "dis_runner.h"
#include "vm_test_util.h"

namespace fs = std::filesystem;

namespace {

std::string source(const std::string& rel) {
  return "'" + (fs::path(DIS_SOURCE_DIR) / rel).string() + "'";
}

// Restores the process-wide log after each in-process test.
struct LogTest : ::testing::Test {
  std::ostringstream log;
  void SetUp() override { dis::set_log_stream(&log); }
  void TearDown() override {
    dis::set_log_level(dis::LogLevel::Off);
    dis::set_log_stream(nullptr);
  }
  vmtest::Outcome run(const std::string& body) {
    return run(dis::assembly::assemble(vmtest::program(body), "t.s"));
  }
  vmtest::Outcome run(dis::Module m) {
    std::ostringstream out, err;
    dis::vm::Options o;
    o.out = &out;
    o.err = &err;
    dis::vm::VM vm(o);
    auto r = vm.run_module(std::move(m), "t.s", {"t.s"});
    return {r.status, out.str(), err.str()};
  }
};

TEST(LogLevels, ParseEveryNameAndRefuseOthers) {
  dis::LogLevel l = dis::LogLevel::Off;
  const std::pair<const char*, dis::LogLevel> names[] = {
      {"trace", dis::LogLevel::Trace}, {"debug", dis::LogLevel::Debug},
      {"info", dis::LogLevel::Info},   {"warn", dis::LogLevel::Warn},
      {"error", dis::LogLevel::Error}, {"off", dis::LogLevel::Off}};
  for (auto [name, level] : names) {
    EXPECT_TRUE(dis::parse_log_level(name, l)) << name;
    EXPECT_EQ(l, level) << name;
  }
  EXPECT_FALSE(dis::parse_log_level("DEBUG", l));
  EXPECT_FALSE(dis::parse_log_level("", l));
}

TEST_F(LogTest, OffByDefaultWritesNothing) {
  EXPECT_FALSE(dis::log_on(dis::LogLevel::Error));
  auto r = run(vmtest::print_int("$7"));
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "7\n");
  EXPECT_EQ(log.str(), "");
}

// A module the verifier refuses is a Warn event of the verifier, beside the
// refusal the user sees. The bad branch is made after assembly: the
// assembler refuses a branch past the end itself.
TEST_F(LogTest, VerifierRefusalIsAWarning) {
  auto bad = [] {
    dis::Module m = dis::assembly::assemble(vmtest::program(vmtest::print_int("$7")), "t.s");
    m.code[0] = dis::Instruction{dis::Op::jmp_, {}, {}, {dis::AddrMode::Imm, 9999, 0}};
    return m;
  };
  dis::set_log_level(dis::LogLevel::Warn);
  auto r = run(bad());
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("branch target out of range"), std::string::npos) << r.err;
  EXPECT_NE(log.str().find("[warning] verifier: refused t.s: "), std::string::npos) << log.str();
  EXPECT_NE(log.str().find("branch target out of range"), std::string::npos) << log.str();
  log.str("");
  dis::set_log_level(dis::LogLevel::Error);  // above Warn: not written
  EXPECT_EQ(run(bad()).status, 1);
  EXPECT_EQ(log.str(), "");
}

TEST_F(LogTest, DebugShowsTheLoaderAndTheThreads) {
  dis::set_log_level(dis::LogLevel::Debug);
  auto r = run(vmtest::print_int("$7"));
  EXPECT_EQ(r.out, "7\n");
  const std::string s = log.str();
  EXPECT_NE(s.find("[debug] loader: t.s: module "), std::string::npos) << s;
  EXPECT_NE(s.find("[debug] loader: $Sys: builtin module instance"), std::string::npos) << s;
  EXPECT_NE(s.find("[debug] sched: thread 0 starts"), std::string::npos) << s;
  EXPECT_EQ(s.find("[trace]"), std::string::npos) << s;  // below the threshold
}

TEST(LogTool, DisLogsCollectorEpochsAndThreadsOnStderr) {
  distest::Result r = distest::run_dis("--log debug --gc=ms " + source("tests/vm/gc/cycles.b"));
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("[debug] gc: epoch 1 ends after "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("[debug] loader: "), std::string::npos) << r.err;
  distest::Result quiet = distest::run_dis("--gc=ms " + source("tests/vm/gc/cycles.b"));
  EXPECT_EQ(quiet.err, "");
  EXPECT_EQ(quiet.out, r.out);
}

// A load that fails is an Info event of the loader: shown from info down,
// absent at warn and when the log is off, and the program's own output is
// the same either way.
TEST(LogTool, DisLogsALoaderRefusalAtInfoOnly) {
  const fs::path dir = distest::fresh_dir("log_load");
  const fs::path prog = dir / "noload.b";
  std::ofstream(prog)
      << "implement NoLoad;\n"
         "include \"sys.m\";\n\tsys: Sys;\ninclude \"draw.m\";\n"
         "NoLoad: module {\n\tinit: fn(nil: ref Draw->Context, nil: list of string);\n};\n"
         "init(nil: ref Draw->Context, nil: list of string)\n{\n"
         "\tsys = load Sys Sys->PATH;\n"
         "\tm := load NoLoad \"/no/such/module.dis\";\n"
         "\tif(m == nil)\n\t\tsys->print(\"nil\\n\");\n}\n";
  const std::string file = "'" + prog.string() + "'";
  distest::Result info = distest::run_dis("--log info " + file);
  EXPECT_EQ(info.status, 0) << info.err;
  EXPECT_EQ(info.out, "nil\n");
  EXPECT_NE(info.err.find("[info] loader: cannot load /no/such/module.dis: "), std::string::npos)
      << info.err;
  distest::Result warn = distest::run_dis("--log warn " + file);
  EXPECT_EQ(warn.out, "nil\n");
  EXPECT_EQ(warn.err.find("loader:"), std::string::npos) << warn.err;
  distest::Result off = distest::run_dis(file);
  EXPECT_EQ(off.out, "nil\n");
  EXPECT_EQ(off.err, "");
  fs::remove_all(dir);
}

TEST(LogTool, DisLogReadsDisLogAndRefusesABadLevel) {
  distest::Result r =
      distest::run_dis(source("tests/limbo/programs/statements.b"), "DIS_LOG=debug ");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("[debug] sched: thread 1 starts"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("[debug] sched: thread 1 ends"), std::string::npos) << r.err;
  distest::Result bad = distest::run_dis("--log loud " + source("samples/fib.b"));
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.err.find("--log"), std::string::npos) << bad.err;
}

TEST(LogTool, EveryToolTakesTheOption) {
  for (const char* tool : {"asm", "disdump", "dis", "limbo", "cost", "bench", "bstat", "plot"}) {
    const std::string bin = std::string(DIS_BIN_DIR) + "/" + tool;
    EXPECT_EQ(std::system((bin + " --log info --version >/dev/null 2>&1").c_str()), 0) << tool;
    // --version answers before options are checked, so the bad level goes
    // with an input file instead; the level is refused before the file is read.
    const fs::path err = fs::temp_directory_path() / ("log_tool_" + std::to_string(::getpid()));
    const int rc =
        std::system((bin + " --log loud no-such-file >/dev/null 2>'" + err.string() + "'").c_str());
    EXPECT_TRUE(WIFEXITED(rc) && WEXITSTATUS(rc) == 2) << tool;
    EXPECT_NE(distest::slurp(err).find("--log: loud not in"), std::string::npos) << tool;
    fs::remove(err);
  }
}

}  // namespace
