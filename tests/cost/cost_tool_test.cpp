// The `cost` tool end to end: golden count views (deterministic), counts
// checked against values computed by hand, structural checks on the timed
// view, the paper's BASE shape, JSON against the schema, errors, --diff.
//
// Regenerate goldens after an intended change: DIS_UPDATE_GOLDEN=1 test_cost
// (then read the diff).
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <pthread.h>
#include <sched.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <thread>

#include "cost_run.h"
#include "json_schema_checker.h"
#include "timer.h"
#include "tool_runner.h"

namespace dis::cost {
namespace {

using nlohmann::json;
using test::read_text;
using test::run_shell;
using test::tool;

// A run of `program` (a path under the source tree) whose output goes to
// `sink`.
RunSpec spec_for(const std::string& program, std::ostringstream& sink) {
  RunSpec spec;
  spec.program = test::source(program);
  spec.args = {spec.program};
  spec.vm.out = &sink;
  return spec;
}

std::string tmp(const std::string& name) {
  auto dir =
      std::filesystem::temp_directory_path() / ("cost_tool_test_" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  return (dir / name).string();
}

// Runs cost with the report going to a file; returns (status, report).
std::pair<int, std::string> cost_report(const std::string& args, const std::string& name) {
  std::string out = tmp(name);
  auto r = run_shell(tool("cost") + " --out " + out + " " + args + " >/dev/null 2>&1");
  return {r.status, read_text(out)};
}

void expect_golden(const std::string& name, const std::string& actual) {
  std::string path = test::source("tests/cost/golden/" + name);
  if (std::getenv("DIS_UPDATE_GOLDEN")) {
    std::ofstream(path, std::ios::binary) << actual;
    return;
  }
  EXPECT_EQ(actual, read_text(path)) << "golden " << path;
}

// The report's first line names the program as given: make it stable.
std::string without_program_path(std::string s, const std::string& path) {
  for (std::size_t at; (at = s.find(path)) != std::string::npos;)
    s.replace(at, path.size(), "PROG");
  return s;
}

TEST(CostTool, GoldenCountViews) {
  for (const char* name : {"fib", "loop", "sieve", "calls"}) {
    std::string prog = test::source(std::string("samples/") + name + ".b");
    auto [status, report] = cost_report("--count " + prog, std::string(name) + ".count.txt");
    EXPECT_EQ(status, 0) << name;
    expect_golden(std::string("tool_") + name + "_count.txt", without_program_path(report, prog));
  }
}

TEST(CostTool, GoldenCountViewOfOneModuleHidingUnexecutedLines) {
  std::string prog = test::source("samples/base.b");
  auto [status, report] = cost_report("--count --hide-unexecuted -s Base -f " + prog, "base.txt");
  EXPECT_EQ(status, 0);
  // The program-wide total includes the Samples module, whose min/max updates
  // depend on the timings observed: only the shown module is deterministic.
  report = std::regex_replace(report, std::regex("instructions: [0-9]+"), "instructions: N");
  expect_golden("tool_base_count.txt", without_program_path(report, prog));
  EXPECT_EQ(report.find("module Samples"), std::string::npos);
}

// The paper writes `-s bench`: a name that differs only in case finds the
// module, and the report is the one `-s Base` gives.
TEST(CostTool, ModuleNameMayDifferInCase) {
  std::string prog = test::source("samples/base.b");
  auto [exact_status, exact] = cost_report("--count -s Base -f " + prog, "base_exact.txt");
  auto [folded_status, folded] = cost_report("--count -s base -f " + prog, "base_folded.txt");
  EXPECT_EQ(exact_status, 0);
  EXPECT_EQ(folded_status, 0);
  // As in the golden above, the program-wide total depends on timings.
  const auto shown = [](const std::string& r) {
    return std::regex_replace(std::regex_replace(r, std::regex("env (command|date):[^\n]*\n"), ""),
                              std::regex("instructions: [0-9]+"), "instructions: N");
  };
  EXPECT_NE(exact.find("== module Base"), std::string::npos);
  EXPECT_EQ(exact.find("module Samples"), std::string::npos);
  EXPECT_EQ(shown(folded), shown(exact));
}

// fib(n) makes 2 fib(n+1) - 1 calls; the sample calls it for 0, 5, .. 20.
TEST(CostTool, CountsAreExact) {
  Module m = load_program(test::source("samples/fib.b"));
  std::ostringstream sink;
  RunSpec spec = spec_for("samples/fib.b", sink);
  spec.mode = vm::ProbeMode::Count;
  RunOutcome counted = run_costed(m, spec);
  auto fibs = [](int n) {
    std::uint64_t a = 0, b = 1;
    for (int i = 0; i < n; ++i) b = a + b, a = b - a;
    return a;
  };
  std::uint64_t calls = 0;
  for (int i = 0; i <= 20; i += 5) calls += 2 * fibs(i + 1) - 1;
  ASSERT_EQ(counted.data.modules.size(), 1u);
  const ModuleCost& mc = counted.data.modules[0];
  // `if(n < 2)` is blew $2,n (Inferno's order of a comparison's operands).
  std::uint64_t blew = 0;
  for (std::size_t pc = 0; pc < mc.module->code.size(); ++pc)
    if (mc.module->code[pc].op == Op::blew_) blew += mc.pcs[pc].count;
  EXPECT_EQ(blew, calls);
  // Timed and sampled runs count exactly the same, pc by pc.
  for (vm::ProbeMode mode : {vm::ProbeMode::Time, vm::ProbeMode::Sampled}) {
    spec.mode = mode;
    RunOutcome timed = run_costed(m, spec);
    ASSERT_EQ(timed.data.modules.size(), 1u);
    for (std::size_t pc = 0; pc < mc.pcs.size(); ++pc)
      ASSERT_EQ(timed.data.modules[0].pcs[pc].count, mc.pcs[pc].count) << "pc " << pc;
    EXPECT_EQ(timed.instructions, counted.instructions);
  }
  // Inclusive time per function: init contains every instruction (the
  // sampled view's budget chunks included: a call in mid-chunk must see the
  // slice's instructions so far, not the chunk's).
  for (vm::ProbeMode mode : {vm::ProbeMode::Time, vm::ProbeMode::Sampled}) {
    spec.mode = mode;
    spec.sample_every = 3;
    RunOutcome timed = run_costed(m, spec);
    const auto& calls_of = timed.data.modules[0].function_calls;
    std::map<std::int32_t, FunctionCall> by_pc;
    for (const FunctionCall& f : calls_of) by_pc[f.entry_pc] = f;
    for (const FunctionInfo& f : m.functions) {
      ASSERT_TRUE(by_pc.count(f.pc)) << f.name;
      if (f.name == "fib") {
        EXPECT_EQ(by_pc[f.pc].calls, calls);
      }
      if (f.name == "init") {
        EXPECT_EQ(by_pc[f.pc].calls, 1u);
        EXPECT_EQ(by_pc[f.pc].inclusive_instructions, timed.instructions);
      }
    }
  }
}

// Sampled mode times a builtin only inside a sampled mcall: its calls stay
// exact (per builtin and per call site), about one in N is timed, and the
// call sites' ticks are estimated from the timed ones.
TEST(CostTool, SampledViewSamplesBuiltinCalls) {
  Module m = load_program(test::source("samples/nbody.b"));
  std::ostringstream sink;
  RunSpec spec = spec_for("samples/nbody.b", sink);
  auto sqrt_of = [](const RunOutcome& o) {
    for (const NamedRecord& b : o.data.builtins)
      if (b.name == "Math->sqrt") return b.rec;
    return vm::ProbeRecord{};
  };
  auto site_calls = [](const RunOutcome& o) {
    std::uint64_t calls = 0, ticks = 0;
    for (const ModuleCost& mc : o.data.modules)
      for (const CallSite& s : mc.call_sites)
        if (s.callee_name == "Math->sqrt") calls += s.calls, ticks += s.inclusive_ticks;
    return std::pair{calls, ticks};
  };
  spec.mode = vm::ProbeMode::Count;
  RunOutcome counted = run_costed(m, spec);
  const std::uint64_t calls = sqrt_of(counted).count;
  ASSERT_GT(calls, 1000u);
  spec.mode = vm::ProbeMode::Time;
  RunOutcome timed = run_costed(m, spec);
  EXPECT_EQ(sqrt_of(timed).count, calls);
  EXPECT_EQ(sqrt_of(timed).timed, calls);
  spec.mode = vm::ProbeMode::Sampled;
  spec.sample_every = 10;
  RunOutcome sampled = run_costed(m, spec);
  const vm::ProbeRecord r = sqrt_of(sampled);
  EXPECT_EQ(r.count, calls);
  EXPECT_EQ(site_calls(sampled).first, calls);
  // One in about 10 mcalls is sampled (random gaps: a wide margin).
  EXPECT_GT(r.timed, calls / 30);
  EXPECT_LT(r.timed, calls / 4);
  // The sites' ticks are scaled up from the timed calls: about the
  // record's estimated total, not the timed tenth of it.
  const double est = r.total_estimate();
  const auto ticks = static_cast<double>(site_calls(sampled).second);
  EXPECT_GT(ticks, 0.8 * est);
  EXPECT_LT(ticks, 1.2 * est + 1000);
}

// A sleep is no host preemption: the recorder ends its CPU-time batch when
// the thread is suspended in the sleeping builtin and before the scheduler
// idles (CostRecorder::preempted_ns), so 4 x 50 ms asleep stay out of it.
TEST(CostTool, SleepIsNoPreemption) {
  const std::string prog = tmp("sleeper.b");
  std::ofstream(prog) << "implement Sleeper;\ninclude \"sys.m\";\n\tsys: Sys;\n"
                         "include \"draw.m\";\nSleeper: module {\n"
                         "\tinit: fn(nil: ref Draw->Context, nil: list of string);\n};\n"
                         "init(nil: ref Draw->Context, nil: list of string)\n{\n"
                         "\tsys = load Sys Sys->PATH;\n\tfor(i := 0; i < 4; i++)\n"
                         "\t\tsys->sleep(50);\n}\n";
  Module m = load_program(prog);
  RunSpec spec;
  spec.program = prog;
  spec.args = {prog};
  std::ostringstream sink;
  spec.vm.out = &sink;
  spec.mode = vm::ProbeMode::Time;
  RunOutcome r = run_costed(m, spec);
  EXPECT_EQ(r.status, 0);
  EXPECT_GE(r.run_ns, 200e6);
  EXPECT_GE(r.data.preempted_ns, 0);
  EXPECT_LT(r.data.preempted_ns, 100e6);
}

// Host preemption found whole in one instruction interval leaves it for the
// bucket "preempted": a busy thread shares this thread's CPU, so the run is
// preempted every few milliseconds. Fails when the long intervals stay in
// their instructions (no bucket) or when setting them aside loses executions.
// One timed run of loop.b beside a busy thread pinned to the same CPU.
RunOutcome timed_beside_a_rival(const Module& m, RunSpec spec) {
  cpu_set_t old, one;
  EXPECT_EQ(pthread_getaffinity_np(pthread_self(), sizeof old, &old), 0);
  int cpu = 0;
  while (cpu < CPU_SETSIZE && !CPU_ISSET(cpu, &old)) ++cpu;
  CPU_ZERO(&one);
  CPU_SET(cpu, &one);
  EXPECT_EQ(pthread_setaffinity_np(pthread_self(), sizeof one, &one), 0);
  std::atomic<bool> stop{false};
  std::thread rival([&] {
    pthread_setaffinity_np(pthread_self(), sizeof one, &one);
    while (!stop.load(std::memory_order_relaxed)) {
    }
  });
  spec.mode = vm::ProbeMode::Time;
  RunOutcome r = run_costed(m, spec);
  stop = true;
  rival.join();
  pthread_setaffinity_np(pthread_self(), sizeof old, &old);
  return r;
}

// Every run: the counts exact, the bucket no more than the preemption
// measured. How much the rival preempts depends on the host's other load
// (beside other busy processes it can be almost nothing), so the bucket
// must hold most of a large preemption in one of up to three runs.
TEST(CostTool, PreemptionLeavesTheInstructions) {
  const std::string prog = test::source("perf/programs/loop.b");
  Module m = load_program(prog);
  RunSpec spec;
  spec.program = prog;
  spec.args = {prog, "3000000"};
  std::ostringstream out;
  spec.vm.out = &out;
  spec.mode = vm::ProbeMode::Count;
  const RunOutcome c = run_costed(m, spec);
  bool shown = false;
  std::string tries;
  for (int attempt = 0; attempt < 3 && !shown; ++attempt) {
    const RunOutcome r = timed_beside_a_rival(m, spec);
    ASSERT_EQ(r.status, 0);
    EXPECT_EQ(r.instructions, c.instructions);
    std::uint64_t executions = 0;
    for (const ModuleCost& mc : r.data.modules)
      for (const vm::ProbeRecord& rec : mc.pcs) executions += rec.count;
    EXPECT_EQ(executions, r.instructions);
    double moved = 0;
    for (const NamedRecord& b : r.data.buckets)
      if (b.name == vm::kPreemptedBucket) moved = r.data.ns(b.rec.total_estimate());
    // The measured total is a signed sum over batches (a batch with no
    // preemption reads a few microseconds either side of zero), while the
    // bucket only takes from positive ones: 1 ms of slack for that noise.
    EXPECT_LE(moved, r.data.preempted_ns * 1.001 + 1e6);
    shown = r.data.preempted_ns > 10e6 && moved > 0.5 * r.data.preempted_ns;
    tries += fmt::format(" (preempted {} ns, moved {} ns)", r.data.preempted_ns, moved);
  }
  EXPECT_TRUE(shown) << tries;
}

json timed_json(const std::string& args, const std::string& name) {
  auto [status, report] = cost_report("--format json " + args, name);
  EXPECT_EQ(status, 0) << args;
  return json::parse(report);
}

TEST(CostTool, TimedViewIsConsistent) {
  std::string prog = test::source("samples/bintree.b");
  json t = timed_json(prog, "bintree.json");
  json c = json::parse(cost_report("--count --format json " + prog, "bintree_c.json").second);
  EXPECT_GT(t["base"]["ticks"].get<std::uint64_t>(), 0u);
  EXPECT_GT(t["timer_read_ns"].get<double>(), 0);
  // Every executed line of the count view is in the timed view with the same counts.
  std::map<std::string, std::uint64_t> counts;
  for (const json& m : c["modules"])
    for (const json& l : m["lines"])
      for (const json& op : l["ops"])
        counts[m["name"].get<std::string>() + ":" + std::to_string(op["pc"].get<int>())] =
            op["count"];
  std::size_t seen = 0;
  for (const json& m : t["modules"])
    for (const json& l : m["lines"])
      for (const json& op : l["ops"]) {
        std::string key = m["name"].get<std::string>() + ":" + std::to_string(op["pc"].get<int>());
        ASSERT_TRUE(counts.count(key)) << key;
        EXPECT_EQ(op["count"].get<std::uint64_t>(), counts[key]) << key;
        EXPECT_EQ(op["timed"], op["count"]) << key;
        double mn = op["min_ns"], mean = op["mean_ns"], mx = op["max_ns"], sd = op["std_ns"];
        EXPECT_LE(mn, mean + 1e-9) << key;
        EXPECT_LE(mean, mx + 1e-9) << key;
        EXPECT_GE(sd, 0) << key;
        ++seen;
      }
  EXPECT_EQ(seen, counts.size());
  // bintree allocates trees: the collector ran, and its buckets are there.
  std::map<std::string, std::uint64_t> buckets;
  for (const json& b : t["buckets"]) buckets[b["name"]] = b["count"];
  EXPECT_GT(buckets["gc.mark"], 0u);
  EXPECT_GT(buckets["gc.roots"], 0u);
  EXPECT_GT(buckets["scheduler"], 0u);
  EXPECT_GT(t["refcount_frees"]["count"].get<std::uint64_t>(), 0u);
}

TEST(CostTool, TimerFlagChoosesTheRead) {
  // Where the CPU or its hypervisor hides RDTSCP (bhyve on AMD EPYC), the
  // fenced read falls back to the clock and says why; rdtsc still works.
  const vm::TscFeatures cpu = vm::tsc_features();
  const bool rdtscp = cpu.rdtscp, invariant = cpu.invariant;
  for (const auto& [flag, name] :
       {std::pair{"rdtscp", rdtscp && invariant ? "rdtscp+lfence" : "clock_gettime"},
        {"rdtsc", invariant ? "tsc (rdtsc)" : "clock_gettime"},
        {"clock", "clock_gettime"}}) {
    json t = timed_json(std::string("--timer ") + flag + " " + test::source("samples/loop.b"),
                        std::string("timer_") + flag + ".json");
    EXPECT_NE(t["timer"]["name"].get<std::string>().find(name), std::string::npos)
        << flag << ": " << t["timer"]["name"];
    if (std::string(flag) == "rdtscp" && !rdtscp) {
      EXPECT_EQ(t["timer"]["fallback_reason"],
                "no RDTSCP (the fenced read, --timer rdtscp, needs it)");
    }
    if (std::string(flag) == "clock") {
      EXPECT_EQ(t["timer"]["fallback_reason"],
                "the clock was asked for (--timer clock, DIS_TIMER=clock)");
    }
  }
  auto r = run_shell(tool("cost") + " --timer hpet " + test::source("samples/loop.b") + " 2>&1");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("--timer"), std::string::npos) << r.out;
  // The environment's choice is checked as the flag's is, not taken as rdtsc.
  r = run_shell("DIS_TIMER=hpet " + tool("cost") + " " + test::source("samples/loop.b") + " 2>&1");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.out, "cost: DIS_TIMER=hpet: expected rdtsc, rdtscp or clock\n");
}

// The count view reads no clock, so it does not pay the ~30 ms calibration;
// its environment says so instead of naming a timer it never read.
TEST(CostTool, CountViewNeverCalibratesTheTimer) {
  json c = json::parse(
      cost_report("--count --format json " + test::source("samples/loop.b"), "count_env.json")
          .second);
  EXPECT_EQ(c["environment"]["timer"], "none (no clock read)") << c["environment"];
  EXPECT_EQ(c["environment"]["tsc_hz"], 0);
  json t = timed_json(test::source("samples/loop.b"), "timed_env.json");
  EXPECT_NE(t["environment"]["timer"], "none (no clock read)");
}

// The sampled view runs fused loop-backs (addw, jmp, compare) fused too,
// except where its countdown ends: each instruction, a fused one's second
// and third included, is timed in about its share of the samples.
TEST(CostTool, SampledViewTimesFusedInstructionsInTheirShare) {
  json j = timed_json("--sample 7 " + test::source("samples/loop.b"), "sampled_share.json");
  int hot = 0;
  for (const auto& m : j["modules"])
    for (const auto& l : m["lines"])
      for (const auto& op : l["ops"]) {
        const auto count = op["count"].get<std::uint64_t>();
        const auto timed = op["timed"].get<std::uint64_t>();
        if (count < 1000) continue;
        ++hot;
        EXPECT_GT(timed * 14, count) << op;
        EXPECT_LT(timed * 4, count) << op;
      }
  EXPECT_GE(hot, 8);
}

TEST(CostTool, JsonValidatesAgainstTheSchema) {
  std::ifstream in(test::source("cost/cost_schema.json"));
  test::SchemaChecker checker(json::parse(in));
  auto errors = [&](const json& j) {
    std::string s;
    for (const auto& e : checker.check(j)) s += e + "\n";
    return s;
  };
  EXPECT_EQ(errors(timed_json(test::source("samples/base.b"), "base.json")), "");
  EXPECT_EQ(
      errors(timed_json("--accuracy --sample 10 " + test::source("samples/fib.b"), "fib.json")),
      "");
  EXPECT_EQ(errors(timed_json("--repeat 2 " + test::source("samples/loop.b"), "loop.json")), "");
  EXPECT_EQ(errors(timed_json("--base stream --accuracy " + test::source("samples/loop.b"),
                              "sloop.json")),
            "");
  EXPECT_EQ(
      errors(json::parse(
          cost_report("--count --format json " + test::source("samples/sieve.b"), "sieve.json")
              .second)),
      "");
}

// The paper's per-line shape of BASE (perform.txt, "Costing").
TEST(CostTool, BaseHasThePapersShape) {
  json j = timed_json("-s Base -f " + test::source("samples/base.b"), "base_shape.json");
  ASSERT_EQ(j["modules"].size(), 1u);
  std::map<std::string, std::vector<std::string>> ops_of_text;
  std::vector<std::string> tstamp_ops;
  for (const json& l : j["modules"][0]["lines"]) {
    std::string text = l.value("text", "");
    std::vector<std::string> ops;
    for (const json& op : l["ops"]) ops.push_back(op["op"]);
    if (text.find("t0 = tstamp();") != std::string::npos) ops_of_text["t0"] = ops;
    if (text.find("s.add(t1 - t0);") != std::string::npos) ops_of_text["add"] = ops;
    int line = l["line"];
    if (line >= 35 && line <= 39) tstamp_ops.insert(tstamp_ops.end(), ops.begin(), ops.end());
  }
  EXPECT_EQ(ops_of_text["t0"], (std::vector<std::string>{"frame", "lea", "call"}));
  EXPECT_EQ(ops_of_text["add"], (std::vector<std::string>{"mframe", "movp", "subl", "mcall"}));
  std::vector<std::string> paper = {"newa", "mcall", "slicea", "cvtac", "cvtcl", "ret"};
  std::size_t k = 0;
  for (const std::string& op : tstamp_ops)
    if (k < paper.size() && op == paper[k]) ++k;
  EXPECT_EQ(k, paper.size()) << "tstamp() lacks the paper's subsequence";
  std::map<std::string, std::uint64_t> builtins;
  for (const json& b : j["builtins"]) builtins[b["name"]] = b["count"];
  EXPECT_EQ(builtins["Sys->read"], 2000u);
  EXPECT_EQ(builtins["Bench->microsec"], 2000u);
}

TEST(CostTool, ViewsAndFormatsRun) {
  std::string prog = test::source("samples/calls.b");
  for (const char* args : {"--by fn", "--by op", "--by pc", "--top 3", "--profile", "--format csv",
                           "--format callgrind", "--base median", "--pin 0"}) {
    auto [status, report] = cost_report(std::string(args) + " " + prog, "views.txt");
    EXPECT_EQ(status, 0) << args;
    EXPECT_FALSE(report.empty()) << args;
  }
  auto [status, fn] = cost_report("--by fn " + prog, "fn.txt");
  EXPECT_NE(fn.find("inclusive"), std::string::npos) << fn;
  auto [s2, cg] = cost_report("--format callgrind " + prog, "cg.txt");
  EXPECT_EQ(cg.rfind("# callgrind format", 0), 0u);
}

// The views that show inclusive figures keep the shadow call stack, which the
// others leave off (cost_main.cpp): the count view's --by fn and callgrind
// still have every call.
TEST(CostTool, CallViewsKeepTheCallStack) {
  std::string prog = test::source("samples/calls.b");
  auto [status, fn] = cost_report("--count --by fn " + prog, "cfn.txt");
  EXPECT_EQ(status, 0);
  // twice is inlined (one return), as Inferno's compiler does; pair stays
  // a call.
  EXPECT_NE(fn.find("init          8         8032   80.0        10038        1"), std::string::npos)
      << fn;
  EXPECT_NE(fn.find("pair          2            6    0.1            6        1"), std::string::npos)
      << fn;
  EXPECT_NE(fn.find("Acc.add       0         2000   19.9         2000     1000"), std::string::npos)
      << fn;
  auto [s2, cg] = cost_report("--count --format callgrind " + prog, "ccg.txt");
  EXPECT_NE(cg.find("\ncalls=1000 "), std::string::npos) << cg;
}

TEST(CostTool, AccuracyReportsTheRatio) {
  auto r = run_shell(tool("cost") + " --accuracy " + test::source("samples/loop.b") + " 2>&1");
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.out.find("accuracy: plain run "), std::string::npos) << r.out;
  // One row per base policy in the table, the reported one starred.
  for (const char* p : {"\n  min", "\n  median", "\n  mean", "\n  stream"})
    EXPECT_NE(r.out.find(p), std::string::npos) << p << r.out;
  EXPECT_NE(r.out.find("\n  stream*  "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("  base     per instr attributed   wall bias ns    CPU"), std::string::npos);
  // The host gauged before each of the five plain runs and after the last.
  EXPECT_NE(r.out.find("accuracy: host gauge: the plain streams took "), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find(" beside the plain runs (median of 6): "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("host: CPU over the host drift"), std::string::npos) << r.out;
}

// --base stream names its calibration in the header, per instruction class;
// --accuracy weighs it beside the empty-measurement bases.
TEST(CostTool, StreamBaseIsParsedAndReported) {
  auto [status, report] =
      cost_report("--base stream " + test::source("samples/loop.b"), "stream.txt");
  EXPECT_EQ(status, 0);
  EXPECT_NE(report.find("\nbase: stream, per instruction class (below); "), std::string::npos)
      << report;
  EXPECT_NE(report.find("\nbase stream: per instruction arith "), std::string::npos) << report;
  EXPECT_NE(report.find(", call "), std::string::npos) << report;
  // Where the rounds ran depends on how long the run took (a loaded host
  // stretches it past the first round's wait): the header says which.
  EXPECT_NE(report.find("median of 31 rounds of "), std::string::npos) << report;
  EXPECT_TRUE(report.find(" instructions, run before the program (spread ") != std::string::npos ||
              report.find(" between the program's slices, scaled by ") != std::string::npos)
      << report;
  // The default is the stream base; the paper's min base calibrates none.
  auto [s2, plain] = cost_report(test::source("samples/loop.b"), "defstream.txt");
  EXPECT_NE(plain.find("\nbase stream: per instruction arith "), std::string::npos) << plain;
  auto [s3, min] = cost_report("--base min " + test::source("samples/loop.b"), "nostream.txt");
  EXPECT_EQ(min.find("base stream:"), std::string::npos) << "calibrated only when needed";
  json j = timed_json("--base stream " + test::source("samples/loop.b"), "stream.json");
  EXPECT_EQ(j["base"]["policy"], "stream");
  EXPECT_GT(j["base"]["stream_class_ticks"]["arith"].get<double>(), 0);
  EXPECT_GT(j["base"]["stream_rounds"].get<int>(), 0);
  const int in_run = j["base"]["stream_run_rounds"].get<int>();
  EXPECT_LE(in_run, j["base"]["stream_rounds"].get<int>());
  if (in_run == 0)
    EXPECT_EQ(j["base"]["stream_level"].get<double>(), 1.0) << "no round ran during the run";
  else
    EXPECT_GT(j["base"]["stream_level"].get<double>(), 0);
  json ja = timed_json("--accuracy " + test::source("samples/loop.b"), "gauge.json");
  EXPECT_EQ(ja["accuracy"]["host_gauges"].get<int>(), 6);
  EXPECT_GT(ja["accuracy"]["host_drift"].get<double>(), 0);
  EXPECT_DOUBLE_EQ(ja["accuracy"]["host_drift"].get<double>(),
                   ja["accuracy"]["host_run_ticks"].get<double>() /
                       ja["accuracy"]["host_plain_ticks"].get<double>());
  EXPECT_GT(j["base"]["stream_se_ticks"].get<double>(), 0);
  auto r = run_shell(tool("cost") + " --accuracy --base stream " + test::source("samples/loop.b") +
                     " 2>&1");
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.out.find("\n  stream* "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("errors from the calibration's scatter alone"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\n  min "), std::string::npos) << r.out;
}

TEST(CostTool, ProgramFailureIsStatusOneWithAReport) {
  std::string bad = tmp("raise.b");
  std::ofstream(bad)
      << "implement R;\ninclude \"sys.m\";\ninclude \"draw.m\";\n"
         "R: module { init: fn(nil: ref Draw->Context, nil: list of string); };\n"
         "init(nil: ref Draw->Context, nil: list of string)\n{\n\traise \"boom\";\n}\n";
  auto [status, report] =
      cost_report("--count -I " + test::source("samples") + " " + bad, "raise.txt");
  // -I is not an option of cost: usage error.
  EXPECT_EQ(status, 2);
  auto [status2, report2] = cost_report("--count " + bad, "raise2.txt");
  EXPECT_EQ(status2, 1);
  EXPECT_NE(report2.find("raise"), std::string::npos) << report2;
  // With --accuracy the plain runs fail too, silently: the costed run said
  // why, once.
  auto r = run_shell(tool("cost") + " --accuracy " + bad + " 2>&1 >/dev/null");
  EXPECT_EQ(r.status, 1);
  const std::size_t first = r.out.find("boom");
  ASSERT_NE(first, std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("boom", first + 1), std::string::npos) << r.out;
}

TEST(CostTool, BadArgumentsAndFilesAreUsageErrors) {
  struct Case {
    std::string args, message;
  };
  std::string missing = tmp("no_such.b");
  std::string garbage = tmp("garbage.dis");
  std::ofstream(garbage) << "not a dis file";
  // Reports whose fields have the wrong types: once an abort on a JSON type
  // error.
  std::string wrong_name = tmp("wrong_name.json"), wrong_count = tmp("wrong_count.json");
  std::ofstream(wrong_name) << R"({"schema":"disvm-cost/1","modules":[{"name":5}]})";
  std::ofstream(wrong_count)
      << R"({"schema":"disvm-cost/1","modules":[{"name":"M","lines":[{"line":3,"ops":[)"
      << R"({"pc":0,"count":-1}]}]}]})";
  std::string huge = tmp("huge_number.json");
  std::ofstream(huge) << R"({"schema":"disvm-cost/1","modules":[],"runs":1e999})";
  for (const Case& c : std::vector<Case>{
           {"", "cost: no program given"},
           {"--by nonsense " + test::source("samples/fib.b"), "--by"},
           {"--format xml " + test::source("samples/fib.b"), "--format"},
           {"--base average " + test::source("samples/fib.b"), "--base"},
           {"--repeat 0 " + test::source("samples/fib.b"), "--repeat"},
           {"--top 0 " + test::source("samples/fib.b"), "--top: Value 0 not in range"},
           {"--top -3 " + test::source("samples/fib.b"), "--top: Value -3 is negative"},
           {"--pin -2 " + test::source("samples/fib.b"), "--pin: Value -2 not in range 0 to"},
           {"--stack-limit -5 " + test::source("samples/fib.b"),
            "--stack-limit: Value -5 is negative"},
           {"--count --sample 10 " + test::source("samples/fib.b"), "exclude each other"},
           {"--count --accuracy " + test::source("samples/fib.b"),
            "--count and --accuracy exclude each other"},
           {"--bogus " + test::source("samples/fib.b"), "bogus"},
           {missing, missing},
           {"-f " + missing, missing},
           {garbage, garbage},
           {"--out /nonexistent/dir/r.txt " + test::source("samples/fib.b"), "cannot open"},
           {"--diff " + missing + " " + missing, missing},
           {"--diff " + garbage + " " + garbage, "not a JSON document"},
           {"--diff " + huge + " " + huge, huge + ": not a JSON document: a number out of range"},
           {"--diff " + wrong_name + " " + wrong_name,
            wrong_name + ": modules[0].name: a string is needed"},
           {"--diff " + wrong_count + " " + wrong_count,
            wrong_count + ": modules[0].lines[0].ops[0].count: an integer of 0 or more is needed"},
           {"--count -s Nosuch -f " + test::source("samples/base.b"),
            "-s Nosuch: no module of that name ran (modules that ran: Base, Samples)"},
       }) {
    auto r = run_shell(tool("cost") + " " + c.args + " 2>&1 >/dev/null");
    EXPECT_EQ(r.status, 2) << c.args << "\n" << r.out;
    EXPECT_NE(r.out.find(c.message), std::string::npos) << c.args << "\n" << r.out;
  }
  auto h = run_shell(tool("cost") + " --help");
  EXPECT_EQ(h.status, 0);
  EXPECT_NE(h.out.find("--accuracy"), std::string::npos);
  auto v = run_shell(tool("cost") + " --version");
  EXPECT_EQ(v.status, 0);
  EXPECT_EQ(v.out.rfind("cost ", 0), 0u);
}

TEST(CostTool, DiffOfTwoSavedReports) {
  std::string a = tmp("a.json"), b = tmp("b.json"), c = tmp("c.json");
  ASSERT_EQ(run_shell(tool("cost") + " --format json --out " + a + " " +
                      test::source("samples/fib.b") + " >/dev/null")
                .status,
            0);
  ASSERT_EQ(run_shell(tool("cost") + " --format json --out " + b + " " +
                      test::source("samples/fib.b") + " >/dev/null")
                .status,
            0);
  auto same = run_shell(tool("cost") + " --diff " + a + " " + b + " -c 99");
  EXPECT_EQ(same.status, 0);
  EXPECT_NE(same.out.find("at 99.0% confidence"), std::string::npos) << same.out;
  EXPECT_NE(same.out.find(" 0 with different counts"), std::string::npos) << same.out;
  // A report whose counts and times differ on purpose.
  json j = json::parse(read_text(a));
  json& op = j["modules"][0]["lines"][0]["ops"][0];
  op["count"] = op["count"].get<std::uint64_t>() + 1;
  op["mean_ns"] = op["mean_ns"].get<double>() * 10 + 1000;
  std::ofstream(c) << j.dump();
  auto differ = run_shell(tool("cost") + " --diff " + a + " " + c);
  EXPECT_EQ(differ.status, 0);
  EXPECT_NE(differ.out.find(" 1 with different counts"), std::string::npos) << differ.out;
  EXPECT_NE(differ.out.find(" *\n"), std::string::npos) << differ.out;
}

}  // namespace
}  // namespace dis::cost
