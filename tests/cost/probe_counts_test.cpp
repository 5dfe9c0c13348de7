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
#include <tuple>
#include <vector>

#include "compiler.h"
#include "cost_probe.h"
#include "shared_corpus.h"
#include "vm.h"

namespace dis::vm {
namespace {

// (module name, pc) -> executions.
using Counts = std::map<std::pair<std::string, std::int32_t>, std::uint64_t>;

// A corpus program's .dis, or a Limbo source of this repository (a path
// ending in .b, compiled when run).
std::string corpus(const std::string& name) {
  if (name.ends_with(".b")) return std::string(DIS_SOURCE_DIR) + "/" + name;
  return std::string(DIS_SHARED_DIR) + "/testdata/limbo/" + name + "/" + name + ".dis";
}

Options options(std::ostream& out, std::ostream& err, std::uint64_t limit) {
  Options o;
  o.compile = [](const std::string& path) { return limbo::compile_file(path, {}); };
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
  std::uint64_t total = 0, timed = 0, bulk = 0, vm_instructions = 0;
  std::string out;
  int status = 0;
  // (module, function entry pc) -> activations.
  std::map<std::pair<std::string, std::int32_t>, std::uint64_t> calls;
};

Costed run_costed(const std::string& name, ProbeMode mode, std::uint64_t limit, bool calls = true) {
  (void)timer();
  std::ostringstream out, err;
  VM vm(options(out, err, limit));
  CostRecorder rec(mode, Base{}, 7);
  rec.track_calls(calls);
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
      if (mode != ProbeMode::Count) {
        c.timed += pr.records[pc].timed;
        c.bulk += pr.records[pc].bulk_count;
      }
      if (k) c.counts[{mod, static_cast<std::int32_t>(pc)}] += k;
    }
  }
  for (const auto& [key, t] : rec.functions())
    c.calls[{rec.programs()[key.first].program->mod.name, key.second}] += t.calls;
  return c;
}

// Time mode runs array loops fused (each run one interval, its executions
// in bulk_count); `fused_loops` says the program has some that run.
void expect_exact(const std::string& name, std::uint64_t limit = 0, bool fused_loops = false) {
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
    // Every execution timed, alone or in its loop's run (Time), or about
    // one in 7 (Sampled).
    if (mode == ProbeMode::Time) {
      EXPECT_EQ(c.timed + c.bulk, t.total);
      if (fused_loops)
        EXPECT_GT(c.bulk, 0u);
      else
        EXPECT_EQ(c.bulk, 0u);
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
    // Without the shadow call stack: the same counts, no activations.
    const Costed n = run_costed(name, mode, limit, false);
    EXPECT_EQ(n.out, t.out);
    EXPECT_EQ(n.total, t.total);
    EXPECT_EQ(n.counts, t.counts);
    EXPECT_TRUE(n.calls.empty());
  }
}

TEST(ProbeCounts, ExactAcrossModuleSwitchesAndExceptionsInAnotherModule) {
  DIS_NEEDS_SHARED();
  expect_exact("modload");
}

TEST(ProbeCounts, ExactAcrossRaisedAndCaughtExceptions) {
  DIS_NEEDS_SHARED();
  expect_exact("exceptions");
}

TEST(ProbeCounts, ExactAcrossSpawnedThreadsBlockingOnChannels) {
  DIS_NEEDS_SHARED();
  expect_exact("channels");
}

TEST(ProbeCounts, ExactWhenAnUncaughtExceptionEndsTheProgramInMidSlice) {
  DIS_NEEDS_SHARED();
  expect_exact("err_raise");
}

// Loops: the plain run fuses their loop-backs (addw, jmp, compare) and the
// count view runs them fused too, counting each instruction.
TEST(ProbeCounts, ExactThroughFusedLoopBacks) {
  DIS_NEEDS_SHARED();
  expect_exact("control");
  expect_exact("arrays");
  for (std::uint64_t limit : {101u, 102u, 103u, 2049u, 2050u}) expect_exact("control", limit);
}

// Array fills: the plain run and the count and sampled views run their
// iterations in a loop of their own (the sampled view within its chunk),
// the views adding the counts after; fills that stop short (a bound, the
// budget, an instruction limit) go on as plain pairs.
TEST(ProbeCounts, ExactThroughArrayFillLoops) {
  DIS_NEEDS_SHARED();
  expect_exact("tests/cost/fixtures/fills.b", 0, true);
  for (std::uint64_t limit : {3500u, 4095u, 4096u, 4097u, 4098u, 6001u, 9000u, 12400u})
    expect_exact("tests/cost/fixtures/fills.b", limit, true);
}

// Array scans the same way: iterations that go on to the increment, and
// the one that falls into the loop's body, counted after the loop.
TEST(ProbeCounts, ExactThroughArrayScanLoops) {
  DIS_NEEDS_SHARED();
  expect_exact("tests/cost/fixtures/scans.b", 0, true);
  // Each limit stops after the first call returned (the activations are
  // counted at returns), about 5700 instructions in.
  for (std::uint64_t limit : {6000u, 6143u, 6144u, 6145u, 8191u, 8193u, 12289u, 15000u, 22800u})
    expect_exact("tests/cost/fixtures/scans.b", limit, true);
}

// The same loops over byte arrays (indb with movb, beqb and bneb): whole
// runs, and limits that stop inside their loops after the first call
// returned (a bytescans round runs about 12,000 instructions).
TEST(ProbeCounts, ExactThroughByteArrayFillAndScanLoops) {
  DIS_NEEDS_SHARED();
  expect_exact("tests/cost/fixtures/bytefills.b", 0, true);
  for (std::uint64_t limit : {6000u, 6143u, 6144u, 6145u, 8193u, 12289u, 16000u})
    expect_exact("tests/cost/fixtures/bytefills.b", limit, true);
  expect_exact("tests/cost/fixtures/bytescans.b", 0, true);
  for (std::uint64_t limit : {12400u, 12799u, 12800u, 12801u, 16385u, 24577u, 40000u})
    expect_exact("tests/cost/fixtures/bytescans.b", limit, true);
}

// The sampled view times about one execution in N wherever it runs: its
// chunks end inside the fill and scan loops (which then run an iteration
// as plain instructions), its runs of timed executions cross loop-backs,
// and no pc is timed more often than it ran or, when it ran often, much
// less or more often than one in N.
void expect_sampled_share(const std::string& name) {
  SCOPED_TRACE(name);
  (void)timer();
  std::ostringstream out, err;
  VM vm(options(out, err, 0));
  constexpr std::uint32_t kEvery = 7;
  CostRecorder rec(ProbeMode::Sampled, Base{}, kEvery);
  rec.install(vm);
  vm.run_file(corpus(name), {corpus(name)});
  rec.finish();
  std::uint64_t count = 0, timed = 0, busy = 0;
  for (const ProgramRecords& pr : rec.programs())
    for (const ProbeRecord& r : pr.records) {
      EXPECT_LE(r.timed, r.count);
      count += r.count;
      timed += r.timed;
      if (r.count >= 20000) {
        ++busy;
        EXPECT_GT(r.timed, r.count / kEvery * 80 / 100);
        EXPECT_LT(r.timed, r.count / kEvery * 120 / 100);
      }
    }
  EXPECT_EQ(count, rec.instructions());
  EXPECT_GT(busy, 0u);
  EXPECT_GT(timed, count / kEvery * 90 / 100);
  EXPECT_LT(timed, count / kEvery * 110 / 100);
}

TEST(ProbeCounts, SampledViewTimesOneInNThroughFillAndScanLoops) {
  DIS_NEEDS_SHARED();
  expect_sampled_share("tests/cost/fixtures/sampled.b");
}

TEST(ProbeCounts, ExactWhenTheInstructionLimitStopsASliceShort) {
  DIS_NEEDS_SHARED();
  // 3000: the second slice stops after 952 of its 2048 instructions.
  expect_exact("recursion", 3000);
}

// The shadow call stack against --trace: activations rebuilt from the
// executed instructions of each thread (a `call`, or an `mcall` not followed
// by the next pc of its own module, enters the function of the next
// instruction; a `ret` leaves), with the recorder's conventions: a thread's
// first instruction enters its function without a call site; a frame change
// is seen at the first instruction after it, which belongs to the new frame,
// so an activation's instructions run from its first instruction through its
// `ret`; a function's inclusive instructions are its outermost activations';
// what is live when a thread ends leaves then. Fails if a handler that
// changes frames dispatches without the frame check (NEXT_FRAME).
struct Activations {
  // (module, entry pc) -> calls, instructions (outermost activations).
  std::map<std::pair<std::string, std::int32_t>, std::pair<std::uint64_t, std::uint64_t>> fns;
  // (caller module, call pc, callee module, entry pc) -> calls, instructions.
  std::map<std::tuple<std::string, std::int32_t, std::string, std::int32_t>,
           std::pair<std::uint64_t, std::uint64_t>>
      sites;
};

Activations traced_activations(const std::string& name) {
  std::ostringstream out, err;
  Options o = options(out, err, 0);
  o.trace = true;
  VM vm(o);
  vm.run_file(corpus(name), {corpus(name)});
  struct Live {
    std::string mod;
    std::int32_t entry;
    bool has_site;
    std::string site_mod;
    std::int32_t site_pc;
    std::uint64_t start;
  };
  struct Thread {
    std::vector<Live> stack;
    std::map<std::pair<std::string, std::int32_t>, int> active;
    std::uint64_t executed = 0;
    std::string mod, op;
    std::int32_t pc = -1;
  };
  std::map<int, Thread> threads;
  Activations a;
  auto leave = [&](Thread& t) {
    const Live l = t.stack.back();
    t.stack.pop_back();
    const std::uint64_t n = t.executed - l.start;
    auto& f = a.fns[{l.mod, l.entry}];
    ++f.first;
    if (--t.active[{l.mod, l.entry}] == 0) f.second += n;
    if (l.has_site) {
      auto& s = a.sites[{l.site_mod, l.site_pc, l.mod, l.entry}];
      ++s.first;
      s.second += n;
    }
  };
  static const std::regex line(R"(^\[(\d+)\] (\S+) pc (\d+) [^:]*: (\S+))");
  std::istringstream lines(err.str());
  std::string l;
  std::smatch m;
  while (std::getline(lines, l)) {
    if (!std::regex_search(l, m, line)) continue;
    Thread& t = threads[std::stoi(m[1].str())];
    const std::string mod = m[2].str(), op = m[4].str();
    const std::int32_t pc = std::stoi(m[3].str());
    const bool first = t.pc < 0;
    const bool entered = t.op == "call" || (t.op == "mcall" && !(mod == t.mod && pc == t.pc + 1));
    if (t.op == "ret" && !t.stack.empty()) leave(t);
    if (first || entered) {
      t.stack.push_back({mod, pc, !first, t.mod, t.pc, t.executed});
      ++t.active[{mod, pc}];
    }
    ++t.executed;
    t.mod = mod;
    t.op = op;
    t.pc = pc;
  }
  for (auto& [id, t] : threads)
    while (!t.stack.empty()) leave(t);
  return a;
}

void expect_activations(const std::string& name) {
  SCOPED_TRACE(name);
  const Activations truth = traced_activations(name);
  ASSERT_GT(truth.fns.size(), 1u);
  for (ProbeMode mode : {ProbeMode::Count, ProbeMode::Time, ProbeMode::Sampled}) {
    SCOPED_TRACE(static_cast<int>(mode));
    std::ostringstream out, err;
    VM vm(options(out, err, 0));
    CostRecorder rec(mode, Base{}, 7);
    rec.install(vm);
    vm.run_file(corpus(name), {corpus(name)});
    const auto& progs = rec.programs();
    Activations got;
    for (const auto& [key, t] : rec.functions())
      got.fns[{progs[key.first].program->mod.name, key.second}] = {t.calls, t.instructions};
    for (const auto& [key, t] : rec.sites()) {
      const auto& [caller, pc, callee, entry] = key;
      if (callee < 0) continue;
      got.sites[{progs[caller].program->mod.name, pc,
                 progs[static_cast<std::size_t>(callee)].program->mod.name, entry}] = {
          t.calls, t.instructions};
    }
    EXPECT_EQ(got.fns, truth.fns);
    EXPECT_EQ(got.sites, truth.sites);
  }
}

TEST(ProbeCounts, CallStackMatchesTraceAcrossCallsAndReturns) {
  DIS_NEEDS_SHARED();
  expect_activations("adts");
  expect_activations("pickadt");
}

TEST(ProbeCounts, CallStackMatchesTraceAcrossModulesAndThreads) {
  DIS_NEEDS_SHARED();
  expect_activations("arrays");
  expect_activations("channels");
}

// Every reference-count free reaches the recorder once, straight from the
// heap, in every view; the timed views time exactly one in
// kFreeSampleEvery of them.
TEST(ProbeCounts, EveryReferenceCountFreeIsCountedOnce) {
  DIS_NEEDS_SHARED();
  (void)timer();
  for (ProbeMode mode : {ProbeMode::Count, ProbeMode::Time, ProbeMode::Sampled}) {
    std::ostringstream out, err;
    VM vm(options(out, err, 0));
    CostRecorder rec(mode, Base{}, 7);
    rec.install(vm);
    const std::string path = corpus("tests/cost/fixtures/frees.b");
    ASSERT_EQ(vm.run_file(path, {path}).status, 0);
    rec.finish();
    // One free per iteration, of one block; the program's end frees a few
    // more blocks, some in one cascade.
    const std::uint64_t frees = rec.refcount_frees().count;
    EXPECT_GE(frees, 5000u);
    EXPECT_LE(frees, vm.stats().gc.freed_refcount);
    EXPECT_LE(vm.stats().gc.freed_refcount, 5010u);
    EXPECT_EQ(rec.refcount_frees().timed,
              mode == ProbeMode::Count ? 0u : frees / CostRecorder::kFreeSampleEvery);
  }
}

}  // namespace
}  // namespace dis::vm
