// A timed report's error bars (cost/cost_quality.h) from synthetic data:
// the timer's resolution, the base and its spread, the accuracy estimate
// and each warning, in every format; --repeat's run-to-run reliability.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "cost_quality.h"
#include "cost_report.h"
#include "json_schema_checker.h"
#include "tool_runner.h"

namespace dis::cost {
namespace {

using nlohmann::json;

// One module of four arith instructions on lines 1-2, each executed
// `count` times at `own` ticks (after the base), on a timer of 2 ticks per
// ns that steps by 26.9 ticks; the stream base 20 ticks per instruction.
CostData make_data(std::uint64_t count = 1000, std::uint64_t own = 5) {
  CostData d;
  d.program = "p.b";
  d.mode = Mode::Time;
  d.timer.name = "tsc (rdtsc)";
  d.timer.tsc = true;
  d.timer.ticks_per_ns = 2.0;
  vm::TimerResolution& r = d.timer.resolution;
  r.stepped = true;
  r.step_ticks = 26.9;
  r.step_share = 0.9;
  r.artefact_share = 0.1;
  r.artefact_ticks = 1;
  r.on_grid = 1;
  r.samples = 20000;
  r.common = {{27, 0.8}, {1, 0.1}, {26, 0.1}};
  d.base.policy = vm::BasePolicy::Stream;
  d.base.stream_rounds = 31;
  d.base.stream_streams = 12;
  d.base.stream_instructions = 120000;
  d.base.stream_ticks = 20;
  d.base.stream_class_ticks.fill(20);
  d.base.stream_se_ticks = 0.5;
  d.base.stream_residual_ticks = 1.0;
  auto m = std::make_shared<Module>();
  m->name = "P";
  m->source_files = {"p.b"};
  for (int i = 0; i < 4; ++i) {
    Instruction ins;
    ins.op = Op::addw_;
    m->code.push_back(ins);
    SrcPos p;
    p.file = 0;
    p.line = 1 + i / 2;
    p.end_line = p.line;
    m->positions.push_back(p);
  }
  ModuleCost mc;
  mc.name = "P";
  mc.module = m;
  mc.source_text = {{"a := b;", "c := d;"}};
  mc.pcs.resize(4);
  for (ProbeRecord& rec : mc.pcs)
    for (std::uint64_t i = 0; i < count; ++i) rec.add(own);
  d.modules.push_back(std::move(mc));
  // The run took twice the attributed time, none of it the host's.
  d.wall_ns = d.ns(2.0 * 4 * static_cast<double>(count * own));
  return d;
}

bool has(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

TEST(ErrorBars, OnlyARunThatMeasuredItsTimerHasThem) {
  CostData d = make_data();
  d.timer.resolution.samples = 0;  // a report built by hand
  EXPECT_FALSE(error_bars(d));
  EXPECT_EQ(quality_text(d), "");
  EXPECT_TRUE(quality_json(d).is_null());
  EXPECT_FALSE(render_json_value(d, {}).contains("quality"));
  d = make_data();
  d.mode = Mode::Count;
  EXPECT_FALSE(error_bars(d));
}

TEST(ErrorBars, TheHeaderStatesResolutionBaseAndEstimate) {
  const CostData d = make_data();
  const Quality q = quality_of(d);
  // 4000 instructions of 5 ticks own: 20000 ticks (10 us) own time.
  EXPECT_DOUBLE_EQ(q.own_ns, 10000.0);
  EXPECT_DOUBLE_EQ(q.base_ns, 10.0);        // 20 ticks at 2 per ns
  EXPECT_DOUBLE_EQ(q.base_spread_ns, 0.5);  // two standard errors of 0.5 ticks
  EXPECT_DOUBLE_EQ(q.calibration, 0.2);     // 2 x 0.5 x 4000 / 20000
  EXPECT_DOUBLE_EQ(q.model, 0.2);           // 1.0 x 4000 / 20000
  EXPECT_DOUBLE_EQ(q.sampling, 0.0);
  EXPECT_DOUBLE_EQ(q.host, 0.0);
  EXPECT_NEAR(q.accuracy, std::sqrt(0.08), 1e-12);
  EXPECT_DOUBLE_EQ(q.below_resolution, 1.0);
  const std::string t = render_text(d, {});
  EXPECT_TRUE(has(t,
                  "timer resolution: steps of 26.9 ticks (13.45 ns): of 20000 reads repeated "
                  "until the value changed, 90.0% moved one step and 10.0% at most 1 tick"))
      << t;
  EXPECT_TRUE(has(t,
                  "base per instruction: 10.00 ns on average over this run (10.00-10.00 ns by "
                  "instruction), +/- 0.50 ns (two standard errors of the stream calibration)"))
      << t;
  EXPECT_TRUE(has(t,
                  "accuracy estimate: the program's own time 10.00 us (attributed less what "
                  "the host took) is within +/- 28.3% (the base's calibration 20.0%, the "
                  "streams' misfit to one base per class 20.0%, sampling 0.0%"))
      << t;
}

TEST(ErrorBars, AnEmptyMeasurementBaseHasNoEstimateWithoutStreams) {
  CostData d = make_data();
  d.base.policy = vm::BasePolicy::Min;
  d.base.min_ticks = d.base.ticks = 27;
  d.base.empty_std_ticks = 3;
  d.base.stream_rounds = 0;
  const Quality q = quality_of(d);
  EXPECT_FALSE(q.estimated);
  EXPECT_DOUBLE_EQ(q.base_ns, 13.5);
  EXPECT_DOUBLE_EQ(q.base_spread_ns, 1.5);
  EXPECT_TRUE(has(quality_text(d), "accuracy estimate: none for the min base"));
  // With the streams calibrated beside it (--accuracy), its distance from
  // the stream base counts: 7 ticks on each of 4000 instructions.
  d.base.stream_rounds = 31;
  EXPECT_DOUBLE_EQ(quality_of(d).model, 0.2 + 7.0 * 4000 / 20000);
}

TEST(ErrorBars, EachWarningHasItsCause) {
  // Instructions of 40 ticks own: above one step; no host; below the wall.
  CostData quiet = make_data(1000, 40);
  EXPECT_TRUE(quality_of(quiet).warnings.empty());

  const std::string steps = quality_text(make_data(1000, 5));
  EXPECT_TRUE(has(steps,
                  "warning: 100.0% of the executed instructions took less than one timer "
                  "step (26.9 ticks, 13.45 ns)"))
      << steps;

  CostData host = make_data(1000, 40);
  host.preempted_ns = 0.1 * host.wall_ns;
  const std::string h = quality_text(host);
  EXPECT_TRUE(has(h, "warning: the host took 10.0% of the run's wall time")) << h;
  host.preempted_ns = 0.04 * host.wall_ns;
  EXPECT_TRUE(quality_of(host).warnings.empty());

  CostData sampled = make_data(1000, 40);
  sampled.sample_every = 100;
  sampled.wall_ns = quality_of(sampled).attributed_ns / 4;
  const std::string s = quality_text(sampled);
  EXPECT_TRUE(has(s,
                  "warning: the attributed total (80.00 us) exceeds the run's wall time "
                  "(20.00 us): the sampled estimates scale too few timed executions up"))
      << s;
}

TEST(ErrorBars, SampledTotalsCarryTheirSamplingError) {
  CostData d = make_data(0, 0);
  for (ProbeRecord& r : d.modules[0].pcs) {
    for (int i = 0; i < 10; ++i) r.add_count();
    r.observe(30);
    r.observe(50);
  }
  d.sample_every = 5;
  // Each pc: 10 x mean 40 = 400 ticks, standard deviation 14.14 over 2
  // timed: variance of the total 100 x 200 / 2 = 10000; four pcs 40000.
  const Quality q = quality_of(d);
  EXPECT_NEAR(q.sampling, 2 * 200.0 / 1600, 1e-9);
}

TEST(ErrorBars, EveryFormatCarriesThem) {
  const CostData d = make_data();
  ReportOptions o;
  o.format = Format::Csv;
  const std::string csv = render_csv(d, o);
  EXPECT_EQ(csv.rfind("# outcome: ok\n# timer resolution: steps of 26.9 ticks", 0), 0u) << csv;
  EXPECT_TRUE(has(csv, "\n# warning: 100.0% of the executed instructions"));
  EXPECT_TRUE(has(csv, "\nkind,module,file,line,pc,name,count"));
  const std::string cg = render_callgrind(d, o);
  EXPECT_EQ(cg.rfind("# callgrind format\n# timer resolution: steps of 26.9 ticks", 0), 0u) << cg;
  const json j = render_json_value(d, o);
  ASSERT_TRUE(j.contains("quality"));
  EXPECT_EQ(j["quality"]["resolution"]["step_ticks"], 26.9);
  EXPECT_EQ(j["quality"]["accuracy"]["estimated"], true);
  EXPECT_EQ(j["quality"]["warnings"].size(), 1u);
  test::SchemaChecker checker(
      json::parse(test::read_text(std::string(DIS_SOURCE_DIR) + "/cost/cost_schema.json")));
  const std::vector<std::string> errors = checker.check(j);
  EXPECT_TRUE(errors.empty()) << errors.front();
  // Counts only: none.
  o.counts_only = true;
  EXPECT_FALSE(has(render_csv(d, o), "# timer"));
}

TEST(RunSpread, AChiSquareTestAgainstFivePercent) {
  const RunSpread steady = run_spread({100, 101, 99, 100, 100, 101, 99, 100, 100, 100}, 95);
  EXPECT_EQ(steady.runs, 10u);
  EXPECT_NEAR(steady.mean, 100, 1e-9);
  EXPECT_LT(steady.cv, 0.01);
  EXPECT_TRUE(steady.reproducible);
  const RunSpread noisy = run_spread({100, 130, 70, 100, 140, 60, 100, 120, 80, 100}, 95);
  EXPECT_GT(noisy.cv, 0.2);
  EXPECT_FALSE(noisy.reproducible);
  // Two runs 8% apart prove nothing at 95%, at 50% they do.
  EXPECT_TRUE(run_spread({100, 108}, 95).reproducible);
  EXPECT_FALSE(run_spread({100, 120}, 50).reproducible);
  EXPECT_TRUE(run_spread({100}, 95).reproducible);
  EXPECT_DOUBLE_EQ(run_spread({0, 0, 0}, 95).cv, 0.0);
}

TEST(RunSpread, TheLineViewMarksLinesNotReproducible) {
  CostData d = make_data();
  d.runs = 10;
  ModuleCost& mc = d.modules[0];
  mc.run_pc_ticks.assign(10, std::vector<std::uint64_t>(4, 0));
  for (std::size_t r = 0; r < 10; ++r) {
    // Line 1 (pcs 0, 1) steady, line 2 (pcs 2, 3) half again in every other run.
    mc.run_pc_ticks[r] = {500, 500, r % 2 ? 1000u : 500u, 500};
  }
  // Line 2 is the hotter.
  for (int i = 0; i < 1000; ++i) mc.pcs[2].add(50);
  const std::string t = render_text(d, {});
  EXPECT_TRUE(has(t, "\n    1: a := b;\n")) << t;
  EXPECT_TRUE(has(t, "\n    2! c := d;\n")) << t;
  EXPECT_TRUE(has(t, "not reproducible: above 5% at 95%")) << t;
  EXPECT_TRUE(has(t,
                  "reliability over 10 runs: the hottest line's total varies by 21.1% from run "
                  "to run (coefficient of variation); 1 of 2 timed lines vary by more than "
                  "5.0% at 95% confidence"))
      << t;
  const json j = render_json_value(d, {});
  const json& lines = j["modules"][0]["lines"];
  EXPECT_EQ(lines[0]["reproducible"], true);
  EXPECT_EQ(lines[1]["reproducible"], false);
  EXPECT_EQ(j["quality"]["reliability"]["unreproducible_lines"], 1);
}

}  // namespace
}  // namespace dis::cost
