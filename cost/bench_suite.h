// The `bench` measurement suite (issue 7; the paper's devbench `bench`):
// named tests, each run in a fresh VM, each yielding a sample of
// observations in ns (or us with --us) that become observation lines.
//
// Most tests are Limbo programs in samples/bench-suite/ that time many
// outer repetitions of a short inner loop and print one raw time per outer
// repetition; a value is that time divided by the inner count (so it is the
// time per inner iteration, loop control included: see LOOP). GCSCHED and
// GCIDLE time the collector itself through vm::GcObserver while a Limbo
// program allocates or sleeps.
//
// Contract: run_bench_test() throws dis::InputError when the suite's source
// cannot be read or compiled, and std::runtime_error when the program fails.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "observations.h"
#include "vm.h"

namespace dis::cost {

enum class BenchUnit { Ns, Us };

enum class BenchKind {
  Base,     // BASE-*: two consecutive timestamps of the named clock
  Ops,      // ops.b: an opcode family's inner loop, SLEEP0
  GcSched,  // single GC steps (end of quantum) while threads allocate
  GcIdle,   // idle-GC episodes (up to three epochs) while the program sleeps
};

struct BenchTest {
  std::string name;  // BASE-nsec, INT, GCSCHED ...
  BenchKind kind;
  std::string arg;          // program argument: clock (Base) or test (Ops)
  bool gc_off = false;      // run between bench->disablegc() and enablegc()
  std::uint32_t outer = 0;  // default outer repetitions
  std::uint32_t inner = 1;  // inner loop iterations per observation
  std::string description;
};

// Every test, in --list order.
const std::vector<BenchTest>& bench_tests();
const BenchTest* find_bench_test(std::string_view name);

struct BenchConfig {
  std::string suite_dir;  // holds base.b, ops.b, gcsched.b, gcidle.b, benchmod.b
  BenchUnit unit = BenchUnit::Ns;
  std::uint32_t outer = 0;  // 0: each test's default
  // The VM limits every tool that runs programs takes (0: the VM's default).
  std::uint64_t heap_limit = 0, stack_limit = 0, max_instructions = 0;
  // Kernel processes (vm.h): idle-GC policy, processors (0: as started).
  vm::IdleGc idle_gc = vm::IdleGc::Fixed;
  unsigned cpus = 0;
};

struct BenchResult {
  std::string name;
  std::string unit;            // "ns" or "us"
  std::uint32_t inner = 1;     // inner iterations behind each value
  std::vector<double> values;  // one per outer repetition, in `unit`
  std::string note;            // what else the run saw (e.g. episodes cut short)
};

BenchResult run_bench_test(const BenchTest& test, const BenchConfig& cfg);

// The suite directory: `explicit_dir` if given, else the first of
// data_dirs("samples/bench-suite", "bench-suite") (isa/data_dirs.h) holding
// ops.b; empty when none does.
std::string find_suite_dir(const std::string& explicit_dir);

// NAME:1l:Observation::Time:UNIT v1 v2 ...
Observation observations_line(const BenchResult& r);
// NAME:summary:Sample:n:Time:UNIT n mean min max std (statistics to 0.001 of the unit)
Observation summary_line(const BenchResult& r);

}  // namespace dis::cost
