// The timer's resolution: the smallest step by which its reads advance.
//
// A counter may advance in steps rather than tick by tick: under KVM this
// project's host reads the TSC in steps of 26-27 ticks (11 ns), and when
// two reads fall inside one step the second comes out one tick later than
// the first. Every interval is then a whole number of steps, give or take
// such an artefact, and a base taken as the minimum of empty measurements
// lands on the artefact (1 tick: nothing subtracted) or a whole step below
// the truth. The cost tool reports the step and never takes a base below it.
//
// How it is found: reads are repeated until the value changes, many times;
// the differences are grouped into clusters of neighbouring values, and
// the step is the smallest cluster holding a real share of them
// (kStepShare); smaller clusters are artefacts. A cluster that is only the
// read's own cost (a counter that ticks finely, read back to back in a
// steady number of ticks) must not pass for a step: reads separated by
// random delays must also land on whole steps (kOnGrid), or the counter
// is taken to count every tick.
#pragma once

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace dis::vm {

struct TimerResolution {
  // The clock's step in ticks (a fraction: steps of 26 and 27 average
  // 26.9); 1 when the counter is not stepped.
  double step_ticks = 1;
  bool stepped = false;
  // Of the differences of reads taken until the value changed: the share
  // one step apart (the step's cluster), the share in smaller clusters (the
  // artefacts) and the largest artefact, in ticks.
  double step_share = 0;
  double artefact_share = 0;
  std::uint64_t artefact_ticks = 0;
  // Of all reads, the share that returned the value before them.
  double repeat_share = 0;
  // Of the reads separated by random delays, the share a whole number of
  // steps apart (or an artefact): near 1 for a stepped counter.
  double on_grid = 0;
  // The commonest differences (ticks, share of the changes), commonest
  // first, at most kCommon: the distribution the step rests on.
  static constexpr std::size_t kCommon = 4;
  std::vector<std::pair<std::uint64_t, double>> common;
  std::uint32_t samples = 0;
  // The smallest interval that is not an artefact: three quarters of a step
  // (0 when the counter is not stepped).
  std::uint64_t floor_ticks() const noexcept {
    return stepped ? static_cast<std::uint64_t>(step_ticks * 0.75 + 0.5) : 0;
  }
};

// A cluster must hold this share of the changes to be the step.
inline constexpr double kStepShare = 0.2;
// Delayed reads on whole steps for a counter to count as stepped.
inline constexpr double kOnGrid = 0.9;
// The smallest step taken as one (a finer one is the tick itself).
inline constexpr double kMinStep = 4;

// The resolution from `changes` (differences of reads repeated until the
// value changed), `delayed` (differences of reads with random delays
// between them), and how many of `reads` returned the value before them.
TimerResolution resolution_of(std::span<const std::uint64_t> changes,
                              std::span<const std::uint64_t> delayed, std::uint64_t repeats,
                              std::uint64_t reads);

// Measures it with now_ticks() (the timer must be chosen): `samples`
// changes and a quarter as many delayed pairs, about a millisecond.
TimerResolution measure_resolution(std::uint32_t samples = 20000);

}  // namespace dis::vm
