// The probes' counts are exact whatever the control flow: the inlined probe
// step (interp.cpp) keeps the running program's per-pc slots and the frame
// it last saw in locals, refreshed only where they can change, and counts
// instructions from the interpreter's budget. Checked against --trace
// (ProbeTrace: one line per executed instruction, through the shared
// dispatch) on corpus programs that switch modules, raise and catch across
// modules, spawn threads that block on channels, and end in mid-slice (an
// uncaught exception, an instruction limit), in all three probe modes.
#include <gtest/gtest.h>

#include <map>
#include <regex>
#include <sstream>
#include <string>

#include "cost_probe.h"
#include "vm.h"

namespace dis::vm {
namespace {

// (module name, pc) -> executions.
using Counts = std::map<std::pair<std::string, std::int32_t>, std::uint64_t>;

std::string corpus(const std::string& name) {
  return std::string(DIS_SHARED_DIR) + "/testdata/limbo/" + name + "/" + name + ".dis";
}

Options options(std::ostream& out, std::ostream& err, std::uint64_t limit) {
  Options o;
  o.out = &out;
  o.err = &err;
  o.max_instructions = limit;
  return o;
}

struct Traced {
  Counts counts;
  std::uint64_t total = 0;
  std::string out;
  int status = 0;
};

Traced run_traced(const std::string& name, std::uint64_t limit) {
  std::ostringstream out, err;
  Options o = options(out, err, limit);
  o.trace = true;
  VM vm(o);
  RunResult r = vm.run_file(corpus(name), {corpus(name)});
  Traced t;
  t.status = r.status;
  t.out = out.str();
  static const std::regex line(R"(^\[\d+\] (\S+) pc (\d+) )");
  std::istringstream lines(err.str());
  std::string l;
  std::smatch m;
  while (std::getline(lines, l))
    if (std::regex_search(l, m, line)) {
      ++t.counts[{m[1].str(), std::stoi(m[2].str())}];
      ++t.total;
    }
  return t;
}

struct Costed {
  Counts counts;
  std::uint64_t total = 0, timed = 0, vm_instructions = 0;
  std::string out;
  int status = 0;
  // (module, function entry pc) -> activations.
  std::map<std::pair<std::string, std::int32_t>, std::uint64_t> calls;
};

Costed run_costed(const std::string& name, ProbeMode mode, std::uint64_t limit) {
  (void)timer();
  std::ostringstream out, err;
  VM vm(options(out, err, limit));
  CostRecorder rec(mode, Base{}, 7);
  rec.install(vm);
  RunResult r = vm.run_file(corpus(name), {corpus(name)});
  Costed c;
  c.status = r.status;
  c.out = out.str();
  c.total = rec.instructions();
  c.vm_instructions = vm.stats().instructions;
  for (const ProgramRecords& pr : rec.programs()) {
    const std::string& mod = pr.program->mod.name;
    const std::size_t n = mode == ProbeMode::Count ? pr.counts.size() : pr.records.size();
    for (std::size_t pc = 0; pc < n; ++pc) {
      const std::uint64_t k = mode == ProbeMode::Count ? pr.counts[pc] : pr.records[pc].count;
      if (mode != ProbeMode::Count) c.timed += pr.records[pc].timed;
      if (k) c.counts[{mod, static_cast<std::int32_t>(pc)}] += k;
    }
  }
  for (const auto& [key, t] : rec.functions())
    c.calls[{rec.programs()[key.first].program->mod.name, key.second}] += t.calls;
  return c;
}

void expect_exact(const std::string& name, std::uint64_t limit = 0) {
  SCOPED_TRACE(name);
  const Traced t = run_traced(name, limit);
  ASSERT_GT(t.total, 40u);
  std::map<std::pair<std::string, std::int32_t>, std::uint64_t> count_calls;
  for (ProbeMode mode : {ProbeMode::Count, ProbeMode::Time, ProbeMode::Sampled}) {
    SCOPED_TRACE(static_cast<int>(mode));
    const Costed c = run_costed(name, mode, limit);
    EXPECT_EQ(c.status, t.status);
    EXPECT_EQ(c.out, t.out);
    EXPECT_EQ(c.total, t.total);
    EXPECT_EQ(c.vm_instructions, t.total);
    EXPECT_EQ(c.counts, t.counts);
    // Every execution timed (Time), or about one in 7 (Sampled).
    if (mode == ProbeMode::Time) {
      EXPECT_EQ(c.timed, t.total);
    }
    if (mode == ProbeMode::Sampled) {
      EXPECT_GT(c.timed, t.total / 14);
      EXPECT_LT(c.timed, t.total / 3);
    }
    // The shadow call stack sees the same activations in every mode.
    EXPECT_FALSE(c.calls.empty());
    if (mode == ProbeMode::Count) {
      count_calls = c.calls;
    } else {
      EXPECT_EQ(c.calls, count_calls);
    }
  }
}

TEST(ProbeCounts, ExactAcrossModuleSwitchesAndExceptionsInAnotherModule) {
  expect_exact("modload");
}

TEST(ProbeCounts, ExactAcrossRaisedAndCaughtExceptions) { expect_exact("exceptions"); }

TEST(ProbeCounts, ExactAcrossSpawnedThreadsBlockingOnChannels) { expect_exact("channels"); }

TEST(ProbeCounts, ExactWhenAnUncaughtExceptionEndsTheProgramInMidSlice) {
  expect_exact("err_raise");
}

TEST(ProbeCounts, ExactWhenTheInstructionLimitStopsASliceShort) {
  // 3000: the second slice stops after 952 of its 2048 instructions.
  expect_exact("recursion", 3000);
}

}  // namespace
}  // namespace dis::vm
