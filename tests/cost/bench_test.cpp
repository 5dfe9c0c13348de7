// bench: the suite runs (short configurations), its lines parse back with
// observations.h, and its command line refuses bad flags with exit 2.
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "bench_suite.h"
#include "observations.h"
#include "tool_runner.h"

namespace dis::cost {
namespace {

using test::run_shell;
using test::tool;

std::string suite_dir() { return std::string(DIS_SOURCE_DIR) + "/samples/bench-suite"; }

BenchConfig config(std::uint32_t n) {
  BenchConfig c;
  c.suite_dir = suite_dir();
  c.outer = n;
  return c;
}

std::vector<Observation> parse(const std::string& text) {
  std::istringstream in(text);
  return read_observations(in, "bench output");
}

TEST(BenchSuite, EveryTestHasAUniqueNameAndADescription) {
  std::set<std::string> seen;
  for (const BenchTest& t : bench_tests()) {
    EXPECT_TRUE(seen.insert(t.name).second) << t.name;
    EXPECT_FALSE(t.description.empty()) << t.name;
    EXPECT_GE(t.outer, 1u);
    EXPECT_EQ(find_bench_test(t.name), &t);
  }
  for (const char* required :
       {"BASE-busec", "BASE-microsec", "BASE-nsec", "BASE-nsec-nogc", "SLEEP0", "GCSCHED", "GCIDLE",
        "INT", "BIG", "REAL", "STRCAT", "STRINDEX", "ARRAY", "LISTCONS", "LISTHD", "CALL", "MCALL",
        "CHAN", "ALLOC"})
    EXPECT_NE(find_bench_test(required), nullptr) << required;
  EXPECT_EQ(find_bench_test("NOPE"), nullptr);
}

TEST(BenchSuite, FindsTheSuiteDirectory) {
  EXPECT_EQ(find_suite_dir(suite_dir()), suite_dir());
  EXPECT_EQ(find_suite_dir("/nonexistent-dir"), "");
  EXPECT_FALSE(find_suite_dir("").empty());
}

TEST(BenchSuite, OpcodeFamiliesGiveOneValuePerOuterRepetition) {
  for (const char* name : {"LOOP", "INT", "BIG", "REAL", "STRCAT", "STRINDEX", "ARRAY", "LISTCONS",
                           "LISTHD", "CALL", "MCALL", "CHAN", "ALLOC", "ALLOC-nogc", "SLEEP0"}) {
    const BenchTest* t = find_bench_test(name);
    ASSERT_NE(t, nullptr) << name;
    BenchResult r = run_bench_test(*t, config(4));
    EXPECT_EQ(r.name, name);
    EXPECT_EQ(r.unit, "ns");
    EXPECT_EQ(r.inner, t->inner);
    ASSERT_EQ(r.values.size(), 4u) << name;
    // A loop of 10 or 100 iterations cannot take no time at all.
    for (double v : r.values) EXPECT_GT(v, 0) << name;
  }
}

TEST(BenchSuite, BusecHasMicrosecondResolution) {
  BenchResult ns = run_bench_test(*find_bench_test("BASE-busec"), config(50));
  ASSERT_EQ(ns.values.size(), 50u);
  // In ns, /dev/busec differences are whole microseconds.
  for (double v : ns.values) EXPECT_EQ(std::fmod(v, 1000.0), 0.0) << v;
  BenchConfig c = config(50);
  c.unit = BenchUnit::Us;
  BenchResult us = run_bench_test(*find_bench_test("BASE-busec"), c);
  EXPECT_EQ(us.unit, "us");
  for (double v : us.values) EXPECT_EQ(v, std::floor(v)) << v;
}

TEST(BenchSuite, GcStepsAreTimed) {
  BenchResult r = run_bench_test(*find_bench_test("GCSCHED"), config(30));
  ASSERT_EQ(r.values.size(), 30u) << r.note;
  for (double v : r.values) EXPECT_GT(v, 0);
  EXPECT_NE(r.note.find("steps"), std::string::npos);
}

TEST(BenchSuite, IdleEpisodesAreTimedOrCountedAsCutShort) {
  BenchResult r = run_bench_test(*find_bench_test("GCIDLE"), config(3));
  // Every sleep makes one idle episode: kept, or counted as cut short.
  std::size_t cut = 0;
  ASSERT_EQ(std::sscanf(r.note.c_str(), "3 idle episodes, %zu cut short", &cut), 1) << r.note;
  EXPECT_EQ(r.values.size() + cut, 3u);
  for (double v : r.values) EXPECT_GT(v, 0);
}

TEST(BenchSuite, LinesCarryTheSample) {
  BenchResult r;
  r.name = "X";
  r.unit = "ns";
  r.values = {1, 2, 3, 6};
  EXPECT_EQ(format_observation_line(observations_line(r)), "X:1l:Observation::Time:ns 1 2 3 6");
  SummaryValues s = summary_values(summary_line(r));
  EXPECT_EQ(s.n, 4);
  EXPECT_EQ(s.mean, 3);
  EXPECT_EQ(s.min, 1);
  EXPECT_EQ(s.max, 6);
}

TEST(BenchCli, ShortRunParsesBack) {
  auto r = run_shell(tool("bench") + " -n 5 -t BASE-nsec -t INT -t GCSCHED 2>&1");
  ASSERT_EQ(r.status, 0) << r.out;
  // The environment header comes first, as comment lines.
  EXPECT_EQ(r.out.rfind("# cpu: ", 0), 0u) << r.out;
  EXPECT_NE(r.out.find("# command: "), std::string::npos);
  EXPECT_NE(r.out.find("# INT: 5 observations, each the mean of an inner loop of 100"),
            std::string::npos)
      << r.out;
  std::vector<Observation> obs = parse(r.out);
  ASSERT_EQ(obs.size(), 3u);
  const char* names[] = {"BASE-nsec", "INT", "GCSCHED"};
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(obs[i].name, names[i]);
    EXPECT_TRUE(obs[i].is_summary());
    EXPECT_EQ(obs[i].yunit, "ns");
    SummaryValues s = summary_values(obs[i]);
    EXPECT_EQ(s.n, 5);
    EXPECT_LE(s.min, s.mean);
    EXPECT_LE(s.mean, s.max);
  }
}

TEST(BenchCli, ObservationsGiveExactlyNValues) {
  auto r = run_shell(tool("bench") + " --all -n 7 -t BASE-busec -t LISTHD -t SLEEP0 --us");
  ASSERT_EQ(r.status, 0) << r.out;
  std::vector<Observation> obs = parse(r.out);
  ASSERT_EQ(obs.size(), 3u);
  for (const Observation& o : obs) {
    EXPECT_EQ(o.style, "1l");
    EXPECT_EQ(o.xlabel, "Observation");
    EXPECT_EQ(o.yunit, "us");
    EXPECT_EQ(o.values.size(), 7u) << o.name;
  }
}

// bench times with the VM's timer, chosen from DIS_TIMER as in cost: a
// value it does not know is refused, not taken as rdtsc.
TEST(BenchCli, AnUnknownDisTimerIsAnError) {
  auto r = run_shell("DIS_TIMER=hpet " + tool("bench") + " -n 3 -t BASE-busec 2>&1");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.out, "bench: DIS_TIMER=hpet: expected rdtsc, rdtscp or clock\n");
  r = run_shell("DIS_TIMER=clock " + tool("bench") + " -n 3 -t BASE-busec");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("# timer: clock_gettime"), std::string::npos) << r.out;
}

TEST(BenchCli, EveryTestIsListed) {
  auto r = run_shell(tool("bench") + " --list");
  ASSERT_EQ(r.status, 0);
  std::istringstream in(r.out);
  std::string line;
  std::vector<std::string> listed;
  while (std::getline(in, line)) listed.push_back(line.substr(0, line.find(' ')));
  ASSERT_EQ(listed.size(), bench_tests().size());
  for (std::size_t i = 0; i < listed.size(); ++i) EXPECT_EQ(listed[i], bench_tests()[i].name);
}

TEST(BenchCli, JsonHasTheEnvironmentAndTheSample) {
  auto r = run_shell(tool("bench") + " --format json --all -n 3 -t CALL");
  ASSERT_EQ(r.status, 0) << r.out;
  nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_TRUE(j["environment"].is_object());
  EXPECT_TRUE(j["environment"]["cpu"].is_string());
  EXPECT_EQ(j["unit"], "ns");
  ASSERT_EQ(j["tests"].size(), 1u);
  EXPECT_EQ(j["tests"][0]["name"], "CALL");
  EXPECT_EQ(j["tests"][0]["n"], 3);
  EXPECT_EQ(j["tests"][0]["inner"], 100);
  EXPECT_EQ(j["tests"][0]["values"].size(), 3u);
}

TEST(BenchCli, OutFile) {
  std::string path = ::testing::TempDir() + "/bench_out.txt";
  auto r = run_shell(tool("bench") + " -n 3 -t BASE-microsec --out " + path);
  ASSERT_EQ(r.status, 0);
  EXPECT_EQ(r.out, "");
  std::vector<Observation> obs = parse(test::read_text(path));
  ASSERT_EQ(obs.size(), 1u);
  EXPECT_EQ(summary_values(obs[0]).n, 3);
}

TEST(BenchCli, BadFlagsExitTwoWithAMessage) {
  struct Case {
    const char* args;
    const char* message;
  } cases[] = {
      {"-t NOPE", "bench: no test named 'NOPE' (bench --list shows them)"},
      {"-n 0", "-n"},
      {"-n x", "-n"},
      {"--format xml", "--format"},
      {"--pin -1", "--pin"},
      {"--bogus", "--bogus"},
      {"--suite /nonexistent-dir", "--suite"},
  };
  for (const Case& c : cases) {
    auto r = run_shell(tool("bench") + " " + c.args + " 2>&1 >/dev/null");
    EXPECT_EQ(r.status, 2) << c.args;
    EXPECT_NE(r.out.find(c.message), std::string::npos) << c.args << ": " << r.out;
  }
  auto help = run_shell(tool("bench") + " --help");
  EXPECT_EQ(help.status, 0);
  EXPECT_NE(help.out.find("--pin"), std::string::npos);
  auto version = run_shell(tool("bench") + " --version");
  EXPECT_EQ(version.status, 0);
  EXPECT_EQ(version.out.rfind("bench ", 0), 0u);
}

// The VM limits reach the suite's programs: a tiny instruction budget stops
// the test with Dis's message and status 1.
TEST(BenchCli, VmLimitsReachThePrograms) {
  auto r = run_shell(tool("bench") + " -n 3 -t INT --max-instructions 1000 2>&1 >/dev/null");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.out.find("instruction limit"), std::string::npos) << r.out;
  auto ok = run_shell(tool("bench") + " -n 3 -t INT --heap-limit 64 --stack-limit 512 2>/dev/null");
  EXPECT_EQ(ok.status, 0);
  EXPECT_NE(ok.out.find("INT:summary:Sample:n:Time:ns 3 "), std::string::npos) << ok.out;
}

}  // namespace
}  // namespace dis::cost
