// The base: what a probe adds to each observation, subtracted from it. As
// the paper does with BASE, the cost of an empty measurement is sampled
// many times before a run; its minimum, median or mean is subtracted from
// every observation, never below zero. The stream policy instead fits one
// base per cost class and fused kind to instruction streams run plain and
// timed (cost/stream_base.h).
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>

#include "cost_class.h"
#include "decode.h"
#include "probe_record.h"

namespace dis::vm {

// Min is the paper's BASE. With a coarse timer (this project's usual host
// has a TSC that steps every ~26 ticks) the observations of an empty
// measurement are a mix of a few quantised values, so the median can sit a
// whole step away from the probe's true average cost; Mean (outliers left
// out) is the unbiased estimate of what each observation carries. Stream is
// not an empty measurement: what the probe adds per instruction on synthetic
// instruction streams run plain and timed (cost/stream_base.h).
enum class BasePolicy { Min, Median, Mean, Stream };
// "min" / "median" / "mean" / "stream"
const char* base_policy_name(BasePolicy p);
// Parses a policy's name; false on anything else.
bool parse_base_policy(const std::string& text, BasePolicy& out);

struct Base {
  BasePolicy policy = BasePolicy::Min;
  std::uint64_t ticks = 0;  // subtracted from each observation
  double ns = 0;
  std::uint64_t min_ticks = 0, median_ticks = 0, mean_ticks = 0;
  std::uint32_t samples = 0;
  // min_ticks is the smallest observation of at least floor_ticks: on a
  // stepped timer (TimerResolution) a shorter one is the clock's artefact,
  // never a base. 0: no floor.
  std::uint64_t floor_ticks = 0;
  // The empty observations' standard deviation (ticks): the base's spread.
  double empty_std_ticks = 0;
  // The stream policy's calibration (0 when it was not run): the base in
  // ticks per instruction of each cost class (cost_class.h), unrounded (a
  // difference of two means), and over all the streams' instructions; the
  // rounds (each runs every stream plain and timed), instructions per
  // round, its spread ((max - min) of the rounds' overall bases, ticks) and
  // its cost; the streams and the root mean square of the fit's residuals
  // (ticks per instruction: how far the streams disagree with one base per
  // class and fused kind).
  std::array<double, kNumCostClasses> stream_class_ticks{};
  // Pair: added to the class base of an instruction the plain run executes
  // in a fused pair or triple, which the timed view does not run fused (what
  // fusion saves the plain run). Fill and Scan: the base of one run of an
  // array loop, which the timed view runs fused as one interval (one probe
  // step). The None entry stays 0. May be negative.
  std::array<double, kNumFusions> stream_fusion_ticks{};
  // Added to an mcall's base per builtin call it makes: the timed view
  // wraps each builtin (its own record, three clock reads), which no class
  // base holds. Never below zero.
  double stream_builtin_ticks = 0;
  double stream_ticks = 0;
  std::uint32_t stream_rounds = 0;  // the rounds the base rests on
  // Of all rounds, those run between the costed run's slices (0: all ran
  // before it). The base rests on these alone when there are enough.
  std::uint32_t stream_run_rounds = 0;
  // Of all rounds, those run after the costed runs (the sampled view tops
  // a short run's up: StreamCalibration::top_up).
  std::uint32_t stream_after_rounds = 0;
  // The factor the run's rounds put on the medians (every stream_* ticks
  // figure above includes it): their mean, each smoothed with its
  // neighbours, weighted by the run's instructions beside them, over their
  // median. 1 when no round ran during the run.
  double stream_level = 1;
  std::uint64_t stream_instructions = 0;
  double stream_spread_ticks = 0;
  // Standard error of the rounds' median (1.2533 x sigma / sqrt(rounds),
  // sigma from the interquartile range, so one disturbed round does not set
  // it): how far stream_ticks may sit from where more rounds would put it.
  // It knows nothing of a host that changes between calibration and run.
  double stream_se_ticks = 0;
  double stream_ms = 0;
  std::uint32_t stream_streams = 0;
  double stream_residual_ticks = 0;
  // The ticks each policy would subtract from one observation (min, median
  // and mean are always measured; stream when calibrated).
  std::uint64_t ticks_for(BasePolicy p) const noexcept {
    switch (p) {
      case BasePolicy::Min:
        return min_ticks;
      case BasePolicy::Median:
        return median_ticks;
      case BasePolicy::Mean:
        return mean_ticks;
      case BasePolicy::Stream:
        return stream_ticks > 0 ? static_cast<std::uint64_t>(stream_ticks + 0.5) : 0;
    }
    return 0;
  }
  // The same for one instruction of `op` that the plain run executes as
  // `fusion` says, unrounded (the stream base keeps its fraction of a tick:
  // on an instruction of one or two ticks it matters, and its class), never
  // below zero.
  // An array loop's pc timed alone (the loop stopped short, or ran its
  // test on entry) runs as the plain pair or triple does.
  double exact_for(BasePolicy p, Op op, Fusion fusion) const noexcept {
    if (p != BasePolicy::Stream) return static_cast<double>(ticks_for(p));
    const Fusion alone = fusion == Fusion::None ? Fusion::None : Fusion::Pair;
    const double b = stream_class_ticks[static_cast<std::size_t>(cost_class(op))] +
                     stream_fusion_ticks[static_cast<std::size_t>(alone)];
    return b > 0 ? b : 0;
  }
  // The base of one run of an array loop of kind `loop` (Fill or Scan),
  // timed as one interval: one probe step.
  double run_for(BasePolicy p, Fusion loop) const noexcept {
    if (p != BasePolicy::Stream) return static_cast<double>(ticks_for(p));
    const double b = stream_fusion_ticks[static_cast<std::size_t>(loop)];
    return b > 0 ? b : 0;
  }
  // The base all of a pc's executions carry: `single` per execution timed
  // alone, `run` per share of a fused loop's interval.
  static double total(const ProbeRecord& r, double single, double run) noexcept {
    return static_cast<double>(r.single_count()) * single + r.bulk_runs * run;
  }
  // exact_for() of an instruction that makes `builtin_calls` builtin calls
  // per execution on average (an mcall of a builtin; 0 for everything else).
  double exact_for(BasePolicy p, Op op, Fusion fusion, double builtin_calls) const noexcept {
    const double b = exact_for(p, op, fusion);
    return p == BasePolicy::Stream ? b + stream_builtin_ticks * builtin_calls : b;
  }
};
inline constexpr BasePolicy kBasePolicies[] = {BasePolicy::Min, BasePolicy::Median,
                                               BasePolicy::Mean, BasePolicy::Stream};

// The base from samples of an empty measurement taken by the caller (e.g.
// the Time probe timing `nop`s, so the probe's own bookkeeping is included).
// Empty samples give a zero base.
Base base_from_samples(BasePolicy policy, std::span<const std::uint64_t> samples);

// An observation minus the base, never below zero.
inline std::uint64_t minus_base(std::uint64_t ticks, std::uint64_t base) noexcept {
  return ticks > base ? ticks - base : 0;
}

}  // namespace dis::vm
