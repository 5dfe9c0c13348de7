// The command line the eight tools share (isa/tool_cli.h): the program's
// arguments by one rule, unknown options refused by name, the tool's own
// name in usage lines and messages, -o/--out as the output file, and
// reports that pipe into their clients.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "tool_runner.h"

namespace dis::cost::test {
namespace {

namespace fs = std::filesystem;

std::string temp(const std::string& name) {
  const fs::path dir = fs::path(testing::TempDir()) / "cli_rules";
  fs::create_directories(dir);
  return (dir / name).string();
}

// Prints its arguments (after argv[0]) in brackets.
std::string args_program() {
  const std::string path = temp("args.b");
  std::ofstream(path) << "implement Args;\ninclude \"sys.m\";\ninclude \"draw.m\";\n"
                         "Args: module { init: fn(nil: ref Draw->Context, a: list of string); };\n"
                         "init(nil: ref Draw->Context, a: list of string)\n{\n"
                         "\tsys := load Sys Sys->PATH;\n"
                         "\tfor (a = tl a; a != nil; a = tl a)\n\t\tsys->print(\"[%s]\", hd a);\n"
                         "\tsys->print(\"\\n\");\n}\n";
  return path;
}

std::string fib() { return source("samples/fib.b"); }

TEST(CliRules, UnknownOptionsAreRefusedByNameAndNothingRuns) {
  for (const std::string& args :
       {"--count -f " + fib() + " --formt json", "--hide-unexcuted -f " + fib(),
        "--bogus -f " + fib(), "--count --bogus " + fib(), "-f " + fib() + " --topp 3 -- 1"}) {
    ToolRun r = run_shell(tool("cost") + " " + args + " 2>&1");
    EXPECT_EQ(r.status, 2) << args << "\n" << r.out;
    EXPECT_EQ(r.out.rfind("cost: unknown option --", 0), 0u) << args << "\n" << r.out;
    // fib prints "fib(20) = 6765": the program did not run.
    EXPECT_EQ(r.out.find("fib("), std::string::npos) << args << "\n" << r.out;
  }
  ToolRun d = run_shell(tool("dis") + " --bogus " + fib() + " 2>&1");
  EXPECT_EQ(d.status, 2);
  EXPECT_EQ(d.out.rfind("dis: unknown option --bogus", 0), 0u) << d.out;
}

TEST(CliRules, WhatFollowsTheFileIsTheProgramsAndWithDashFAfterTheDoubleDash) {
  const std::string prog = args_program();
  struct Case {
    std::string tool, args, printed;
  };
  for (const Case& c : std::vector<Case>{
           {"dis", prog + " a --top 3 -f x", "[a][--top][3][-f][x]"},
           {"dis", "-f " + prog + " --gc ms -- a --bogus", "[a][--bogus]"},
           {"dis", "-- " + prog + " --version", "[--version]"},
           {"cost", "--count " + prog + " --top 3 b", "[--top][3][b]"},
           {"cost", "--count -f " + prog + " --top 3 -- a b", "[a][b]"},
           {"cost", "-f " + prog + " --count", ""},
           {"cost", "--count --out=/dev/null -f" + prog + " -- -x", "[-x]"},
       }) {
    ToolRun r = run_shell(tool(c.tool) + " " + c.args + " 2>/dev/null");
    EXPECT_EQ(r.status, 0) << c.tool << " " << c.args;
    EXPECT_EQ(r.out.substr(0, r.out.find('\n')), c.printed) << c.tool << " " << c.args;
  }
  // With -f, words before -- are the program's too (the paper's scripts
  // wrote `cost -f prog.b 12`), options the tool's.
  ToolRun words = run_shell(tool("cost") + " --count -f " + prog + " a --top 3 b -- c 2>/dev/null");
  EXPECT_EQ(words.status, 0);
  EXPECT_EQ(words.out.substr(0, words.out.find('\n')), "[a][b][c]");
  EXPECT_NE(words.out.find("rank"), std::string::npos) << words.out;
  // --top after a positional FILE is the program's: the text report shows
  // every line, not the top 3.
  ToolRun top = run_shell(tool("cost") + " --count " + prog + " --top 3 2>/dev/null");
  EXPECT_EQ(top.out.find("rank"), std::string::npos) << top.out;
}

TEST(CliRules, UsageLinesAndErrorsNameTheTool) {
  struct Case {
    std::string tool, usage;
  };
  for (const Case& c : std::vector<Case>{
           {"cost",
            "Usage: cost [OPTIONS] FILE [ARGS...]  |  cost -f FILE [OPTIONS] [-- ARGS...]  |  "
            "cost --diff A.json B.json"},
           {"dis", "Usage: dis [OPTIONS] FILE [ARGS...]  |  dis -f FILE [OPTIONS] [-- ARGS...]"},
           {"bench", "Usage: bench [OPTIONS]"},
           {"bstat", "Usage: bstat [OPTIONS] [FILE...]"},
           {"plot", "Usage: plot [OPTIONS] [FILE...]"},
           {"asm", "Usage: asm [OPTIONS] FILE.s"},
           {"limbo", "Usage: limbo [OPTIONS] FILE.b"},
           {"disdump", "Usage: disdump [OPTIONS] FILE.dis..."},
       }) {
    ToolRun help = run_shell(tool(c.tool) + " --help");
    EXPECT_EQ(help.status, 0) << c.tool;
    EXPECT_NE(help.out.find("\n" + c.usage + "\n"), std::string::npos) << help.out;
    EXPECT_EQ(help.out.find(DIS_BIN_DIR), std::string::npos) << help.out;
    ToolRun bad = run_shell(tool(c.tool) + " --no-such-option x 2>&1 </dev/null");
    EXPECT_EQ(bad.status, 2) << c.tool;
    EXPECT_EQ(bad.out.rfind(c.tool + ": ", 0), 0u) << bad.out;
    EXPECT_NE(bad.out.find("--no-such-option"), std::string::npos) << bad.out;
  }
}

TEST(CliRules, DashOIsTheOutputFileEverywhere) {
  const std::string obs = temp("obs.txt");
  std::ofstream(obs) << "A:1l:Observation::Time:ns 1 2 3 4 5\n";
  struct Case {
    std::string tool, args, out;
  };
  for (const Case& c : std::vector<Case>{
           {"cost", "--count -o " + temp("r.txt") + " " + fib(), temp("r.txt")},
           {"limbo", "-o " + temp("fib.dis") + " " + fib(), temp("fib.dis")},
           {"asm", "-o " + temp("hello.dis") + " " + source("samples/hello.s"), temp("hello.dis")},
           {"disdump", "-o " + temp("hello.s") + " " + temp("hello.dis"), temp("hello.s")},
           {"bstat", "-o " + temp("b.txt") + " " + obs + ".col", temp("b.txt")},
           {"plot", "-o " + temp("p.svg") + " " + obs, temp("p.svg")},
       }) {
    std::ofstream(obs + ".col") << "1\n2\n3\n4\n";
    fs::remove(c.out);
    ToolRun r = run_shell(tool(c.tool) + " " + c.args + " 2>&1 >/dev/null");
    EXPECT_EQ(r.status, 0) << c.tool << " " << c.args << "\n" << r.out;
    EXPECT_GT(fs::exists(c.out) ? fs::file_size(c.out) : 0, 0u) << c.tool << " " << c.args;
  }
}

TEST(CliRules, ReportsOnStdoutPipeIntoTheirClients) {
  // The program's own output goes to stderr, so each report is whole.
  ToolRun json = run_shell(tool("cost") + " --count --format json -f " + fib() +
                           " 2>/dev/null | python3 -c 'import json,sys; "
                           "print(json.load(sys.stdin)[\"mode\"])'");
  EXPECT_EQ(json.status, 0);
  EXPECT_EQ(json.out, "count\n");
  // The CSV's comment lines ("# outcome: ok") are skipped as pandas'
  // comment="#" skips them.
  ToolRun csv = run_shell(tool("cost") + " --count --format csv -f " + fib() +
                          " 2>/dev/null | python3 -c 'import csv,sys; "
                          "r = list(csv.reader(l for l in sys.stdin if l[0] != \"#\")); "
                          "print(r[0][:3], len(r) > 10)'");
  EXPECT_EQ(csv.status, 0);
  EXPECT_EQ(csv.out, "['kind', 'module', 'file'] True\n");
  // And the program's output is still there, on stderr.
  ToolRun err = run_shell(tool("cost") + " --count --format json -f " + fib() + " 2>&1 >/dev/null");
  EXPECT_NE(err.out.find("fib(20) = 6765"), std::string::npos) << err.out;
  // Or in a file of its own.
  const std::string own = temp("fib.out");
  ToolRun file = run_shell(tool("cost") + " --count --format json --program-output " + own +
                           " -f " + fib() + " 2>&1 >/dev/null");
  EXPECT_EQ(file.out, "");
  EXPECT_NE(read_text(own).find("fib(20) = 6765"), std::string::npos);
}

TEST(CliRules, CallgrindReportPipesIntoCallgrindAnnotate) {
  if (run_shell("command -v callgrind_annotate >/dev/null").status != 0)
    GTEST_SKIP() << "callgrind_annotate (Debian package valgrind) is not installed";
  ToolRun r = run_shell(tool("cost") + " --count --format callgrind -f " + fib() +
                        " 2>/dev/null | callgrind_annotate /dev/stdin 2>&1");
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(r.out.find("malformed"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("fib.b"), std::string::npos) << r.out;
}

TEST(CliRules, EmptyAndBinaryInputsAreNamedAndEscaped) {
  const std::string empty = temp("empty.s");
  std::ofstream(empty) << "# nothing but a comment\n\n";
  fs::remove(temp("empty.dis"));
  ToolRun a = run_shell("cd '" + temp("") + "' && '" + tool("asm") + "' empty.s 2>&1");
  EXPECT_EQ(a.status, 2);
  EXPECT_EQ(a.out,
            "empty.s: empty: no instructions or directives (an assembly file holds a module)\n");
  EXPECT_FALSE(fs::exists(temp("empty.dis")));
  ToolRun d = run_shell("'" + tool("dis") + "' " + empty + " 2>&1");
  EXPECT_EQ(d.status, 2);
  EXPECT_EQ(d.out.rfind(empty + ": empty:", 0), 0u) << d.out;
  // Control bytes and bytes that are not UTF-8 reach the terminal as \xNN.
  const std::string garbage = temp("garbage.b");
  std::ofstream(garbage) << "\x01\xff\x1b[31m\n";
  ToolRun g = run_shell("'" + tool("limbo") + "' " + garbage + " 2>&1");
  EXPECT_EQ(g.status, 2);
  EXPECT_EQ(g.out.find('\x1b'), std::string::npos) << g.out;
  EXPECT_EQ(g.out.find('\x01'), std::string::npos) << g.out;
  EXPECT_EQ(g.out.find('\xff'), std::string::npos) << g.out;
  EXPECT_NE(g.out.find("'\\x01'"), std::string::npos) << g.out;
}

// An absolute program path missing on the host names a file under --root,
// as `dis --root INFERNO /dis/wc.dis` runs Inferno's own command; the
// program's argv[0] stays the Dis path.
TEST(CliRules, AnAbsoluteProgramPathIsFoundUnderRoot) {
  const fs::path root = fs::path(temp("root"));
  fs::create_directories(root / "dis");
  ToolRun c = run_shell(tool("limbo") + " -o " + (root / "dis" / "args.dis").string() + " " +
                        args_program() + " 2>&1");
  ASSERT_EQ(c.status, 0) << c.out;
  ToolRun d = run_shell(tool("dis") + " --root " + root.string() + " /dis/args.dis x y 2>&1");
  EXPECT_EQ(d.status, 0) << d.out;
  EXPECT_EQ(d.out, "[x][y]\n");
  ToolRun k =
      run_shell(tool("cost") + " --count --root " + root.string() + " /dis/args.dis z 2>/dev/null");
  EXPECT_EQ(k.status, 0) << k.out;
  EXPECT_EQ(k.out.rfind("[z]\n", 0), 0u) << k.out;
  // Without --root the path is the host's, and missing.
  ToolRun m = run_shell(tool("dis") + " /dis/args.dis 2>&1");
  EXPECT_NE(m.status, 0);
  EXPECT_NE(m.out.find("/dis/args.dis"), std::string::npos) << m.out;
}

}  // namespace
}  // namespace dis::cost::test
