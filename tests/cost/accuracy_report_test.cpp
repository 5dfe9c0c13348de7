// cost --accuracy from a synthetic CostData: every base policy weighed from
// the same raw ticks (clamped per pc as the report clamps), preemption
// shared between instructions and bookkeeping, text and JSON.
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
  // 500 ns preempted; instructions hold 5150 of the slices' 5650 ticks.
  EXPECT_DOUBLE_EQ(a.preempted_inside_ns, 500.0 * 5150 / 5650);
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

TEST(AccuracyReport, TextNamesEveryPolicyAndMarksTheReportedOne) {
  const std::string t = accuracy_text(accuracy_of(make_data(), {2000}, {1000}));
  EXPECT_NE(t.find("accuracy: plain run 2.00 us wall, 1.00 us CPU (medians of 1); 110 "
                   "instructions per run\n"),
            std::string::npos)
      << t;
  EXPECT_NE(t.find("accuracy (base min, 5 ns): attributed 2.52 us per run, ratio 1.262"),
            std::string::npos)
      << t;
  EXPECT_NE(t.find("accuracy (base median, 15 ns, reported): attributed 1.50 us per run"),
            std::string::npos)
      << t;
  EXPECT_NE(t.find("accuracy (base mean, 10 ns): attributed 2.00 us per run, ratio 1.000"),
            std::string::npos)
      << t;
}

TEST(AccuracyReport, CpuRatioIsNotApplicableWhenPreemptionExceedsTheAttributedTime) {
  CostData d = make_data();
  d.preempted_ns = 5000;  // about 4558 ns of it inside instructions
  const std::string t = accuracy_text(accuracy_of(d, {2000}, {1000}));
  EXPECT_NE(t.find("(base min, 5 ns): attributed 2.52 us per run, ratio 1.262 to the wall time, "
                   "residual bias 4.77 ns per instruction; less preemption, ratio n/a "
                   "(preemption exceeds it) to the CPU time\n"),
            std::string::npos)
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

}  // namespace
}  // namespace dis::cost
