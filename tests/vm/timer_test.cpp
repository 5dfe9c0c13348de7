// The timer: monotonic, calibrated to a plausible rate, and a 10 ms sleep
// measures as roughly 10 ms (bounds broad enough for a loaded machine).
#include "timer.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <thread>
#include <vector>

#include "probe_base.h"

namespace dis::vm {
namespace {

TEST(Timer, ReadsAreMonotonic) {
  (void)timer();
  std::uint64_t prev = now_ticks();
  for (int i = 0; i < 100000; ++i) {
    std::uint64_t t = now_ticks();
    ASSERT_GE(t, prev) << "read " << i;
    prev = t;
  }
}

TEST(Timer, CalibrationIsPlausible) {
  const TimerInfo& t = timer();
  EXPECT_FALSE(t.name.empty());
  if (t.tsc) {
    // A TSC between 0.2 and 10 GHz; calibration actually ran.
    EXPECT_GT(t.ticks_per_ns, 0.2);
    EXPECT_LT(t.ticks_per_ns, 10.0);
    EXPECT_GE(t.calibration_rounds, 4u);
    EXPECT_TRUE(t.fallback_reason.empty());
    // rdtsc by default, rdtscp+lfence with DIS_TIMER=rdtscp.
    EXPECT_EQ(t.name, t.read_kind == ClockRead::TscFenced ? "tsc (rdtscp+lfence)" : "tsc (rdtsc)");
  } else {
    EXPECT_DOUBLE_EQ(t.ticks_per_ns, 1.0);
    EXPECT_FALSE(t.fallback_reason.empty());
  }
  EXPECT_DOUBLE_EQ(ticks_per_ns(), t.ticks_per_ns);
}

TEST(Timer, TenMillisecondSleepMeasuresAboutTenMilliseconds) {
  (void)timer();
  // Best of three, so one preempted attempt on a busy machine does not fail.
  double best = 1e18;
  for (int i = 0; i < 3; ++i) {
    std::uint64_t t0 = now_ticks();
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    double ns = to_ns(now_ticks() - t0);
    EXPECT_GE(ns, 10e6 * 0.99) << "a sleep cannot end early";
    best = std::min(best, ns);
  }
  EXPECT_GE(best, 5e6);
  EXPECT_LE(best, 50e6);
}

TEST(Timer, ReadCostIsMeasured) {
  const TimerInfo& t = timer();
  EXPECT_EQ(t.read.samples, kReadBatches);
  EXPECT_LE(t.read.min, t.read.median);
  EXPECT_LE(t.read.min_ticks, t.read.median_ticks);
  EXPECT_GT(t.read.min, 0.0);
  EXPECT_LT(t.read.min_ns, 100000.0);  // one read costs far less than 100 us
  EXPECT_NEAR(t.read.min_ns, t.read.min / t.ticks_per_ns, 1e-9);
  EXPECT_NEAR(t.read.median_ns, t.read.median / t.ticks_per_ns, 1e-9);
  // The rounded ticks are the fractional ones to the nearest tick.
  EXPECT_LE(std::abs(static_cast<double>(t.read.min_ticks) - t.read.min), 0.5);
  EXPECT_LE(std::abs(static_cast<double>(t.read.median_ticks) - t.read.median), 0.5);
  ReadCost again = measure_read_cost(100);
  EXPECT_EQ(again.samples, 100u);
  EXPECT_LE(again.min, again.median);
}

TEST(Timer, BaseFromSamplesTakesMinOrMedian) {
  std::vector<std::uint64_t> s = {40, 10, 30, 20, 50};
  Base mn = base_from_samples(BasePolicy::Min, s);
  EXPECT_EQ(mn.ticks, 10u);
  EXPECT_EQ(mn.min_ticks, 10u);
  EXPECT_EQ(mn.median_ticks, 30u);
  EXPECT_EQ(mn.samples, 5u);
  EXPECT_NEAR(mn.ns, 10.0 / timer().ticks_per_ns, 1e-9);
  Base md = base_from_samples(BasePolicy::Median, s);
  EXPECT_EQ(md.ticks, 30u);
  EXPECT_EQ(base_from_samples(BasePolicy::Min, {}).ticks, 0u);
}

TEST(Timer, MeanBaseLeavesTheTopPercentOut) {
  // A quantised timer: 26 and 52 ticks, one third and two thirds (mean 43,
  // median 52), and one preempted sample that must not move the mean.
  std::vector<std::uint64_t> s;
  for (int i = 0; i < 99; ++i) s.push_back(i % 3 == 0 ? 26 : 52);
  s.push_back(1'000'000);
  Base m = base_from_samples(BasePolicy::Mean, s);
  EXPECT_EQ(m.mean_ticks, 43u);
  EXPECT_EQ(m.median_ticks, 52u);
  EXPECT_EQ(m.ticks, 43u);
  EXPECT_EQ(m.policy, BasePolicy::Mean);
  EXPECT_EQ(m.ticks_for(BasePolicy::Min), 26u);
}

TEST(Timer, BaseSubtractionNeverGoesBelowZero) {
  EXPECT_EQ(minus_base(100, 30), 70u);
  EXPECT_EQ(minus_base(30, 30), 0u);
  EXPECT_EQ(minus_base(10, 30), 0u);
}

TEST(Timer, BasePolicyNames) {
  BasePolicy p = BasePolicy::Min;
  EXPECT_TRUE(parse_base_policy("median", p));
  EXPECT_EQ(p, BasePolicy::Median);
  EXPECT_TRUE(parse_base_policy("min", p));
  EXPECT_EQ(p, BasePolicy::Min);
  EXPECT_FALSE(parse_base_policy("average", p));
  EXPECT_STREQ(base_policy_name(BasePolicy::Median), "median");
  EXPECT_TRUE(parse_base_policy("mean", p));
  EXPECT_EQ(p, BasePolicy::Mean);
  EXPECT_STREQ(base_policy_name(BasePolicy::Mean), "mean");
}

}  // namespace
}  // namespace dis::vm

namespace dis::vm {
namespace {

TEST(Timer, FallbackCalibrationUsesTheClock) {
  TimerInfo c = calibrate_timer(false);
  EXPECT_FALSE(c.tsc);
  EXPECT_EQ(c.name, "clock_gettime(CLOCK_MONOTONIC_RAW)");
  EXPECT_EQ(c.fallback_reason, "TSC not allowed");
  EXPECT_DOUBLE_EQ(c.ticks_per_ns, 1.0);
  // The timer in use is unchanged by a fresh calibration.
  bool before = timer().tsc;
  TimerInfo again = calibrate_timer(true);
  EXPECT_EQ(again.tsc, before);
  EXPECT_EQ(timer().tsc, before);
  if (again.tsc) {
    // Two calibrations of the same counter agree within 1%.
    EXPECT_NEAR(again.ticks_per_ns, timer().ticks_per_ns, timer().ticks_per_ns / 100);
  }
}

TEST(Timer, MonoClockTicksAreNanoseconds) {
  std::uint64_t t0 = MonoClock::now();
  std::this_thread::sleep_for(std::chrono::milliseconds(2));
  std::uint64_t dt = MonoClock::now() - t0;
  EXPECT_GE(dt, 2'000'000u);
  EXPECT_LT(dt, 2'000'000'000u);
}

// A hypervisor that hides RDTSCP (bhyve on AMD EPYC) still has a usable
// rdtsc: only the fenced read is refused.
TEST(Timer, OnlyTheFencedReadNeedsRdtscp) {
  TscFeatures f{.extended_leaves = true, .tsc = true, .rdtscp = false, .invariant = true};
  EXPECT_EQ(tsc_refusal(f, ClockRead::TscPlain), "");
  EXPECT_EQ(tsc_refusal(f, ClockRead::TscFenced),
            "no RDTSCP (the fenced read, --timer rdtscp, needs it)");
  f.rdtscp = true;
  EXPECT_EQ(tsc_refusal(f, ClockRead::TscFenced), "");
  f.invariant = false;
  EXPECT_EQ(tsc_refusal(f, ClockRead::TscPlain), "no invariant TSC");
  f.invariant = true;
  f.tsc = false;
  EXPECT_EQ(tsc_refusal(f, ClockRead::TscPlain), "no TSC");
  f.extended_leaves = false;
  EXPECT_EQ(tsc_refusal(f, ClockRead::TscPlain), "cpuid has no leaf 0x80000007");
}

}  // namespace
}  // namespace dis::vm
