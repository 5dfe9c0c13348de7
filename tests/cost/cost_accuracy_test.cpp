// What issue `cost` asked of the probes beyond the report's shape: GC time
// in stress mode counted once and in step with the collector's counters,
// the probes' bookkeeping kept out of the attributed total, records rebased
// without per-observation clamping bias, the count view starting without a
// timer calibration, and --diff per source line.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "cost_diff.h"
#include "cost_report.h"
#include "cost_run.h"
#include "decode.h"
#include "heap.h"
#include "stream_base.h"
#include "tool_runner.h"

namespace dis::cost {
namespace {

using nlohmann::json;

const NamedRecord* find_bucket(const CostData& d, const std::string& name) {
  for (const NamedRecord& b : d.buckets)
    if (b.name == name) return &b;
  return nullptr;
}

// A timed run of `prog` (no arguments) with its output into `sink`.
RunSpec spec_for(const std::string& prog, std::ostringstream& sink) {
  RunSpec spec;
  spec.program = prog;
  spec.args = {prog};
  spec.vm.out = &sink;
  spec.mode = vm::ProbeMode::Time;
  return spec;
}

// A timed run of the fixture `name` (tests/cost/fixtures/cost), which must
// succeed and print `output`.
void run_fixture(const std::string& name, const std::string& output, RunOutcome& o) {
  const std::string prog = test::source("tests/cost/fixtures/cost/" + name);
  Module m = load_program(prog);
  std::ostringstream sink;
  o = run_costed(m, spec_for(prog, sink));
  ASSERT_EQ(o.status, 0) << sink.str();
  ASSERT_EQ(sink.str(), output);
}

TEST(CostAccuracy, StressModeBucketsMatchTheCollectorAndTimeIsCountedOnce) {
  const std::string prog = test::source("tests/cost/fixtures/cost/alloc.b");
  Module m = load_program(prog);
  std::ostringstream sink;
  RunSpec spec = spec_for(prog, sink);
  spec.vm.gc = vm::GcMode::Stress;
  spec.mode = vm::ProbeMode::Time;
  RunOutcome o = run_costed(m, spec);
  ASSERT_EQ(o.status, 0) << sink.str();
  ASSERT_EQ(sink.str(), "total 900\n");
  ASSERT_GT(o.gc.steps, 100u);  // a full collection at every allocation
  ASSERT_EQ(o.gc.idle_steps, 0u);
  const NamedRecord* mark = find_bucket(o.data, "gc.mark");
  const NamedRecord* sweep = find_bucket(o.data, "gc.sweep");
  const NamedRecord* roots = find_bucket(o.data, "gc.roots");
  ASSERT_TRUE(mark && sweep && roots);
  // One observation per step in each of mark and sweep, one per root set.
  EXPECT_EQ(mark->rec.count, o.gc.steps);
  EXPECT_EQ(sweep->rec.count, o.gc.steps);
  EXPECT_EQ(roots->rec.count, o.gc.epochs);
  // Collections inside instructions are taken out of them: everything
  // attributed fits in the wall time of the run (counted twice, the GC
  // time that dominates stress mode would exceed it).
  Totals t = totals_of(o.data);
  const double attributed = o.data.ns(t.instruction_ticks + t.outside_ticks);
  const double gc = o.data.ns(mark->rec.total_estimate() + sweep->rec.total_estimate() +
                              roots->rec.total_estimate());
  EXPECT_GT(gc, 0.5 * attributed) << "stress mode is mostly collection";
  EXPECT_LE(attributed, o.data.wall_ns);
}

TEST(CostAccuracy, ProbeBookkeepingIsABucketOutsideTheAttributedTotal) {
  Module m = load_program(test::source("samples/fib.b"));
  std::ostringstream sink;
  RunOutcome o = run_costed(m, spec_for(test::source("samples/fib.b"), sink));
  const NamedRecord* probe = find_bucket(o.data, vm::kProbeBucket);
  ASSERT_NE(probe, nullptr);
  // Every call and every return changes the frame: one observation each,
  // plus one per slice end.
  std::uint64_t calls = 0, rets = 0;
  for (const ModuleCost& mc : o.data.modules)
    for (std::size_t pc = 0; pc < pc_count(mc); ++pc) {
      if (mc.module->code[pc].op == Op::call_) calls += mc.pcs[pc].count;
      if (mc.module->code[pc].op == Op::ret_) rets += mc.pcs[pc].count;
    }
  EXPECT_GE(probe->rec.count, calls + rets);
  Totals t = totals_of(o.data);
  EXPECT_DOUBLE_EQ(t.probe_ticks, probe->rec.total_estimate());
  double outside = 0;
  for (const NamedRecord& b : o.data.buckets)
    if (b.name != vm::kProbeBucket) outside += b.rec.total_estimate();
  EXPECT_DOUBLE_EQ(t.outside_ticks, outside);
  for (const ProfileEntry& e : profile_of(o.data).entries) EXPECT_NE(e.what, vm::kProbeBucket);
}

// A blocking builtin's release and re-acquisition are the probe's work (the
// saved slice, and the CPU-time batch when the release was long), so each
// release adds one observation to the probe bucket, beside one per frame
// change and one per builtin call.
TEST(CostAccuracy, ReleaseBookkeepingIsProbeTime) {
  RunOutcome o;
  ASSERT_NO_FATAL_FAILURE(run_fixture("busec.b", "reads 50\n", o));
  const NamedRecord* probe = find_bucket(o.data, vm::kProbeBucket);
  ASSERT_NE(probe, nullptr);
  std::uint64_t frame_changes = 0;
  for (const ModuleCost& mc : o.data.modules)
    for (std::size_t pc = 0; pc < pc_count(mc); ++pc)
      if (mc.module->code[pc].op == Op::call_ || mc.module->code[pc].op == Op::ret_)
        frame_changes += mc.pcs[pc].count;
  std::uint64_t builtin_calls = 0, reads = 0;
  for (const NamedRecord& b : o.data.builtins) {
    builtin_calls += b.rec.count;
    if (b.name == "Sys->read") reads = b.rec.count;
  }
  ASSERT_EQ(reads, 50u);
  // A few slices in all: their ends cannot stand in for the fifty releases.
  EXPECT_GE(probe->rec.count, frame_changes + builtin_calls + reads);
}

// The first entry into a module allocates its records (about 1 KB per
// instruction, here megabytes) inside the instruction that entered
// it: probe time, kept out of that mcall. The same mcall's second run
// allocates nothing, so the two differ by noise only.
TEST(CostAccuracy, AModulesFirstEntryKeepsItsRecordsAllocationOutOfTheMcall) {
  const std::string dir = ::testing::TempDir();
  std::string body;
  for (int i = 0; i < 5000; ++i) body += "\tx = x * 3 + " + std::to_string(i % 7) + ";\n";
  std::ofstream(dir + "/bigmod.m")
      << "Bigmod: module {\n\tPATH: con \"" << dir << "/bigmod.b\";\n\tf: fn(x: int): int;\n};\n";
  std::ofstream(dir + "/bigmod.b")
      << "implement Bigmod;\ninclude \"" << dir << "/bigmod.m\";\nf(x: int): int\n{\n"
      << body << "\treturn x;\n}\n";
  const std::string prog = dir + "/entry.b";
  std::ofstream(prog) << "implement Entry;\ninclude \"sys.m\";\ninclude \"draw.m\";\ninclude \""
                      << dir
                      << "/bigmod.m\";\n\tbm: Bigmod;\nEntry: module {\n"
                         "\tinit: fn(nil: ref Draw->Context, nil: list of string);\n};\n"
                         "init(nil: ref Draw->Context, nil: list of string)\n{\n"
                         "\tbm = load Bigmod Bigmod->PATH;\n"
                         "\tfor(i := 0; i < 2; i++)\n\t\tbm->f(i);\n}\n";
  Module m = load_program(prog);
  std::ostringstream sink;
  RunOutcome o = run_costed(m, spec_for(prog, sink));
  ASSERT_EQ(o.status, 0) << sink.str();
  const ModuleCost* entry = nullptr;
  for (const ModuleCost& mc : o.data.modules)
    if (mc.name == "Entry") entry = &mc;
  ASSERT_NE(entry, nullptr);
  const ProbeRecord* call = nullptr;
  for (std::size_t pc = 0; pc < pc_count(*entry); ++pc)
    if (entry->module->code[pc].op == Op::mcall_ && entry->pcs[pc].count == 2)
      call = &entry->pcs[pc];
  ASSERT_NE(call, nullptr);
  const double ns_per_tick = 1 / o.data.timer.ticks_per_ns;
  const double spread_ns = static_cast<double>(call->max - call->min) * ns_per_tick;
  EXPECT_LT(spread_ns, 1e6) << "min " << call->min << " max " << call->max << " ticks";
  // The allocation happened, and went to the probe bucket.
  const NamedRecord* probe = find_bucket(o.data, vm::kProbeBucket);
  ASSERT_NE(probe, nullptr);
  EXPECT_GT(static_cast<double>(probe->rec.max) * ns_per_tick, spread_ns);
}

// A release keeps the CPU-time batch open: its clock, a system call that
// flushes the TLB on a host without PCID, was read three times per release
// (a close at the release, a close and an open on return). Now a short one
// (a read of /dev/busec on an idle host: microseconds) reads it never, and
// one that may have slept (on a busy host, where the two kprocs share a
// processor) twice: at most 100 for these 50, plus the run's own batches.
TEST(CostAccuracy, ReleasesReadTheCpuClockAtMostTwice) {
  RunOutcome o;
  ASSERT_NO_FATAL_FAILURE(run_fixture("busec.b", "reads 50\n", o));
  EXPECT_GT(o.cpu_clock_reads, 0u);
  EXPECT_LE(o.cpu_clock_reads, 2u * 50u + 8u);
}

// A thread sleeping 60 ms in a builtin keeps its mcall open over the wait
// (as in Dis) while another computes and sleeps 1 ms at a time: the other's
// slices, its own waits and the idle collector meanwhile are recorded too,
// so that much is counted twice, and the recorder says how much. At any
// moment the time is covered once per waiting thread plus once by whatever
// else is recorded, so what is counted twice is at least most of the long
// sleep and at most the waits themselves; less it, everything recorded
// (before any base) fits in the wall time.
TEST(CostAccuracy, WorkDoneWhileAThreadWaitsIsCountedTwiceAndSaidSo) {
  RunOutcome o;
  ASSERT_NO_FATAL_FAILURE(run_fixture("overlap.b", "spun 34496\n", o));
  double long_sleep = 0, mcalls = 0, recorded = 0;
  for (const ModuleCost& mc : o.data.modules) {
    for (const CallSite& c : mc.call_sites)
      if (c.callee_name == "Sys->sleep" && c.calls == 1)
        long_sleep = static_cast<double>(c.inclusive_ticks);
    for (std::size_t pc = 0; pc < pc_count(mc); ++pc) {
      if (mc.module->code[pc].op == Op::mcall_) mcalls += mc.raw_pc_ticks[pc];
      recorded += mc.raw_pc_ticks[pc];
    }
  }
  for (const NamedRecord& b : o.data.buckets) {
    recorded += b.rec.total_estimate();
    // Host time found in a long interval (a wait's among them) was moved
    // out of it.
    if (b.name == vm::kPreemptedBucket || b.name == vm::kInterruptsBucket)
      mcalls += b.rec.total_estimate();
  }
  ASSERT_GT(long_sleep, 0);
  EXPECT_GT(o.data.overlap_ticks, long_sleep / 2);
  EXPECT_LE(o.data.overlap_ticks, mcalls);
  EXPECT_LE(o.data.ns(recorded - o.data.overlap_ticks), o.data.wall_ns);
}

TEST(CostAccuracy, RebasingSubtractsFromTheSumNotFromEachObservation) {
  vm::ProbeRecord r;
  for (std::uint64_t v : {10u, 20u, 30u, 100u}) r.add(v);
  vm::ProbeRecord b = r.rebased(25);
  EXPECT_EQ(b.count, 4u);
  EXPECT_EQ(b.timed, 4u);
  // (10 + 20 + 30 + 100) - 4 x 25 = 60; clamping each at zero would give 80.
  EXPECT_EQ(b.sum, 60u);
  EXPECT_DOUBLE_EQ(b.mean(), 15.0);
  EXPECT_DOUBLE_EQ(b.stddev(), r.stddev());
  EXPECT_EQ(b.min, 0u);
  EXPECT_EQ(b.max, 75u);
  // A base above the mean: the mean clamps at zero, the deviation stays.
  vm::ProbeRecord c = r.rebased(50);
  EXPECT_EQ(c.sum, 0u);
  EXPECT_DOUBLE_EQ(c.stddev(), r.stddev());
  EXPECT_LE(c.percentile(50), 1.0);
}

// --base stream: calibrated on the synthetic streams (every class's base
// positive and finite, each fused kind's addition finite), and each pc's
// record loses exactly count x the base of its instruction's class plus its
// fused kind's (clamped at zero), so the attributed total is below the raw
// one by about the instructions times the base. The sieve's array fills
// and loop-back triples run fused in the plain run: the report marks their
// pcs as decode fused them.
TEST(CostAccuracy, StreamBaseIsCalibratedAndSubtractedPerInstructionClassAndFusion) {
  const std::string prog = test::source("perf/programs/sieve.b");
  Module m = load_program(prog);
  std::ostringstream sink;
  RunSpec spec = spec_for(prog, sink);
  spec.args = {prog, "1"};
  spec.base_policy = vm::BasePolicy::Stream;
  spec.calls = false;
  RunOutcome o = run_costed(m, spec);
  ASSERT_EQ(o.status, 0);
  const vm::Base& b = o.data.base;
  EXPECT_EQ(b.policy, vm::BasePolicy::Stream);
  EXPECT_GT(b.stream_rounds, 0u);
  EXPECT_GT(b.stream_instructions, 0u);
  EXPECT_TRUE(std::isfinite(b.stream_ticks));
  EXPECT_GT(b.stream_ticks, 0);
  for (double c : b.stream_class_ticks) {
    EXPECT_TRUE(std::isfinite(c));
    EXPECT_GT(c, 0);
  }
  // More streams than unknowns (a base per class and per fused kind): the
  // fit leaves a residual, small beside the bases themselves.
  EXPECT_GT(b.stream_streams, kNumCostClasses + kNumFusions);
  EXPECT_TRUE(std::isfinite(b.stream_residual_ticks));
  EXPECT_GE(b.stream_residual_ticks, 0);
  EXPECT_LT(b.stream_residual_ticks, b.stream_ticks / 4);
  // The median's standard error: from the rounds' scatter, so within their
  // spread, and far below the base itself.
  EXPECT_TRUE(std::isfinite(b.stream_se_ticks));
  EXPECT_GT(b.stream_se_ticks, 0);
  EXPECT_LE(b.stream_se_ticks, b.stream_spread_ticks);
  EXPECT_LT(b.stream_se_ticks, b.stream_ticks / 4);
  EXPECT_EQ(b.stream_fusion_ticks[static_cast<std::size_t>(Fusion::None)], 0);
  for (double f : b.stream_fusion_ticks) EXPECT_TRUE(std::isfinite(f));
  EXPECT_TRUE(std::isfinite(b.stream_builtin_ticks));
  EXPECT_GE(b.stream_builtin_ticks, 0);
  double raw = 0, after = 0, taken = 0, instructions = 0, builtin_calls = 0, builtin_base = 0,
         bulk = 0;
  std::map<Fusion, double> ran;
  vm::Cage cage;
  vm::Heap heap(cage, 1 << 20);
  for (const ModuleCost& mc : o.data.modules) {
    vm::Program decoded;
    decoded.mod = *mc.module;
    vm::decode(decoded, heap);
    EXPECT_EQ(mc.fusion, vm::plain_fusion(decoded)) << mc.name;
    const std::vector<double> calls = builtin_calls_by_pc(mc);
    for (std::size_t pc = 0; pc < mc.pcs.size(); ++pc) {
      const auto n = static_cast<double>(mc.pcs[pc].count);
      if (n == 0) continue;
      ran[fusion_at(mc, pc)] += n;
      // An mcall of a builtin (the sieve's print) also carries the builtin
      // calls' base.
      const double plain = b.exact_for(b.policy, mc.module->code[pc].op, fusion_at(mc, pc));
      const double base =
          b.exact_for(b.policy, mc.module->code[pc].op, fusion_at(mc, pc), calls[pc] / n);
      // base - plain cancels most of the base's digits: equal to 1e-9 ticks.
      EXPECT_NEAR(base - plain, b.stream_builtin_ticks * calls[pc] / n, 1e-9) << pc;
      builtin_calls += calls[pc];
      builtin_base += n * (base - plain);
      // Executions timed alone carry the base each; a fused loop's run one
      // run's base, shared among its executions.
      const ProbeRecord& r = mc.pcs[pc];
      const double carried = vm::Base::total(r, base, b.run_for(b.policy, fusion_at(mc, pc)));
      const double expect = std::max(0.0, mc.raw_pc_ticks[pc] - carried);
      // The base's fraction of a tick is subtracted to 1/256 of a tick; the
      // part timed alone and the loops' part are clamped at zero apart.
      if (r.bulk_count == 0 || r.bulk_count == r.count)
        EXPECT_NEAR(r.total_estimate(), expect, n / 256 + 1) << pc;
      else
        EXPECT_GE(r.total_estimate(), expect - n / 256 - 1) << pc;
      EXPECT_LE(r.total_estimate(), mc.raw_pc_ticks[pc]) << pc;
      raw += mc.raw_pc_ticks[pc];
      after += r.total_estimate();
      taken += std::min(mc.raw_pc_ticks[pc], carried);
      instructions += n;
      bulk += static_cast<double>(r.bulk_count);
    }
  }
  ASSERT_GT(instructions, 1000);
  // Most of the sieve runs fused: its fills and its scan run in loops of
  // their own (Fill, Scan); its calls' lea+call pairs are the only Pair left.
  EXPECT_GT(ran[Fusion::Fill] + ran[Fusion::Scan], instructions * 9 / 10);
  EXPECT_GT(ran[Fusion::Scan], 0);
  EXPECT_GT(ran[Fusion::Pair], 0);
  // The timed view runs those loops as the plain run does, whole.
  EXPECT_GT(bulk, instructions * 8 / 10);
  EXPECT_GE(builtin_calls, 1);
  EXPECT_NEAR(builtin_base, b.stream_builtin_ticks * builtin_calls, 1e-9 * builtin_calls);
  EXPECT_GT(raw - after, 0);
  // What the base took: all it carried but where it exceeded a pc's part.
  EXPECT_LE(raw - after, taken + instructions / 256 + 16);
  EXPECT_GE(raw - after, taken * 0.9);
  // Never more than every instruction's base (to the 1/256 tick rounding).
  const double most =
      *std::max_element(b.stream_class_ticks.begin(), b.stream_class_ticks.end()) +
      std::max(0.0, *std::max_element(b.stream_fusion_ticks.begin(), b.stream_fusion_ticks.end()));
  EXPECT_LE(raw - after, instructions * most + builtin_base + instructions / 256 + 1);
}

// Work between two slices (the stream base's calibration rounds), paused
// from the VM's quantum hook, is outside everything the recorder measures:
// with four pauses of 5 ms each, the instruction intervals and every bucket
// together still fit in the run's elapsed time less the pauses' (the gaps
// would hold 20 ms otherwise).
TEST(CostAccuracy, PausedTimeIsOutsideTheRun) {
  const std::string prog = test::source("perf/programs/loop.b");
  Module m = load_program(prog);
  std::ostringstream sink;
  vm::Options o;
  o.out = &sink;
  vm::VM machine(o);
  vm::CostRecorder rec(vm::ProbeMode::Time,
                       vm::measure_interpreter_base(vm::BasePolicy::Min, vm::ProbeMode::Time));
  const auto spin = static_cast<std::uint64_t>(5e6 * vm::timer().ticks_per_ns);
  int calls = 0;
  machine.set_quantum_hook([&] {
    if (calls == 4 || !rec.pausable()) return;
    rec.pause();
    const std::uint64_t t0 = vm::now_ticks();
    while (vm::now_ticks() - t0 < spin) {
    }
    ++calls;
    rec.resume();
  });
  rec.install(machine);
  const std::uint64_t t0 = vm::now_ticks();
  vm::RunResult rr = machine.run_module(m, prog, {prog, "200000"});
  const std::uint64_t elapsed = vm::now_ticks() - t0;
  rec.finish();
  ASSERT_EQ(rr.status, 0) << sink.str();
  ASSERT_EQ(calls, 4) << "one per slice end until it has paused four times";
  EXPECT_GE(rec.hidden_ticks(), 4 * spin);
  double measured = 0;
  for (const vm::ProgramRecords& pr : rec.programs())
    for (const ProbeRecord& r : pr.records) measured += r.total_estimate();
  double gaps = 0;
  for (const auto& [name, r] : rec.buckets()) {
    measured += r.total_estimate();
    if (name == "scheduler" || name == "idle") gaps += r.total_estimate();
  }
  EXPECT_LT(gaps, static_cast<double>(spin));
  EXPECT_LE(measured, static_cast<double>(elapsed - rec.hidden_ticks()));
}

// The stream base calibrates between the run's slices too, and its rounds
// there are kept out of the run's wall time.
TEST(CostAccuracy, StreamBaseRoundsRunBetweenTheSlicesOutsideTheRun) {
  // (Not the sieve: its loops, timed whole, take a few milliseconds.)
  const std::string prog = test::source("perf/programs/loop.b");
  Module m = load_program(prog);
  std::ostringstream sink;
  RunSpec spec = spec_for(prog, sink);
  spec.args = {prog, "2000000"};  // about 150 ms timed: a round or two between its slices
  spec.base_policy = vm::BasePolicy::Stream;
  spec.calls = false;
  const std::uint64_t t0 = vm::MonoClock::now();
  RunOutcome o = run_costed(m, spec);
  const auto elapsed = static_cast<double>(vm::MonoClock::now() - t0);
  ASSERT_EQ(o.status, 0);
  const vm::Base& b = o.data.base;
  ASSERT_GE(b.stream_run_rounds, 1u);
  // Too few of the run's own to stand alone: the base rests on all rounds.
  if (b.stream_run_rounds < StreamCalibration::kMinRunRounds)
    EXPECT_EQ(b.stream_rounds, StreamCalibration::kRounds + b.stream_run_rounds);
  else
    EXPECT_EQ(b.stream_rounds, b.stream_run_rounds);
  // The calibration (before and during) and the run's wall time are
  // disjoint parts of the whole.
  EXPECT_GT(o.data.wall_ns, 0);
  EXPECT_LE(o.data.wall_ns + b.stream_ms * 1e6, elapsed);
  // The rounds during the run set the level, and the header says by how
  // much.
  EXPECT_TRUE(std::isfinite(b.stream_level));
  EXPECT_GT(b.stream_level, 0);
  std::ostringstream text;
  write_report(text, o.data, ReportOptions{});
  EXPECT_NE(text.str().find(fmt::format(", scaled by {:.3f} to the rounds beside each stretch",
                                        b.stream_level)),
            std::string::npos)
      << text.str();
}

// The sampled view runs few rounds before the program (its run costs
// little more than the plain one, so kRounds would dominate it) and tops a
// short run up after it, so the base still rests on kSampledMinRounds.
TEST(CostAccuracy, SampledViewTopsAShortRunsRoundsUpAfterIt) {
  const std::string prog = test::source("perf/programs/sieve.b");
  Module m = load_program(prog);
  std::ostringstream sink;
  RunSpec spec = spec_for(prog, sink);
  spec.args = {prog, "1"};  // a few ms: no round between its slices
  spec.base_policy = vm::BasePolicy::Stream;
  spec.mode = vm::ProbeMode::Sampled;
  spec.sample_every = 10;
  RunOutcome o = run_costed(m, spec);
  ASSERT_EQ(o.status, 0);
  const vm::Base& b = o.data.base;
  ASSERT_LT(b.stream_run_rounds + StreamCalibration::kSampledRounds,
            StreamCalibration::kSampledMinRounds);
  EXPECT_EQ(b.stream_rounds, StreamCalibration::kSampledMinRounds);
  EXPECT_EQ(b.stream_after_rounds, StreamCalibration::kSampledMinRounds -
                                       StreamCalibration::kSampledRounds - b.stream_run_rounds);
  std::ostringstream text;
  write_report(text, o.data, ReportOptions{});
  EXPECT_NE(
      text.str().find(fmt::format("median of {} rounds", StreamCalibration::kSampledMinRounds)),
      std::string::npos)
      << text.str();
  EXPECT_NE(text.str().find(fmt::format("{} of them after the program", b.stream_after_rounds)),
            std::string::npos)
      << text.str();
  // The timed view still runs kRounds before the program and none after.
  spec.mode = vm::ProbeMode::Time;
  o = run_costed(m, spec);
  ASSERT_EQ(o.status, 0);
  EXPECT_EQ(o.data.base.stream_after_rounds, 0u);
  EXPECT_GE(o.data.base.stream_rounds, static_cast<std::uint32_t>(StreamCalibration::kRounds));
}

// Each stretch of a run between two rounds weighs on both, by its
// instructions: all of them, once.
TEST(CostAccuracy, StreamRoundsWeighTheRunsInstructionsOnce) {
  StreamCalibration cal(vm::ProbeMode::Time, false);
  for (int r = 0; r < 3; ++r) cal.round();
  cal.mark();
  cal.begin_run();
  cal.round_in_run(1000);
  cal.round_in_run(3000);
  cal.end_run(3500);
  EXPECT_DOUBLE_EQ(cal.weighed_instructions(), 3500);
  // A second run (--repeat) starts counting from zero.
  cal.begin_run();
  cal.round_in_run(200);
  cal.end_run(700);
  EXPECT_DOUBLE_EQ(cal.weighed_instructions(), 4200);
  vm::Base b;
  cal.fit(b);
  EXPECT_EQ(b.stream_run_rounds, 3u);
  EXPECT_GT(b.stream_level, 0);
  EXPECT_GT(b.stream_ticks, 0);
}

// The host gauge reads the plain streams: before any round nothing; after
// rounds, the plain ticks per instruction of the rounds, which a gauge taken
// now matches in magnitude (the median of three, so one preemption moves
// nothing; the bounds are loose: a loaded host moves either reading).
TEST(CostAccuracy, HostGaugeReadsThePlainStreams) {
  StreamCalibration cal(vm::ProbeMode::Time, false);
  EXPECT_EQ(cal.run_plain_ticks(), 0);
  for (int r = 0; r < 3; ++r) cal.round();
  const double rounds = cal.run_plain_ticks();
  std::vector<double> g;
  for (int i = 0; i < 3; ++i) g.push_back(cal.plain_gauge());
  std::sort(g.begin(), g.end());
  ASSERT_GT(rounds, 0);
  ASSERT_GT(g[1], 0);
  // The same quantity (plain ticks per instruction): within the factor a
  // loaded host can put between two readings (7x seen), far from the
  // thousands a total mistaken for a mean would give.
  EXPECT_LT(g[1] / rounds, 100.0) << g[1] << " against " << rounds;
  EXPECT_GT(g[1] / rounds, 1 / 100.0) << g[1] << " against " << rounds;
  // The rounds during a run are the ones that gauge it.
  cal.mark();
  cal.begin_run();
  cal.round_in_run(1000);
  cal.end_run(2000);
  // They read the same streams on the same host as the gauge: the same
  // magnitude. (Not set against the probe's cost: under ASan a plain
  // instruction costs as much as the probe adds, CI run of c9b869e.)
  const double in_run = cal.run_plain_ticks();
  ASSERT_GT(in_run, 0);
  EXPECT_LT(in_run / g[1], 100.0) << in_run << " against " << g[1];
  EXPECT_GT(in_run / g[1], 1 / 100.0) << in_run << " against " << g[1];
}

// The level: the rounds beside the run's instructions, each smoothed with
// its neighbours, over the median.
TEST(StreamLevel, FollowsTheRoundsBesideTheRun) {
  // The host slowed for the second half; the run ran only then.
  const std::vector<double> rounds = {30, 30, 30, 30, 40, 40, 40, 40};
  EXPECT_DOUBLE_EQ(stream_level(rounds, {0, 0, 0, 0, 0, 5, 5, 0}, 35), 40.0 / 35);
  // Weighted by instructions: three parts at 20, one at 40.
  EXPECT_DOUBLE_EQ(stream_level({20, 20, 20, 40, 40, 40}, {0, 3, 0, 0, 1, 0}, 30), 25.0 / 30);
}

TEST(StreamLevel, OneDisturbedRoundMovesNothing) {
  EXPECT_DOUBLE_EQ(stream_level({30, 30, 90, 30, 30}, {0, 0, 7, 0, 0}, 30), 1.0);
  // At the end of the rounds, the neighbour on one side only.
  EXPECT_DOUBLE_EQ(stream_level({30, 30, 30, 36}, {0, 0, 0, 4}, 30), 33.0 / 30);
}

TEST(StreamLevel, NothingWeighedIsOne) {
  EXPECT_DOUBLE_EQ(stream_level({30, 40}, {0, 0}, 35), 1.0);
  EXPECT_DOUBLE_EQ(stream_level({}, {}, 35), 1.0);
  EXPECT_DOUBLE_EQ(stream_level({30, 40}, {1, 1}, 0), 1.0);
}

TEST(CostAccuracy, CountViewDoesNotCalibrateTheTimer) {
  auto r = test::run_shell(test::tool("cost") + " --count " + test::source("samples/fib.b") +
                           " 2>/dev/null");
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.out.find("\ncounts only: no clock read, no calibration\n"), std::string::npos)
      << r.out;
  auto t =
      test::run_shell(test::tool("cost") + " " + test::source("samples/fib.b") + " 2>/dev/null");
  EXPECT_NE(t.out.find("\ntimer: tsc"), std::string::npos) << t.out.substr(0, 400);
}

json report(const std::vector<std::tuple<int, std::string, std::uint64_t, double, double>>& lines) {
  json mod;
  mod["name"] = "M";
  mod["lines"] = json::array();
  for (const auto& [line, text, count, mean, sd] : lines) {
    json op = {{"pc", line},     {"op", "addw"},    {"count", count},
               {"timed", count}, {"mean_ns", mean}, {"std_ns", sd}};
    mod["lines"].push_back(
        {{"file", 0}, {"line", line}, {"text", text}, {"ops", json::array({op})}});
  }
  return {{"schema", "disvm-cost/1"}, {"mode", "time"}, {"modules", json::array({mod})}};
}

TEST(CostAccuracy, DiffComparesLineTotalsGolden) {
  // Line 3: 100 x 10 ns -> 100 x 15 ns, std 1 ns: se = sqrt(100 + 100) ns,
  // a 500 ns difference: significant. Line 4: 1000 x 20 ns, std 50, vs
  // 1000 x 20.1 ns: se = sqrt(2.5e6 + 2.5e6) = 2236 ns for a 100 ns
  // difference: not shown. Line 5: only in a. Line 6: counts differ.
  json a = report({{3, "x := 1;", 100, 10, 1},
                   {4, "y := 2;", 1000, 20, 50},
                   {5, "z := 3;", 10, 5, 1},
                   {6, "w := 4;", 10, 5, 0}});
  json b = report(
      {{3, "x := 1;", 100, 15, 1}, {4, "y := 2;", 1000, 20.1, 50}, {6, "w := 4;", 20, 5, 0}});
  const std::string expected =
      "cost diff: a = a.json, b = b.json\n"
      "per source line: total time (count x mean of its instructions); significance at 95.0% "
      "confidence from the totals' standard errors (normal test; Welch's t over the runs when "
      "both reports merged several); * marks a significant difference\n"
      "(one run each: the host's drift from run to run is not in these standard errors; "
      "reports merged from cost --repeat N carry it)\n"
      "M line 3: x := 1;\n"
      "  total 1.00 us -> 1.50 us (+50.0%, p 0.0000) *\n"
      "M line 5: z := 3;\n"
      "  executed only in a\n"
      "M line 6: w := 4;\n"
      "  total 50 ns -> 100 ns (+100.0%, p 0.0000), instructions 10 -> 20 *\n"
      "3 lines compared, 2 significantly different, 1 with different counts, 1 executed in one "
      "report only\n";
  EXPECT_EQ(diff_reports(a, b, 95, "a.json", "b.json"), expected);
  // Per instruction stays available.
  EXPECT_NE(diff_by_instruction(a, b, 95).find("instructions compared"), std::string::npos);
}

// An instruction timed once has no variance estimate: a line run once is
// not testable, however its times differ (it was "significant" at p 0).
TEST(CostAccuracy, DiffDoesNotTestLinesTimedOnce) {
  json a = report({{3, "x := 1;", 1, 40, 0}, {4, "y := 2;", 1, 50, 0}});
  json b = report({{3, "x := 1;", 1, 20, 0}, {4, "y := 2;", 2, 50, 0}});
  const std::string out = diff_reports(a, b, 95, "a.json", "b.json");
  EXPECT_EQ(out.find("M line 3"), std::string::npos) << out;
  EXPECT_NE(out.find("M line 4: y := 2;\n"
                     "  total 50 ns -> 100 ns (+100.0%, not testable), instructions 1 -> 2\n"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("2 lines compared, 0 significantly different, 1 with different counts, 2 "
                     "not testable (an instruction timed fewer than twice)\n"),
            std::string::npos)
      << out;
  // Merged runs carry their own spread: no caveat about one run each.
  a["runs"] = 3;
  b["runs"] = 3;
  EXPECT_EQ(diff_reports(a, b, 95, "a.json", "b.json").find("one run each"), std::string::npos);
}

}  // namespace
}  // namespace dis::cost

// The stream base's classes come from the opcode table's flags and operand
// kinds (cost_class.h): calls and returns, indexing, memory, reals, the rest.
TEST(CostClasses, FollowTheOpcodeTable) {
  using dis::CostClass;
  using dis::Op;
  EXPECT_EQ(dis::cost_class(Op::call_), CostClass::Call);
  EXPECT_EQ(dis::cost_class(Op::frame_), CostClass::Call);
  EXPECT_EQ(dis::cost_class(Op::load_), CostClass::Call);
  EXPECT_EQ(dis::cost_class(Op::indw_), CostClass::Index);
  EXPECT_EQ(dis::cost_class(Op::lenc_), CostClass::Index);
  EXPECT_EQ(dis::cost_class(Op::addc_), CostClass::Memory);
  EXPECT_EQ(dis::cost_class(Op::movp_), CostClass::Memory);
  EXPECT_EQ(dis::cost_class(Op::addf_), CostClass::Real);
  EXPECT_EQ(dis::cost_class(Op::cvtrf_), CostClass::Real);
  EXPECT_EQ(dis::cost_class(Op::addw_), CostClass::Arith);
  EXPECT_EQ(dis::cost_class(Op::runt_), CostClass::Arith);  // does nothing
}
