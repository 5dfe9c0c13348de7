// cost --accuracy from a synthetic CostData: every base policy weighed from
// the same raw ticks (clamped per pc as the report clamps), preemption
// shared between instructions and bookkeeping, text and JSON.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <fstream>

#include "cost_accuracy.h"
#include "json_schema_checker.h"

namespace dis::cost {
namespace {

// Two pcs: 100 executions with 5000 raw ticks, 10 with 150; 1000 ticks of GC
// outside instructions, 500 of probe bookkeeping, 500 ns preempted; the
// timer runs at 2 ticks per ns; bases min 10, median 30, mean 20 ticks.
CostData make_data() {
  CostData d;
  d.mode = Mode::Time;
  d.timer.ticks_per_ns = 2.0;
  d.base.policy = vm::BasePolicy::Median;
  d.base.min_ticks = 10;
  d.base.median_ticks = 30;
  d.base.mean_ticks = 20;
  d.base.ticks = 30;
  ModuleCost mc;
  mc.name = "M";
  mc.pcs.resize(2);
  mc.pcs[0].count = 100;
  mc.pcs[1].count = 10;
  mc.raw_pc_ticks = {5000, 150};
  d.modules.push_back(std::move(mc));
  NamedRecord gc{"gc.mark", {}}, probe{vm::kProbeBucket, {}};
  gc.rec.add(1000);
  probe.rec.add(500);
  d.buckets = {gc, probe};
  d.preempted_ns = 500;
  return d;
}

TEST(AccuracyReport, EveryPolicyFromTheSameRawTicks) {
  Accuracy a = accuracy_of(make_data(), {1000, 3000, 2000}, {900, 1100, 1000});
  EXPECT_DOUBLE_EQ(a.plain_ns, 2000);
  EXPECT_DOUBLE_EQ(a.plain_cpu_ns, 1000);
  EXPECT_EQ(a.plain_runs, 3);
  EXPECT_DOUBLE_EQ(a.instructions, 110);
  // 500 ns preempted, measured over the slices and the gaps between them
  // (CostRecorder::preempted_ns): instructions hold 5150 of their 6650
  // ticks (5150 + 500 probe bookkeeping + 1000 of GC).
  EXPECT_DOUBLE_EQ(a.preempted_inside_ns, 500.0 * 5150 / 6650);
  // Idle sleeps are outside the preemption measurement: no share of it.
  CostData slept = make_data();
  NamedRecord idle{"idle", {}};
  idle.rec.add(3000);
  slept.buckets.push_back(idle);
  EXPECT_DOUBLE_EQ(accuracy_of(slept, {2000}, {1000}).preempted_inside_ns, a.preempted_inside_ns);
  ASSERT_EQ(a.policies.size(), 3u);
  // min 10: 4000 + 50 + 1000 outside = 5050 ticks; median 30: 2000 + 0
  // (150 - 300 clamps at zero) + 1000; mean 20: 3000 + 0 + 1000.
  const double expected_ns[] = {2525, 1500, 2000};
  const double base_ns[] = {5, 15, 10};
  for (std::size_t i = 0; i < 3; ++i) {
    const PolicyAccuracy& p = a.policies[i];
    EXPECT_EQ(p.policy, vm::kBasePolicies[i]);
    EXPECT_DOUBLE_EQ(p.base_ns, base_ns[i]);
    EXPECT_DOUBLE_EQ(p.attributed_ns, expected_ns[i]) << i;
    EXPECT_DOUBLE_EQ(p.ratio, expected_ns[i] / 2000);
    EXPECT_DOUBLE_EQ(p.bias_ns, (expected_ns[i] - 2000) / 110);
    EXPECT_DOUBLE_EQ(p.cpu_ratio, (expected_ns[i] - a.preempted_inside_ns) / 1000);
  }
}

// The interrupts found inside instruction intervals (400 ticks) are
// attributed, as every bucket is, but left out of the CPU comparison, and
// they count with the instructions for the share of the preemption.
TEST(AccuracyReport, InterruptsAreLeftOutOfTheCpuComparison) {
  CostData d = make_data();
  NamedRecord irq{vm::kInterruptsBucket, {}};
  irq.rec.observe(400);
  d.buckets.push_back(irq);
  const Accuracy a = accuracy_of(d, {2000}, {1000});
  EXPECT_DOUBLE_EQ(a.interrupts_ns, 200);
  EXPECT_DOUBLE_EQ(a.preempted_inside_ns, 500.0 * (5150 + 400) / (6650 + 400));
  const double expected_ns[] = {2525 + 200, 1500 + 200, 2000 + 200};
  ASSERT_EQ(a.policies.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_DOUBLE_EQ(a.policies[i].attributed_ns, expected_ns[i]) << i;
    EXPECT_DOUBLE_EQ(a.policies[i].cpu_ratio, (expected_ns[i] - a.preempted_inside_ns - 200) / 1000)
        << i;
  }
  EXPECT_NE(accuracy_text(a).find("interrupts 200 ns per run taken out of instruction intervals "
                                  "(bucket interrupts)"),
            std::string::npos)
      << accuracy_text(a);
  EXPECT_DOUBLE_EQ(accuracy_json(a)["interrupts_ns"].get<double>(), 200);
}

// Time a waiting mcall and the work recorded meanwhile both hold counts
// once: every policy's attributed time loses it, and the text says so.
TEST(AccuracyReport, TimeCountedTwiceIsCountedOnce) {
  const Accuracy a = accuracy_of(make_data(), {2000}, {1000});
  CostData twice = make_data();
  twice.overlap_ticks = 600;  // 300 ns
  const Accuracy b = accuracy_of(twice, {2000}, {1000});
  EXPECT_DOUBLE_EQ(b.overlap_ns, 300);
  ASSERT_EQ(a.policies.size(), b.policies.size());
  for (std::size_t i = 0; i < a.policies.size(); ++i)
    EXPECT_DOUBLE_EQ(b.policies[i].attributed_ns, a.policies[i].attributed_ns - 300) << i;
  EXPECT_NE(accuracy_text(b).find("accuracy: 300 ns per run was recorded while a thread waited "
                                  "in a builtin"),
            std::string::npos)
      << accuracy_text(b);
  EXPECT_EQ(accuracy_text(a).find("waited in a builtin"), std::string::npos);
  EXPECT_DOUBLE_EQ(accuracy_json(b)["overlap_ns"].get<double>(), 300);
}

TEST(AccuracyReport, TextNamesEveryPolicyAndMarksTheReportedOne) {
  const std::string t = accuracy_text(accuracy_of(make_data(), {2000}, {1000}));
  EXPECT_NE(t.find("accuracy: plain run 2.00 us wall, 1.00 us CPU (medians of 1); 110 "
                   "instructions per run\n"),
            std::string::npos)
      << t;
  EXPECT_NE(t.find("\n  min         5.0 ns    2.52 us  1.262 "), std::string::npos) << t;
  EXPECT_NE(t.find("\n  median*      15 ns    1.50 us "), std::string::npos) << t;
  EXPECT_NE(t.find("\n  mean         10 ns    2.00 us  1.000 "), std::string::npos) << t;
}

// The plain runs' spread is the host's own noise: reported, and warned
// about when it exceeds kNoisyPlainSpread of the median CPU time.
TEST(AccuracyReport, PlainRunsSpreadIsReportedAndANoisyHostWarned) {
  const Accuracy quiet = accuracy_of(make_data(), {1900, 2000, 2100}, {990, 1000, 1050});
  EXPECT_DOUBLE_EQ(quiet.plain_min_ns, 1900);
  EXPECT_DOUBLE_EQ(quiet.plain_max_ns, 2100);
  EXPECT_DOUBLE_EQ(quiet.plain_cpu_min_ns, 990);
  EXPECT_DOUBLE_EQ(quiet.plain_cpu_max_ns, 1050);
  const std::string t = accuracy_text(quiet);
  EXPECT_NE(t.find("accuracy: the plain runs took 1.90 us..2.10 us wall, 990 ns..1.05 us CPU: "
                   "6% of the median CPU time between the fastest and the slowest\n"),
            std::string::npos)
      << t;
  EXPECT_EQ(t.find("warning"), std::string::npos) << t;
  const nlohmann::json j = accuracy_json(quiet);
  EXPECT_DOUBLE_EQ(j["plain_cpu_max_ns"].get<double>(), 1050);
  EXPECT_DOUBLE_EQ(j["plain_min_ns"].get<double>(), 1900);

  const std::string noisy =
      accuracy_text(accuracy_of(make_data(), {2000, 2000}, {900, 1000, 1200}));
  EXPECT_NE(noisy.find("accuracy: warning: the host is noisy (the same plain run varies by 30%)"),
            std::string::npos)
      << noisy;
  // One plain run has no spread to speak of.
  EXPECT_EQ(accuracy_text(accuracy_of(make_data(), {2000}, {1000})).find("plain runs took"),
            std::string::npos);
}

// The stream base's calibration scatter, as an uncertainty of its ratios:
// two standard errors (0.5 ticks each, at 2 ticks per ns) on each of the
// 110 instructions is 55 ns per run, against 2000 ns wall and 1000 CPU.
TEST(AccuracyReport, StreamRatiosCarryTheCalibrationsUncertainty) {
  CostData d = make_data();
  d.base.stream_rounds = 31;
  d.base.stream_ticks = 20;
  d.base.stream_class_ticks.fill(20);
  d.base.stream_se_ticks = 0.5;
  const Accuracy a = accuracy_of(d, {2000}, {1000});
  ASSERT_EQ(a.policies.size(), 4u);
  for (const PolicyAccuracy& p : a.policies) {
    const bool stream = p.policy == vm::BasePolicy::Stream;
    EXPECT_DOUBLE_EQ(p.ratio_uncertainty, stream ? 55.0 / 2000 : 0) << base_policy_name(p.policy);
    EXPECT_DOUBLE_EQ(p.cpu_ratio_uncertainty, stream ? 55.0 / 1000 : 0);
  }
  const std::string t = accuracy_text(a);
  // The stream row's CPU ratio and its +/- (two standard errors).
  EXPECT_NE(t.find(" 1.613  0.055 "), std::string::npos) << t;
  EXPECT_NE(t.find("+/-: two standard\n  errors from the calibration's scatter alone"),
            std::string::npos)
      << t;
  const nlohmann::json j = accuracy_json(a);
  EXPECT_DOUBLE_EQ(j["policies"][3]["cpu_ratio_uncertainty"].get<double>(), 0.055);
  std::ifstream in(std::string(DIS_SOURCE_DIR) + "/cost/cost_schema.json");
  test::SchemaChecker checker(nlohmann::json::parse(in)["properties"]["accuracy"]);
  EXPECT_TRUE(checker.check(j).empty());
}

// The host gauge: the plain streams took 6 ticks per instruction beside the
// costed run and a median of 5 beside the plain runs, so the costed run met
// a host 1.2 times as slow, and each CPU ratio over 1.2 is what it would
// have been on the plain runs' host.
TEST(AccuracyReport, HostGaugeSaysHowFarTheHostMovedAndTakesItOut) {
  const HostGauge gauge{6.0, {4.0, 5.0, 5.5, 5.0, 4.5, 5.0}};
  const Accuracy a = accuracy_of(make_data(), {2000}, {1000}, gauge);
  EXPECT_DOUBLE_EQ(a.host_run_ticks, 6.0);
  EXPECT_DOUBLE_EQ(a.host_plain_ticks, 5.0);
  EXPECT_EQ(a.host_gauges, 6);
  EXPECT_DOUBLE_EQ(a.host_drift, 1.2);
  ASSERT_EQ(a.policies.size(), 3u);
  for (const PolicyAccuracy& p : a.policies)
    EXPECT_DOUBLE_EQ(p.cpu_ratio_host, p.cpu_ratio / 1.2) << base_policy_name(p.policy);
  const std::string t = accuracy_text(a);
  EXPECT_NE(t.find("accuracy: host gauge: the plain streams took 6.00 ticks per instruction "
                   "beside the costed run, 5.00 beside the plain runs (median of 6): drift 1.200 "
                   "(above 1 the costed run met a slower host)"),
            std::string::npos)
      << t;
  // The host column: each CPU ratio over the drift.
  EXPECT_NE(t.find(fmt::format(" {:>6} ", fmt::format("{:.3f}", a.policies[1].cpu_ratio_host))),
            std::string::npos)
      << t;
  const nlohmann::json j = accuracy_json(a);
  EXPECT_DOUBLE_EQ(j["host_drift"].get<double>(), 1.2);
  EXPECT_DOUBLE_EQ(j["cpu_ratio_host"].get<double>(), a.policies[1].cpu_ratio / 1.2);
  std::ifstream in(std::string(DIS_SOURCE_DIR) + "/cost/cost_schema.json");
  test::SchemaChecker checker(nlohmann::json::parse(in)["properties"]["accuracy"]);
  EXPECT_TRUE(checker.check(j).empty());
  // Not gauged (no calibration ran): nothing said, nothing taken out.
  const Accuracy none = accuracy_of(make_data(), {2000}, {1000});
  EXPECT_EQ(none.host_drift, 0);
  EXPECT_EQ(none.policies[1].cpu_ratio_host, 0);
  EXPECT_EQ(accuracy_text(none).find("host gauge"), std::string::npos);
  EXPECT_EQ(accuracy_text(none).find("plain runs' host"), std::string::npos);
}

TEST(AccuracyReport, CpuRatioIsNotApplicableWhenPreemptionExceedsTheAttributedTime) {
  CostData d = make_data();
  d.preempted_ns = 5000;  // about 4558 ns of it inside instructions
  const std::string t = accuracy_text(accuracy_of(d, {2000}, {1000}));
  EXPECT_NE(t.find("\n  min         5.0 ns    2.52 us  1.262    4.77    n/a "), std::string::npos)
      << t;
}

TEST(AccuracyReport, JsonCarriesTheReportedPolicyAndAllOthers) {
  nlohmann::json j = accuracy_json(accuracy_of(make_data(), {2000}, {1000}));
  EXPECT_EQ(j["base"], "median");
  EXPECT_DOUBLE_EQ(j["attributed_ns"].get<double>(), 1500);
  ASSERT_EQ(j["policies"].size(), 3u);
  EXPECT_EQ(j["policies"][2]["base"], "mean");
  EXPECT_DOUBLE_EQ(j["policies"][2]["attributed_ns"].get<double>(), 2000);
  // Valid where the schema places it.
  std::ifstream in(std::string(DIS_SOURCE_DIR) + "/cost/cost_schema.json");
  nlohmann::json schema = nlohmann::json::parse(in);
  test::SchemaChecker checker(schema["properties"]["accuracy"]);
  EXPECT_TRUE(checker.check(j).empty());
}

// The stream base, when calibrated, is weighed beside the others, each
// pc with the base of its instruction's class: an addw (arith, 20 ticks)
// and a call (call, 5 ticks).
// make_data() with an addw at pc 0 and `second` at pc 1, and a calibrated
// stream base: arith 20 ticks, call 5, the other classes 1000.
CostData stream_data(Op second) {
  CostData d = make_data();
  auto m = std::make_shared<Module>();
  m->code.resize(2);
  m->code[0].op = Op::addw_;
  m->code[1].op = second;
  d.modules[0].module = m;
  d.base.stream_rounds = 11;
  d.base.stream_ticks = 15;
  d.base.stream_class_ticks.fill(1000);
  d.base.stream_class_ticks[static_cast<std::size_t>(CostClass::Arith)] = 20;
  d.base.stream_class_ticks[static_cast<std::size_t>(CostClass::Call)] = 5;
  return d;
}

TEST(AccuracyReport, StreamPolicySubtractsEachInstructionsClassBase) {
  CostData d = stream_data(Op::call_);
  CostData uncalibrated = d;
  uncalibrated.base.stream_rounds = 0;
  EXPECT_EQ(accuracy_of(uncalibrated, {2000}, {1000}).policies.size(), 3u)
      << "not calibrated: not shown";
  Accuracy a = accuracy_of(d, {2000}, {1000});
  ASSERT_EQ(a.policies.size(), 4u);
  const PolicyAccuracy& p = a.policies[3];
  EXPECT_EQ(p.policy, vm::BasePolicy::Stream);
  // 5000 - 100 x 20 + 150 - 10 x 5 + 1000 outside = 4100 ticks = 2050 ns;
  // the base carried: 2050 ticks over 110 instructions.
  EXPECT_DOUBLE_EQ(p.attributed_ns, 2050);
  EXPECT_DOUBLE_EQ(p.base_ns, 2050.0 / 110 / 2);
  const std::string t = accuracy_text(a);
  EXPECT_NE(t.find("\n  stream      9.3 ns    2.05 us  1.025 "), std::string::npos) << t;
  // The addw of a fill loop, timed alone (the loop stopped short), runs as
  // the plain pair: its class base plus the pair's (-15), 5 ticks; with -30
  // the sum clamps at zero. 5000 - 100 x 5 + 100 + 1000 = 5600 ticks;
  // 5000 + 100 + 1000 = 6100.
  CostData fused = d;
  fused.modules[0].fusion = {Fusion::Fill, Fusion::None};
  fused.base.stream_fusion_ticks[static_cast<std::size_t>(Fusion::Pair)] = -15;
  fused.base.stream_fusion_ticks[static_cast<std::size_t>(Fusion::Fill)] = 1000;
  EXPECT_DOUBLE_EQ(accuracy_of(fused, {2000}, {1000}).policies[3].attributed_ns, 2800);
  EXPECT_DOUBLE_EQ(accuracy_of(fused, {2000}, {1000}).policies[3].clipped_ns, 0);
  fused.base.stream_fusion_ticks[static_cast<std::size_t>(Fusion::Pair)] = -30;
  EXPECT_DOUBLE_EQ(accuracy_of(fused, {2000}, {1000}).policies[3].attributed_ns, 3050);
  // 80 of its 100 executions ran inside the loop's runs, timed whole, and
  // carry 2.5 runs' share of a run's base (50): 20 x 20 + 2.5 x 50 = 525
  // ticks. 5000 - 525 + 150 - 50 + 1000 = 5575 ticks.
  fused.base.stream_fusion_ticks[static_cast<std::size_t>(Fusion::Pair)] = 0;
  fused.base.stream_fusion_ticks[static_cast<std::size_t>(Fusion::Fill)] = 50;
  fused.modules[0].pcs[0].bulk_count = 80;
  fused.modules[0].pcs[0].bulk_runs = 2.5;
  EXPECT_DOUBLE_EQ(accuracy_of(fused, {2000}, {1000}).policies[3].attributed_ns, 5575.0 / 2);
  // The other policies take one base per run too: the median's 30 from 20
  // executions and 2.5 runs, 675 ticks; the call's 300 clamps at its 150.
  // 5000 - 675 + 0 + 1000 = 5325 ticks.
  EXPECT_DOUBLE_EQ(accuracy_of(fused, {2000}, {1000}).policies[1].attributed_ns, 5325.0 / 2);
  // The call as part of a pair: 10 x 1005 ticks of base over its 150 raw,
  // clamped at zero; 9900 ticks added back, 4950 ns.
  fused.modules[0].pcs[0].bulk_count = 0;
  fused.modules[0].pcs[0].bulk_runs = 0;
  fused.base.stream_fusion_ticks[static_cast<std::size_t>(Fusion::Pair)] = 1000;
  fused.modules[0].fusion = {Fusion::None, Fusion::Pair};
  const PolicyAccuracy over = accuracy_of(fused, {2000}, {1000}).policies[3];
  EXPECT_DOUBLE_EQ(over.attributed_ns, 2000);
  EXPECT_DOUBLE_EQ(over.clipped_ns, 4950);
  nlohmann::json j = accuracy_json(a);
  EXPECT_EQ(j["policies"][3]["base"], "stream");
  std::ifstream in(std::string(DIS_SOURCE_DIR) + "/cost/cost_schema.json");
  test::SchemaChecker checker(nlohmann::json::parse(in)["properties"]["accuracy"]);
  EXPECT_TRUE(checker.check(j).empty());
}

// An mcall that calls builtins carries, besides its class base, the
// stream's base per builtin call (the timed view's wrapper), averaged over
// its executions; the other policies do not.
TEST(AccuracyReport, StreamPolicyChargesAnMcallItsBuiltinCalls) {
  CostData d = stream_data(Op::mcall_);
  CallSite print;
  print.pc = 1;
  print.callee_name = "Sys->print";
  print.calls = 5;
  d.modules[0].call_sites.push_back(print);
  d.base.stream_builtin_ticks = 8;
  // 5 calls in 10 executions: 5 + 8 x 0.5 = 9 ticks each. 5000 - 100 x 20
  // + 150 - 10 x 9 + 1000 outside = 4060 ticks = 2030 ns.
  Accuracy a = accuracy_of(d, {2000}, {1000});
  ASSERT_EQ(a.policies.size(), 4u);
  EXPECT_DOUBLE_EQ(a.policies[3].attributed_ns, 2030);
  // The min base (10 ticks) takes no more for the builtins: 5000 - 1000 +
  // 150 - 100 + 1000 = 5050 ticks.
  EXPECT_DOUBLE_EQ(a.policies[0].attributed_ns, 2525);
  // A call site of a Limbo function is no builtin call.
  d.modules[0].call_sites[0].callee_module = 0;
  EXPECT_DOUBLE_EQ(accuracy_of(d, {2000}, {1000}).policies[3].attributed_ns, 2050);
}

}  // namespace
}  // namespace dis::cost

namespace dis {
namespace {

// The classes the stream base is fitted by: indexing and lengths compute an
// address and touch no reference count, unlike the other pointer operands.
TEST(CostClasses, FollowTheOperandsAndTheCallFamily) {
  EXPECT_EQ(cost_class(Op::addw_), CostClass::Arith);
  EXPECT_EQ(cost_class(Op::beqw_), CostClass::Arith);
  EXPECT_EQ(cost_class(Op::indw_), CostClass::Index);
  EXPECT_EQ(cost_class(Op::indc_), CostClass::Index);
  EXPECT_EQ(cost_class(Op::lena_), CostClass::Index);
  EXPECT_EQ(cost_class(Op::movp_), CostClass::Memory);
  EXPECT_EQ(cost_class(Op::consw_), CostClass::Memory);
  EXPECT_EQ(cost_class(Op::addf_), CostClass::Real);
  EXPECT_EQ(cost_class(Op::call_), CostClass::Call);
  EXPECT_EQ(cost_class(Op::ret_), CostClass::Call);
  EXPECT_EQ(cost_class_name(CostClass::Index), "index");
}

}  // namespace
}  // namespace dis
