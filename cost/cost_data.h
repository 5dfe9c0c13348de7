// The cost report's data model (issue `cost`, DESIGN decisions 5-6): what a
// costed run produced, independent of how it is shown. The `cost` tool fills
// a CostData from the probe records after the run; the renderers
// (cost_report.h) only read it.
//
// Time is kept in ticks (the run's timer) with ticks_per_ns to convert;
// every derived figure (lines, functions, opcodes, profile) is computed here
// from the per-pc records, so every format shows the same numbers.
//
// What the probe side provides beyond per-pc records:
//  - buckets: time outside instruction bodies, one ProbeRecord per named
//    bucket (an observation per GC step, scheduler switch, idle GC round);
//    conventional names: "gc.mark", "gc.sweep", "gc.roots", "gc.idle",
//    "scheduler" (any name is shown; the profile groups "gc.*"). The bucket
//    vm::kProbeBucket ("probe") is the probes' own bookkeeping: shown, but
//    not part of the attributed total or the profile.
//  - builtins: one record per builtin function ("Sys->read"), each call an
//    observation of the time inside it (also inside its mcall's record).
//  - refcount_frees: count = objects freed by reference counting (inside
//    instructions), observations = the sampled timings of frees.
//  - for inclusive time per function (--by fn), per module a FunctionCall
//    list: for each function entry pc, the number of activations and the
//    ticks and instructions from entry to return, counting only outermost
//    activations (a recursive call inside an activation of the same function
//    adds nothing), so inclusive time never exceeds the run's total. The
//    probe keeps a shadow stack of (function, entry tick, entry instruction
//    count) and a per-function active depth.
//  - for callgrind call arcs, per module a CallSite list: per call
//    instruction (call/mcall/spawn pc) and callee, the number of calls and
//    the ticks and instructions of everything executed until the callee
//    returned (nested recursion included, as callgrind expects).
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "environment.h"
#include "mem_profile.h"
#include "module.h"
#include "probe_record.h"
#include "probe_timing.h"
#include "timer.h"

namespace dis::cost {

using vm::Fusion;
using vm::fusion_name;
using vm::kNumFusions;
using vm::ProbeRecord;

enum class Mode { Time, Count };

struct FunctionRange {
  std::string name;
  std::int32_t pc = 0;  // entry; the function runs up to the next entry
};

struct FunctionCall {
  std::int32_t entry_pc = 0;
  std::uint64_t calls = 0;
  std::uint64_t inclusive_ticks = 0;
  std::uint64_t inclusive_instructions = 0;
};

struct CallSite {
  std::int32_t pc = 0;              // the call instruction (in this module)
  std::int32_t callee_module = -1;  // index into CostData::modules, -1 = builtin/unknown
  std::int32_t callee_pc = -1;      // the callee's entry pc
  std::string callee_name;          // used when callee_module is -1 ("Sys->read")
  std::uint64_t calls = 0;
  std::uint64_t inclusive_ticks = 0;
  std::uint64_t inclusive_instructions = 0;
};

// A node of the call-path tree (cost --format html's flame graph): one per
// distinct chain of calls from a thread's first function, with the base
// taken out as for FunctionCall. Chains deeper than the recorder's limit
// (vm::CostRecorder::kMaxPathDepth) are inside their deepest node.
struct CallPath {
  std::int32_t parent = -1;    // index into CostData::call_paths (before it); -1: a root
  std::int32_t module = -1;    // index into CostData::modules
  std::int32_t entry_pc = -1;  // the function's entry, -1: code before the first function
  std::uint64_t calls = 0;
  std::uint64_t inclusive_ticks = 0;
  std::uint64_t inclusive_instructions = 0;
};

struct ModuleCost {
  std::string name;
  std::shared_ptr<const Module> module;  // code, positions, source_files
  // Per source file (index as in module->source_files): its lines, without
  // newlines; empty when the text could not be read.
  std::vector<std::vector<std::string>> source_text;
  std::vector<ProbeRecord> pcs;          // one per instruction of module->code
  std::vector<FunctionRange> functions;  // sorted by pc; may be empty
  std::vector<FunctionCall> function_calls;
  std::vector<CallSite> call_sites;
  // --repeat N: per run, the ticks of each pc in that run ([run][pc]); the
  // merged records are in `pcs`. Empty for a single run.
  std::vector<std::vector<std::uint64_t>> run_pc_ticks;
  // Time mode: each pc's ticks before the base (all runs), so --accuracy
  // can weigh every base policy from one run.
  std::vector<double> raw_pc_ticks;
  // Per pc, how the plain run executes it (vm::plain_fusion): the stream
  // base's share of each pc depends on it. Empty: every pc alone.
  std::vector<Fusion> fusion;
  // cost --mem: per pc, what its executions allocated (cost_mem.h); empty
  // otherwise.
  std::vector<vm::MemSite> mem;
};

// cost --mem: what the runs allocated outside any instruction, the
// collector's cycles, and the heap's own counters over the runs (summed),
// which the per-pc figures must agree with.
struct MemoryData {
  vm::MemSite runtime;
  std::vector<vm::GcCycle> cycles;  // completed cycles, all runs
  vm::GcCycle unfinished;           // steps after each run's last cycle, summed
  std::uint64_t heap_allocs = 0, heap_bytes = 0;
  std::uint64_t heap_freed_refcount = 0, heap_freed_collector = 0;
};

// The fusion of a pc (Fusion::None past the end of mc.fusion).
Fusion fusion_at(const ModuleCost& mc, std::size_t pc);
// Per pc, the builtin calls made there (call sites with a builtin callee).
std::vector<double> builtin_calls_by_pc(const ModuleCost& mc);

struct NamedRecord {
  std::string name;
  ProbeRecord rec;
};

// How the costed run(s) ended, which every report format records: a report
// of a run that failed or was interrupted describes only what ran.
struct Outcome {
  enum class Status { Ok, Failed, Interrupted };
  Status status = Status::Ok;
  std::string error;     // the first failing run's error, "" when ok
  std::int32_t pc = -1;  // where it was raised, in its module; -1 unknown
  std::string where;     // "file.b:LINE" (or "Mod: pc N"), "" unknown
};
const char* outcome_name(Outcome::Status s);
// "failed: zero divide at raise.b:8 (pc 5)", "ok".
std::string outcome_text(const Outcome& o);

struct CostData {
  std::string program;  // as named on the command line
  Outcome outcome;
  Mode mode = Mode::Time;
  vm::TimerInfo timer;
  vm::Base base;
  std::optional<vm::Environment> environment;
  std::uint32_t runs = 1;          // --repeat N: records merged over N runs
  std::uint32_t sample_every = 0;  // --sample N; 0: every execution timed
  double wall_ns = 0;              // the run(s) measured around, 0 if unknown
  // Elapsed time of the timed slices less the thread's CPU time in them, all
  // runs: the host ran something else (inside instruction intervals).
  double preempted_ns = 0;
  // All runs: ticks the records and buckets hold twice (a thread's mcall
  // open over its wait in a blocking builtin, and what was recorded
  // meanwhile: vm::CostRecorder::overlap_ticks).
  double overlap_ticks = 0;
  // Whether the timer had been calibrated when the runs ended (the count
  // view must leave it alone: fast start).
  bool timer_calibrated = false;
  std::vector<ModuleCost> modules;
  std::vector<NamedRecord> buckets;
  std::vector<NamedRecord> builtins;
  ProbeRecord refcount_frees;
  // Kept when the run asked for it (RunSpec::paths); parents first.
  std::vector<CallPath> call_paths;
  // cost --mem (with ModuleCost::mem).
  std::optional<MemoryData> memory;

  double ns(double ticks) const {
    return ticks / (timer.ticks_per_ns > 0 ? timer.ticks_per_ns : 1);
  }
};

// Per pc of mc, the ticks `policy` takes from one execution: the stream
// base by cost class, fused kind and builtin calls; the others one figure.
std::vector<double> pc_bases(const CostData& d, const ModuleCost& mc, vm::BasePolicy policy);
// Per pc of mc, the ticks `policy` takes from all its executions: those
// timed alone at pc_bases each, a fused loop's interval at one run's base.
std::vector<double> pc_base_totals(const CostData& d, const ModuleCost& mc, vm::BasePolicy policy);

// ---- Filling helpers -------------------------------------------------------

// Functions from a module's link section (exported functions only); the
// cost tool prefers the .sbl fn table or the compiler's when it has them.
std::vector<FunctionRange> functions_from_links(const Module& m);
// Source text for each of m.source_files: the path as given, then relative to
// `dir`, then its file name in `dir`. Unreadable files give empty vectors.
std::vector<std::vector<std::string>> load_source_text(const Module& m,
                                                       const std::filesystem::path& dir);

// ---- Derived views ---------------------------------------------------------

// The pcs the views cover: min(pcs.size(), module->code.size()), 0 without a
// module, so a producer's size mismatch can never index out of range.
std::size_t pc_count(const ModuleCost& mc);

// Where a pc's instruction belongs: the first line of its source range.
struct PcLine {
  std::int32_t file = -1;  // -1: the module has no positions
  std::int32_t line = 0;
};
PcLine line_of(const ModuleCost& mc, std::int32_t pc);

struct LineCost {
  std::int32_t file = -1;
  std::int32_t line = 0;
  std::vector<std::int32_t> pcs;   // instructions belonging to it, in pc order
  std::uint64_t instructions = 0;  // executions of those instructions
  double ticks = 0;                // their estimated total ticks
  ProbeRecord merged;              // all their records merged
  std::vector<double> run_ticks;   // per run (from run_pc_ticks), else empty
};
// Every source line that owns at least one instruction, in (file, line)
// order; lines with instructions never executed are included (instructions
// 0). Without positions, one entry per pc with file -1 and line = pc.
std::vector<LineCost> lines_of(const ModuleCost& mc);

struct HotLine {
  std::size_t module = 0;  // index into CostData::modules
  LineCost line;
};
// The n lines with the most time (by_count: most instructions executed),
// executed lines only, of the modules shown_modules(d, only) selects.
std::vector<HotLine> hottest_lines(const CostData& d, const std::string& only, std::size_t n,
                                   bool by_count);

struct FunctionCost {
  std::string name;
  std::int32_t pc = 0, end_pc = 0;  // [pc, end_pc)
  std::uint64_t instructions = 0;   // exclusive: executions in its range
  double exclusive_ticks = 0;
  std::optional<FunctionCall> inclusive;  // when the probe provided it
};
// One entry per function range (a leading "<module>" range covers pcs before
// the first function; a module without functions is one "<module>" range).
std::vector<FunctionCost> functions_of(const ModuleCost& mc);

struct OpCost {
  Op op = Op::nop_;
  ProbeRecord rec;   // all pcs with this opcode, merged
  double ticks = 0;  // estimated total
};
// Opcodes executed at least once across all modules, by descending total
// ticks (by_count or count mode: descending count), then opcode order.
std::vector<OpCost> ops_of(const CostData& d, bool by_count = false);

// The opcode class used by the profile view, from the opcode's name and
// operand kinds: call, control, channel, alloc, move, convert, arith.
std::string_view op_class(Op op);

struct ProfileEntry {
  std::string what;  // "instructions: call", "builtin Sys->read", "gc.mark"
  double ticks = 0;
  double percent = 0;
};
struct Profile {
  double total_ticks = 0;  // instructions + buckets (builtins are inside mcall)
  double instruction_ticks = 0;
  double outside_ticks = 0;
  double preempted_ticks = 0;         // what the host took while the program ran
  double own_ticks = 0;               // total less preemption: the shares' whole
  std::vector<ProfileEntry> entries;  // descending ticks, then name
};
// Instruction time by opcode class (the call class less the time inside
// builtins), each builtin, each bucket other than preemption, as shares of
// the program's own time. In count mode: executions per opcode class as
// shares of all executions ("ticks" holds counts; no builtins or buckets).
Profile profile_of(const CostData& d, bool counts_only = false);

struct Totals {
  std::uint64_t instructions = 0;
  double instruction_ticks = 0;  // estimated (sampled records scaled)
  double outside_ticks = 0;      // buckets
  double builtin_ticks = 0;      // inside mcall, included in instruction_ticks
  double probe_ticks = 0;        // the probes' own bookkeeping: not attributed
};
Totals totals_of(const CostData& d);
// What the host took away while the program ran (bucket "preempted"): not
// the program's time, so every view's shares leave it out.
double preempted_ticks(const CostData& d);
// The program's own attributed time (instructions and outside them, less
// preemption): the whole that lines', functions' and classes' shares are of.
double own_ticks(const CostData& d, const Totals& t);

// Indices of modules to show: all, or the one named `only` (empty = all).
std::vector<std::size_t> shown_modules(const CostData& d, const std::string& only);
// The module `-s NAME` means: the one of that name, else the only one whose
// name differs from it in case alone (the paper's `-s bench`); nullopt when
// no module that ran answers to it.
std::optional<std::string> resolve_module(const CostData& d, const std::string& asked);
// The names of the modules that ran, comma-separated, for messages.
std::string module_names(const CostData& d);

}  // namespace dis::cost
