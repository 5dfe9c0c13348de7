// Every cost report records how the run ended (status, error, position,
// pc), and Ctrl-C stops a run and still writes the report of what ran.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "tool_runner.h"

namespace dis::cost::test {
namespace {

namespace fs = std::filesystem;

std::string temp(const std::string& name) {
  const fs::path dir = fs::path(testing::TempDir()) / "cost_outcome";
  fs::create_directories(dir);
  return (dir / name).string();
}

std::string program(const std::string& name, const std::string& body) {
  const std::string path = temp(name + ".b");
  std::ofstream(path) << "implement P;\ninclude \"sys.m\";\ninclude \"draw.m\";\n"
                         "P: module { init: fn(nil: ref Draw->Context, nil: list of string); };\n"
                         "init(nil: ref Draw->Context, nil: list of string)\n{\n"
                      << body << "}\n";
  return path;
}

// Line 8 divides by zero.
std::string zero_divide() { return program("div0", "\tx := 0;\n\ty := 13 / x;\n"); }

std::string first_line(const std::string& s) { return s.substr(0, s.find('\n')); }

TEST(CostOutcome, EveryFormatRecordsAFailure) {
  const std::string prog = zero_divide();
  ToolRun j = run_shell(tool("cost") + " --count --format json " + prog + " 2>/dev/null");
  EXPECT_EQ(j.status, 1);
  const nlohmann::json o = nlohmann::json::parse(j.out).at("outcome");
  EXPECT_EQ(o.at("status"), "failed");
  EXPECT_EQ(o.at("error"), "zero divide");
  EXPECT_EQ(o.at("where"), "div0.b:8");
  const int pc = o.at("pc").get<int>();
  EXPECT_GE(pc, 0);
  const std::string text = "failed: zero divide at div0.b:8 (pc " + std::to_string(pc) + ")";

  ToolRun csv = run_shell(tool("cost") + " --count --format csv " + prog + " 2>/dev/null");
  EXPECT_EQ(first_line(csv.out), "# outcome: " + text);
  ToolRun cg = run_shell(tool("cost") + " --count --format callgrind " + prog + " 2>/dev/null");
  EXPECT_NE(cg.out.find("\ndesc: Outcome: " + text + "\n"), std::string::npos) << cg.out;
  ToolRun txt = run_shell(tool("cost") + " --count " + prog + " 2>/dev/null");
  EXPECT_NE(txt.out.find("\noutcome: " + text + "; the figures are of what ran\n"),
            std::string::npos)
      << txt.out;
}

TEST(CostOutcome, ASuccessIsRecordedToo) {
  ToolRun j = run_shell(tool("cost") + " --count --format json " + source("samples/hello.b") +
                        " 2>/dev/null");
  EXPECT_EQ(j.status, 0);
  EXPECT_EQ(nlohmann::json::parse(j.out).at("outcome"),
            nlohmann::json({{"status", "ok"}, {"error", ""}}));
  ToolRun csv = run_shell(tool("cost") + " --count --format csv " + source("samples/hello.b") +
                          " 2>/dev/null");
  EXPECT_EQ(first_line(csv.out), "# outcome: ok");
}

TEST(CostOutcome, CtrlCStopsTheRunAndStillWritesTheReport) {
  // Runs until stopped (the instruction limit only keeps a broken test from
  // hanging: it would say "instruction limit", not "interrupted").
  const std::string prog = program("forever", "\tn := 0;\n\tfor (;;)\n\t\tn++;\n");
  const std::string out = temp("forever.json");
  fs::remove(out);
  ToolRun r = run_shell(tool("cost") + " --count --max-instructions 20000000000 --format json -o " +
                        out + " " + prog + " 2>" + out +
                        ".err & pid=$!; sleep 2; kill -INT $pid; " + "wait $pid; echo $?");
  EXPECT_EQ(r.out, "130\n") << read_text(out + ".err");
  EXPECT_NE(read_text(out + ".err").find("cost: interrupted; the report is of what ran"),
            std::string::npos);
  const nlohmann::json j = nlohmann::json::parse(read_text(out));
  EXPECT_EQ(j.at("outcome").at("status"), "interrupted");
  EXPECT_EQ(j.at("outcome").at("error"), "interrupted");
  EXPECT_GT(j.at("total_instructions").get<std::uint64_t>(), 1000000u);
}

}  // namespace
}  // namespace dis::cost::test
