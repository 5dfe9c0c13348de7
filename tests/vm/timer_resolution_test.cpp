// The timer's resolution (probe/timer_resolution.h) from synthetic reads
// shaped as this project's hosts give them, and the base that never comes
// from an artefact step.
#include "timer_resolution.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "probe_timing.h"
#include "timer.h"

namespace dis::vm {
namespace {

// Reads repeated until they changed, as a KVM/bhyve TSC gives them: one
// step of 26 or 27 ticks, or one tick when two reads fell in one step.
std::vector<std::uint64_t> stepped_changes() {
  std::vector<std::uint64_t> v;
  for (int i = 0; i < 1000; ++i) v.push_back(i % 10 == 0 ? 1 : i % 10 == 1 ? 26 : 27);
  return v;
}

// Reads `delays` apart on a counter of `step` ticks: the difference is a
// whole number of steps, or one tick when both fell in one step.
std::vector<std::uint64_t> on_steps(double step, int n) {
  std::vector<std::uint64_t> v;
  for (int i = 0; i < n; ++i) {
    const double k = i % 5;
    v.push_back(k == 0 ? 1 : static_cast<std::uint64_t>(k * step + 0.5));
  }
  return v;
}

TEST(TimerResolution, FindsTheStepAndItsArtefacts) {
  const TimerResolution r = resolution_of(stepped_changes(), on_steps(26.9, 400), 0, 1000);
  EXPECT_TRUE(r.stepped);
  EXPECT_NEAR(r.step_ticks, 26.89, 0.01);  // 100 x 26 and 800 x 27 over 900
  EXPECT_NEAR(r.step_share, 0.9, 1e-9);
  EXPECT_NEAR(r.artefact_share, 0.1, 1e-9);
  EXPECT_EQ(r.artefact_ticks, 1u);
  EXPECT_DOUBLE_EQ(r.on_grid, 1.0);
  ASSERT_FALSE(r.common.empty());
  EXPECT_EQ(r.common.front().first, 27u);
  EXPECT_NEAR(r.common.front().second, 0.8, 1e-9);
  EXPECT_EQ(r.samples, 1000u);
  // An artefact is below the floor; one step is above it.
  EXPECT_GT(r.floor_ticks(), 1u);
  EXPECT_LE(r.floor_ticks(), 26u);
}

TEST(TimerResolution, AFinelyTickingCounterIsNotStepped) {
  // Back-to-back reads a steady 24 ticks apart (the read's own cost), and
  // reads with delays spread evenly: no grid holds them.
  const std::vector<std::uint64_t> changes(1000, 24);
  std::vector<std::uint64_t> delayed;
  for (int i = 0; i < 400; ++i) delayed.push_back(24 + static_cast<std::uint64_t>(i % 97));
  const TimerResolution r = resolution_of(changes, delayed, 0, 1000);
  EXPECT_FALSE(r.stepped);
  EXPECT_DOUBLE_EQ(r.step_ticks, 1.0);
  EXPECT_EQ(r.floor_ticks(), 0u);
  EXPECT_LT(r.on_grid, kOnGrid);
  ASSERT_FALSE(r.common.empty());
  EXPECT_EQ(r.common.front().first, 24u);
}

TEST(TimerResolution, AReadOfTwoStepsFindsTheStep) {
  // The clock fallback here: reads 20 ns apart on a clock of 10 ns steps.
  std::vector<std::uint64_t> changes(1000, 20);
  for (int i = 0; i < 200; ++i) changes[static_cast<std::size_t>(i)] = 30;
  const TimerResolution r = resolution_of(changes, on_steps(10.0, 400), 0, 1000);
  EXPECT_TRUE(r.stepped);
  EXPECT_NEAR(r.step_ticks, 10.0, 1e-9);
}

TEST(TimerResolution, ScatteredChangesHaveNoStep) {
  std::vector<std::uint64_t> changes;
  for (int i = 0; i < 1000; ++i) changes.push_back(20 + 2 * static_cast<std::uint64_t>(i % 50));
  const TimerResolution r = resolution_of(changes, on_steps(26.9, 100), 5, 1000);
  EXPECT_FALSE(r.stepped);  // no cluster holds a fifth of the changes
  EXPECT_NEAR(r.repeat_share, 0.005, 1e-12);
  EXPECT_EQ(resolution_of({}, {}, 0, 0).samples, 0u);
}

TEST(TimerResolution, MeasuredOnThisHost) {
  const TimerResolution& r = timer().resolution;
  EXPECT_GT(r.samples, 0u);
  EXPECT_GE(r.step_ticks, 1.0);
  if (r.stepped) {
    EXPECT_GE(r.step_ticks, kMinStep);
    EXPECT_GE(r.on_grid, kOnGrid);
  }
}

TEST(TimerResolution, MinBaseIsNeverAnArtefactStep) {
  // Empty instructions on a stepped timer: one step (27), two (54), and an
  // artefact (1) in one of ten observations.
  std::vector<ProbeRecord> r(4);
  for (int i = 0; i < 400; ++i) {
    const std::uint64_t t = i % 10 == 0 ? 1 : i % 3 == 0 ? 27 : 54;
    r[static_cast<std::size_t>(i) % r.size()].add(t);
  }
  EXPECT_EQ(base_from_records(BasePolicy::Min, r).min_ticks, 1u);  // the paper's minimum
  const Base b = base_from_records(BasePolicy::Min, r, 20);
  EXPECT_EQ(b.min_ticks, 27u);
  EXPECT_EQ(b.ticks, 27u);
  EXPECT_EQ(b.floor_ticks, 20u);
  EXPECT_GT(b.empty_std_ticks, 0.0);
  // Nothing at or above the floor: no base rather than an artefact.
  std::vector<ProbeRecord> low(1);
  low[0].add(1);
  EXPECT_EQ(base_from_records(BasePolicy::Min, low, 20).min_ticks, 0u);
}

}  // namespace
}  // namespace dis::vm
