// cost --accuracy: are the probes' numbers close to the truth? The plain
// run's time (no probes) beside the time the probes attributed, for every
// base policy at once: the records hold each pc's ticks before the base
// (ModuleCost::raw_pc_ticks), so one timed run answers for min, median and
// mean alike.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cost_data.h"

namespace dis::cost {

struct PolicyAccuracy {
  vm::BasePolicy policy = vm::BasePolicy::Min;
  double base_ns = 0;
  double attributed_ns = 0;  // per run: instructions after this base, plus buckets
  double ratio = 0;          // attributed_ns / plain wall
  double bias_ns = 0;        // (attributed_ns - plain wall) per instruction
  double cpu_ratio = 0;      // (attributed_ns - preemption inside - interrupts) / plain CPU
  // The stream policy: two standard errors of the calibration's median
  // (Base::stream_se_ticks) per instruction, as a share of the plain run
  // (wall, CPU): how far the ratios could move on the calibration's scatter
  // alone. 0 for the other policies.
  double ratio_uncertainty = 0, cpu_ratio_uncertainty = 0;
  // Per run: what clamping each pc at zero added back where this base
  // exceeded the pc's raw ticks (included in attributed_ns).
  double clipped_ns = 0;
  // cpu_ratio over Accuracy::host_drift: what it would be had the host run
  // the costed run as fast as the plain runs (0 without a gauge).
  double cpu_ratio_host = 0;
};

// The host's speed beside the costed run and beside the plain runs, from
// the stream calibration's plain streams (StreamCalibration::plain_gauge,
// run_plain_ticks), in ticks per instruction. Empty: not gauged.
struct HostGauge {
  double run_ticks = 0;             // beside the costed run
  std::vector<double> plain_ticks;  // one per gauge, beside the plain runs
};

struct Accuracy {
  double plain_ns = 0, plain_cpu_ns = 0;  // medians of the plain runs
  // The plain runs' spread: the truth itself varies by this much on this
  // host, so a ratio off by less says nothing about the probes.
  double plain_min_ns = 0, plain_max_ns = 0, plain_cpu_min_ns = 0, plain_cpu_max_ns = 0;
  int plain_runs = 0;
  double instructions = 0;  // per run
  // Per run: elapsed less CPU time of the timed slices; the part the
  // recorder took out of instruction intervals into the bucket `preempted`;
  // and all of it that the attributed time holds: that part plus the rest's
  // share in proportion to the instruction intervals' share of the slices
  // (the remainder fell in the probes' bookkeeping and the gaps).
  double preempted_ns = 0, preempted_removed_ns = 0, preempted_inside_ns = 0;
  // Per run: the bucket `interrupts`, the guest kernel's time found inside
  // instruction intervals (vm::Interrupts). The timed run holds ten to
  // thirty times the plain run's share of it, so the CPU comparison leaves
  // it out; the plain run keeps its own (about 1% of its time).
  double interrupts_ns = 0;
  // Per run: what the records and buckets hold twice (CostData::
  // overlap_ticks), counted once in every attributed_ns.
  double overlap_ns = 0;
  double above_p99_ns = 0;  // per run, included in every attributed_ns
  // The host gauge: plain streams' ticks per instruction beside the costed
  // run and (median) beside the plain runs, and their ratio: above 1, the
  // host ran the costed run slower than the plain runs, and every ratio
  // is high by about that factor without the probes being wrong. 0: none.
  double host_run_ticks = 0, host_plain_ticks = 0, host_drift = 0;
  int host_gauges = 0;
  vm::BasePolicy chosen = vm::BasePolicy::Min;
  std::vector<PolicyAccuracy> policies;  // min, median, mean
};

// Plain runs whose CPU times (max - min) differ by more than this share of
// their median: the text warns that the host is noisy.
constexpr double kNoisyPlainSpread = 0.20;

// `plain_wall` and `plain_cpu`: one entry per plain run, in ns.
Accuracy accuracy_of(const CostData& d, const std::vector<double>& plain_wall,
                     const std::vector<double>& plain_cpu, const HostGauge& gauge = {});
std::string accuracy_text(const Accuracy& a);
// The chosen policy's figures at the top level (as before), all policies
// under "policies" (cost_schema.json).
nlohmann::json accuracy_json(const Accuracy& a);

}  // namespace dis::cost
