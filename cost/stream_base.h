// The stream base (cost --base stream): what the timing probe adds to each
// executed instruction inside the real interpreter loop, measured before and
// during the run on small synthetic Dis instruction streams (Limbo compiled in memory,
// nothing read from disk), each run both plain and under the probe in this
// process: each stream's (raw timed ticks - plain ticks) per instruction,
// the median over rounds that alternate the two, and one base per cost
// class, per fused kind and per builtin call (what the timed view's wrapper
// leaves in an mcall) fitted to all the streams by least squares (more
// streams than unknowns, so the residual says how well the model fits). Unlike the
// empty-measurement bases (min, median, mean) it includes how the clock read overlaps real work: an
// unfenced read hides a short instruction, a fenced one serialises it.
// Nothing about the program being costed enters it.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

#include "cost_class.h"
#include "cost_probe.h"
#include "decode.h"
#include "module.h"

namespace dis::cost {

// The calibration, round by round, so rounds can run during the costed run
// itself (between its slices: CostRecorder::pause): a host whose
// speed drifts (a hypervisor's neighbours) then gives the base the same
// conditions as the run. On a program of one or two ticks per instruction
// against a base of about 27, a drift of a few percent between calibration
// and run was a ratio off by half or more.
class StreamCalibration {
 public:
  // A timed stream run varies by about a tick per instruction from round to
  // round on a hypervisor; a program whose instructions take a tick or two
  // (a sieve) needs the median to a fraction of that. Measured, sieve 60's
  // cpu_ratio over six runs: 0.06-2.29 with 11 rounds, 1.49-1.96 with 33.
  static constexpr int kRounds = 31;
  // Rounds since mark() that fit() prefers to all rounds.
  static constexpr std::size_t kMinRunRounds = 11;
  // The sampled view's calibration (perf/LOG.md, "The sampled view's
  // cost"). Its run costs 1.2-1.6x the plain one, so kRounds before it
  // (about half a second) and a round per four rounds' time of the run made
  // the view 2.2-3.9x the plain run on programs of half a second to a
  // second and a half. It runs kSampledRounds before the run (they start
  // its first stretch), a round per kSampledSpacing rounds' time of the run
  // (about a ninth of it), and when that made fewer than kSampledMinRounds
  // in all, tops them up after the run (top_up): five, the fewest whose
  // median's standard error is estimated (from their interquartile range),
  // and few enough that a program of a quarter second (Mandelbrot) stays
  // under 2x; with seven it was 2.02x. The base's standard error (in the
  // report) grows by as much as the rounds are fewer.
  static constexpr int kSampledRounds = 3;
  static constexpr std::uint64_t kSampledSpacing = 8;
  static constexpr std::size_t kSampledMinRounds = 5;
  // The rounds before the costed run in `mode`'s view, and the time between
  // two rounds during it, in rounds (at first; later one per 1/kRounds of
  // the run so far).
  static int rounds_before(vm::ProbeMode mode) {
    return mode == vm::ProbeMode::Sampled ? kSampledRounds : kRounds;
  }
  static std::uint64_t spacing(vm::ProbeMode mode) {
    return mode == vm::ProbeMode::Sampled ? kSampledSpacing : 4;
  }

  // Compiles the streams and runs one round that is not kept. `mode` Time
  // or Sampled, `calls` the shadow call stack on or off, as the run will.
  // A round takes about 15 ms. Sets glibc to keep freed memory for reuse,
  // for the rest of the process (stream_base.cpp says why).
  StreamCalibration(vm::ProbeMode mode, bool calls);
  // One kept round: every stream plain and timed, in this thread.
  void round();
  // The rounds from here on are the run's own.
  void mark() { from_mark_ = rounds_.size(); }
  // A costed run starts, runs a round between its slices once it has
  // executed `executed` instructions, and ends: each stretch of the run
  // between two rounds weighs on those two, by its instructions.
  void begin_run();
  void round_in_run(std::uint64_t executed);
  void end_run(std::uint64_t executed);
  // After the last run: kept rounds until there are `total` in all (none
  // when there are). They weigh on no stretch of a run; fit() counts them
  // with the rounds before it.
  void top_up(std::size_t total);
  // The instructions weighed so far, all runs (what the runs executed).
  double weighed_instructions() const;
  // The host's speed now: every stream run plain once, in ticks per
  // instruction (not kept as a round). Taken beside a program's plain runs
  // and set against run_plain_ticks(), it says how much slower or faster
  // the host ran the costed run than the plain runs it is compared with.
  double plain_gauge() const;
  // The plain streams' ticks per instruction beside the runs, smoothed and
  // weighed by the runs' instructions as stream_level weighs the probe's
  // cost, or, when no
  // round ran during a run, the median of the last kMinRunRounds rounds
  // (those just before it). 0 before the first round.
  double run_plain_ticks() const;
  // One stream's work in a timed run (after the first kept round): its
  // executions timed alone per cost class and per fused kind (Pair), its
  // array loops' runs (Fill, Scan), its builtin calls. Says each stream
  // does what the fit takes it for.
  struct Mix {
    std::string_view name;
    std::array<double, kNumCostClasses> classes{};
    std::array<double, vm::kNumFusions> fusions{};
    double builtins = 0;
  };
  std::vector<Mix> mixes() const;
  // The shortest kept round, ms (0 before the first).
  double round_ms() const { return round_ms_; }
  // Sets base.stream_*: the per-class shape from the median over the run's
  // own rounds when there are at least kMinRunRounds of them, else over
  // all; when rounds ran during a run, its level from the rounds beside
  // each stretch of the run (stream_level).
  void fit(vm::Base& base) const;

 private:
  vm::ProbeMode mode_;
  bool calls_;
  std::vector<Module> modules_;
  std::vector<double> rounds_;   // per round: the probe's ticks per instruction
  std::vector<double> weights_;  // per round: the run's instructions beside it
  std::vector<double> plain_;    // per round: the plain streams' ticks per instruction
  static constexpr std::size_t kNoRound = SIZE_MAX;
  std::size_t run_prev_ = kNoRound;         // the round before the run's current stretch
  std::uint64_t run_done_ = 0;              // the run's instructions up to that round
  std::vector<std::vector<double>> extra_;  // per stream, per round: the probe's ticks
  std::vector<std::vector<double>> mix_;    // per stream: executions per unknown
  std::vector<double> instructions_of_;     // per stream: instructions of a run
  std::uint64_t instructions_ = 0;          // of one round
  std::size_t from_mark_ = 0;
  std::size_t run_rounds_ = 0;    // rounds run between a run's slices
  std::size_t after_rounds_ = 0;  // rounds of top_up
  double ms_ = 0, round_ms_ = 0;
};

// The level of the probe's cost over the run, relative to `median`: the
// rounds, each the median of itself and its neighbours in time (one
// disturbed round moves nothing), averaged with `weights` (the run's
// instructions beside each), over `median`. 1 when nothing weighs.
double stream_level(const std::vector<double>& rounds, const std::vector<double>& weights,
                    double median);

}  // namespace dis::cost
