// Costed runs: loads or compiles a program, runs it in a VM under a probe
// policy (probe/cost_probe.h) and turns the recorder's records into a CostData
// (cost_data.h) for the renderers. Used by the `cost` tool and its tests.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "cost_data.h"
#include "cost_probe.h"
#include "stream_base.h"
#include "vm.h"

namespace dis::cost {

struct RunSpec {
  std::string program;            // path as given (.b, .dis or .s)
  std::vector<std::string> args;  // the program's argv (args[0] = program)
  vm::Options vm;                 // limits and streams; compile is set by load_program
  vm::ProbeMode mode = vm::ProbeMode::Time;
  std::uint32_t sample_every = 100;  // Sampled mode
  vm::BasePolicy base_policy = vm::BasePolicy::Min;
  // Calibrate the stream base even when base_policy is another (--accuracy
  // compares every policy); the stream policy always calibrates it.
  bool stream_base = false;
  std::uint32_t repeat = 1;
  // Keep the shadow call stack (inclusive figures per function and call
  // site); a report that shows none of them runs faster without.
  bool calls = true;
  // Also keep the call-path tree (CostData::call_paths; needs calls).
  bool paths = false;
  // The memory profile (cost --mem; the Count mode only): CostData::memory
  // and ModuleCost::mem.
  bool memory = false;
  // Set (by a signal handler) to stop the run between slices: the report
  // then holds what ran, marked interrupted, and no further runs start.
  const std::atomic<bool>* interrupt = nullptr;
  // Called after each run with (run index, runs): progress reporting.
  std::function<void(std::uint32_t, std::uint32_t)> progress;
};

// The main module: compiled from .b (with the compiler's positions and
// functions), or read from .dis (+ .sbl beside it) or .s. Throws InputError.
Module load_program(const std::string& path);

struct RunOutcome {
  CostData data;
  int status = 0;                     // the program's (0, or 1 after a failure in any run)
  std::string message;                // the first failing run's error (vm::RunResult::message)
  std::uint64_t instructions = 0;     // per run (the last run)
  double run_ns = 0;                  // wall time of the runs, summed
  std::uint64_t cpu_clock_reads = 0;  // CostRecorder::cpu_clock_reads, summed
  vm::GcStats gc;                     // the collector's counters (the last run)
  // The stream calibration, when one ran (the stream base, --accuracy):
  // its plain streams gauge the host beside the plain runs.
  std::unique_ptr<StreamCalibration> calibration;
};

// Runs spec.repeat times (a fresh VM each run) and merges the records.
RunOutcome run_costed(const Module& main, const RunSpec& spec);

// One run without probes; returns its wall time in ns (the VM's own run
// only: loading the main module is outside it), sets status and, when
// cpu_ns is given, the thread's CPU time during the run.
double run_plain(const Module& main, const RunSpec& spec, int& status, double* cpu_ns = nullptr);

}  // namespace dis::cost
