#include "cost_run.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <tuple>

#include "compiler.h"
#include "runtime.h"
#include "stream_base.h"

namespace dis::cost {

namespace {

bool ends_with(const std::string& s, const char* suffix) {
  std::string_view x(suffix);
  return s.size() >= x.size() && s.compare(s.size() - x.size(), x.size(), x) == 0;
}

vm::Options with_compiler(vm::Options o) {
  o.compile = [](const std::string& path) { return limbo::compile_file(path, {}); };
  return o;
}

std::vector<FunctionRange> function_ranges(const Module& m) {
  if (m.functions.empty()) return functions_from_links(m);
  std::vector<FunctionRange> v;
  for (const FunctionInfo& f : m.functions) v.push_back({f.name, f.pc});
  std::sort(v.begin(), v.end(), [](const auto& a, const auto& b) { return a.pc < b.pc; });
  return v;
}

void merge_named(std::vector<NamedRecord>& into, const std::string& name, const ProbeRecord& r) {
  for (NamedRecord& n : into)
    if (n.name == name) {
      n.rec.merge(r);
      return;
    }
  into.push_back({name, r});
}

// Adds one run's records (recorder of a VM still alive) into d.
// Inclusive raw ticks less the base of each instruction inside.
std::uint64_t less_base(std::uint64_t ticks, std::uint64_t instructions, double base) {
  const double b = base * static_cast<double>(instructions);
  const auto t = static_cast<double>(ticks);
  return t > b ? static_cast<std::uint64_t>(std::llround(t - b)) : 0;
}

// Per program of the recorder, per pc: the builtin calls made there.
std::vector<std::vector<double>> builtin_calls_of(const vm::CostRecorder& rec) {
  std::vector<std::vector<double>> calls(rec.programs().size());
  for (std::size_t i = 0; i < calls.size(); ++i)
    calls[i].assign(rec.programs()[i].program->mod.code.size(), 0);
  for (const auto& [key, t] : rec.builtin_sites()) {
    const auto [caller, pc, name] = key;
    if (caller < calls.size() && pc >= 0 && static_cast<std::size_t>(pc) < calls[caller].size())
      calls[caller][static_cast<std::size_t>(pc)] += static_cast<double>(t.calls);
  }
  return calls;
}

// One execution's base at `pc` of `pr` (its builtin calls per execution
// included: `builtin_calls` is per pc of `pr`).
double base_at(const vm::Base& b, const vm::ProgramRecords& pr, const std::vector<Fusion>& fusion,
               const std::vector<double>& builtin_calls, std::size_t pc) {
  const auto n = static_cast<double>(pr.records[pc].count);
  return b.exact_for(b.policy, pr.program->mod.code[pc].op, fusion[pc],
                     n > 0 ? builtin_calls[pc] / n : 0);
}

// The base per instruction of this run on average: the stream base differs
// by instruction class, and inclusive figures know only how many
// instructions ran inside, not which (nor which ran inside a fused loop's
// one interval).
double mean_base(const vm::CostRecorder& rec, const vm::Base& b,
                 const std::vector<std::vector<double>>& builtin_calls) {
  double sum = 0, n = 0;
  for (std::size_t i = 0; i < rec.programs().size(); ++i) {
    const vm::ProgramRecords& pr = rec.programs()[i];
    const std::vector<Fusion> fusion = vm::plain_fusion(*pr.program);
    for (std::size_t pc = 0; pc < pr.records.size() && pc < pr.program->mod.code.size(); ++pc) {
      const ProbeRecord& r = pr.records[pc];
      sum += vm::Base::total(r, base_at(b, pr, fusion, builtin_calls[i], pc),
                             b.run_for(b.policy, fusion[pc]));
      n += static_cast<double>(r.count);
    }
  }
  return n > 0 ? sum / n : static_cast<double>(b.ticks);
}

// Adds the recorder's call-path tree to `into`, node by node (a parent is
// always mapped before its children).
void merge_paths(const vm::CostRecorder& rec, const std::vector<std::int32_t>& module_of,
                 double base, std::vector<CallPath>& into) {
  std::map<std::tuple<std::int32_t, std::int32_t, std::int32_t>, std::int32_t> index;
  for (std::size_t i = 0; i < into.size(); ++i)
    index[{into[i].parent, into[i].module, into[i].entry_pc}] = static_cast<std::int32_t>(i);
  const auto& nodes = rec.paths();
  std::vector<std::int32_t> mapped(nodes.size(), -1);
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const vm::CostRecorder::PathNode& n = nodes[i];
    const std::int32_t module = n.prog < module_of.size() ? module_of[n.prog] : -1;
    const std::int32_t parent = n.parent == vm::CostRecorder::kNoPath ? -1 : mapped[n.parent];
    if (module < 0 || (n.parent != vm::CostRecorder::kNoPath && parent < 0)) continue;
    auto [it, added] =
        index.try_emplace({parent, module, n.entry}, static_cast<std::int32_t>(into.size()));
    if (added) into.push_back({parent, module, n.entry, 0, 0, 0});
    CallPath& c = into[static_cast<std::size_t>(it->second)];
    c.calls += n.totals.calls;
    c.inclusive_ticks += less_base(n.totals.ticks, n.totals.instructions, base);
    c.inclusive_instructions += n.totals.instructions;
    mapped[i] = it->second;
  }
}

// Adds one run's memory profile: per pc of the modules that ran, the
// runtime's, the cycles and the heap's counters.
void merge_memory(const vm::CostRecorder& rec, const vm::MemProfile& mem,
                  const std::vector<std::int32_t>& module_of, CostData& d) {
  if (!d.memory) d.memory.emplace();
  MemoryData& m = *d.memory;
  for (std::size_t i = 0; i < rec.programs().size(); ++i) {
    auto it = mem.sites().find(rec.programs()[i].program);
    if (it == mem.sites().end() || module_of[i] < 0) continue;
    ModuleCost& mc = d.modules[static_cast<std::size_t>(module_of[i])];
    if (mc.mem.size() < it->second.size()) mc.mem.resize(it->second.size());
    for (std::size_t pc = 0; pc < it->second.size(); ++pc) mc.mem[pc].merge(it->second[pc]);
  }
  // Programs that allocated without running an instruction the recorder
  // saw cannot be: ProbeMem sets the program it steps.
  m.runtime.merge(mem.runtime());
  m.cycles.insert(m.cycles.end(), mem.cycles().begin(), mem.cycles().end());
  m.unfinished.steps += mem.unfinished().steps;
  m.unfinished.ns += mem.unfinished().ns;
  m.unfinished.freed += mem.unfinished().freed;
  m.unfinished.freed_bytes += mem.unfinished().freed_bytes;
  const vm::HeapStats& h = mem.heap_delta();
  m.heap_allocs += h.allocs;
  m.heap_bytes += h.bytes_allocated;
  m.heap_freed_refcount += h.freed_refcount;
  m.heap_freed_collector += h.freed_collector;
}

void merge_run(const vm::CostRecorder& rec, CostData& d, std::uint32_t run, std::uint32_t runs) {
  const std::vector<std::vector<double>> builtin_calls = builtin_calls_of(rec);
  const double base = mean_base(rec, d.base, builtin_calls);
  std::vector<std::int32_t> module_of(rec.programs().size(), -1);
  for (std::size_t i = 0; i < rec.programs().size(); ++i) {
    const vm::ProgramRecords& pr = rec.programs()[i];
    const Module& m = pr.program->mod;
    std::size_t mi = 0;
    while (mi < d.modules.size() && d.modules[mi].name != m.name) ++mi;
    if (mi == d.modules.size()) {
      ModuleCost mc;
      mc.name = m.name;
      mc.module = std::make_shared<const Module>(m);
      mc.source_text = load_source_text(m, std::filesystem::path(pr.program->path).parent_path());
      mc.pcs.resize(m.code.size());
      if (d.mode == Mode::Time) mc.raw_pc_ticks.assign(m.code.size(), 0);
      mc.functions = function_ranges(m);
      mc.fusion = vm::plain_fusion(*pr.program);
      if (runs > 1) mc.run_pc_ticks.assign(runs, std::vector<std::uint64_t>(m.code.size(), 0));
      d.modules.push_back(std::move(mc));
    }
    module_of[i] = static_cast<std::int32_t>(mi);
    ModuleCost& mc = d.modules[mi];
    const std::size_t n = std::min(mc.pcs.size(), m.code.size());
    for (std::size_t pc = 0; pc < n; ++pc) {
      if (!pr.counts.empty()) {
        mc.pcs[pc].count += pr.counts[pc];
      } else if (pc < pr.records.size()) {
        const ProbeRecord r =
            pr.records[pc].rebased_exact(base_at(d.base, pr, mc.fusion, builtin_calls[i], pc),
                                         d.base.run_for(d.base.policy, mc.fusion[pc]));
        mc.pcs[pc].merge(r);
        if (pc < mc.raw_pc_ticks.size()) mc.raw_pc_ticks[pc] += pr.records[pc].total_estimate();
        if (runs > 1 && run < mc.run_pc_ticks.size())
          mc.run_pc_ticks[run][pc] = static_cast<std::uint64_t>(r.total_estimate());
      }
    }
  }
  for (const auto& [key, t] : rec.functions()) {
    if (key.second < 0 || module_of[key.first] < 0) continue;
    ModuleCost& mc = d.modules[static_cast<std::size_t>(module_of[key.first])];
    const auto entry = key.second;  // clang 14 cannot capture a structured binding
    auto it = std::find_if(mc.function_calls.begin(), mc.function_calls.end(),
                           [entry](const FunctionCall& f) { return f.entry_pc == entry; });
    if (it == mc.function_calls.end()) {
      mc.function_calls.push_back({key.second, 0, 0, 0});
      it = mc.function_calls.end() - 1;
    }
    it->calls += t.calls;
    it->inclusive_ticks += less_base(t.ticks, t.instructions, base);
    it->inclusive_instructions += t.instructions;
  }
  auto add_site = [&](std::uint32_t caller, CallSite s) {
    ModuleCost& mc = d.modules[static_cast<std::size_t>(module_of[caller])];
    for (CallSite& c : mc.call_sites)
      if (c.pc == s.pc && c.callee_module == s.callee_module && c.callee_pc == s.callee_pc &&
          c.callee_name == s.callee_name) {
        c.calls += s.calls;
        c.inclusive_ticks += s.inclusive_ticks;
        c.inclusive_instructions += s.inclusive_instructions;
        return;
      }
    mc.call_sites.push_back(std::move(s));
  };
  for (const auto& [key, t] : rec.sites()) {
    auto [caller, pc, callee, fn] = key;
    if (callee < 0 || fn < 0) continue;
    CallSite s;
    s.pc = pc;
    s.callee_module = module_of[static_cast<std::size_t>(callee)];
    s.callee_pc = fn;
    s.calls = t.calls;
    s.inclusive_ticks = less_base(t.ticks, t.instructions, base);
    s.inclusive_instructions = t.instructions;
    add_site(caller, std::move(s));
  }
  for (const auto& [key, t] : rec.builtin_sites()) {
    auto [caller, pc, name] = key;
    CallSite s;
    s.pc = pc;
    s.callee_name = name;
    s.calls = t.calls;
    s.inclusive_ticks = t.ticks;
    s.inclusive_instructions = 0;
    add_site(caller, std::move(s));
  }
  merge_paths(rec, module_of, base, d.call_paths);
  for (const auto& [name, r] : rec.buckets()) merge_named(d.buckets, name, r);
  for (const auto& [name, r] : rec.builtins())
    if (r.count > 0) merge_named(d.builtins, name, r);
  d.refcount_frees.merge(rec.refcount_frees());
  d.preempted_ns += rec.preempted_ns();
  d.overlap_ticks += static_cast<double>(rec.overlap_ticks());
  if (rec.memory()) merge_memory(rec, *rec.memory(), module_of, d);
}

}  // namespace

Module load_program(const std::string& path) {
  if (ends_with(path, ".b")) return limbo::compile_file(path, {});
  return vm::read_module_file(path);
}

RunOutcome run_costed(const Module& main, const RunSpec& spec) {
  RunOutcome out;
  CostData& d = out.data;
  std::unique_ptr<StreamCalibration> cal;
  d.program = spec.program;
  d.mode = spec.mode == vm::ProbeMode::Count ? Mode::Count : Mode::Time;
  // The count view reads no clock: it neither calibrates the timer nor
  // measures a base (fast start, deterministic).
  if (spec.mode != vm::ProbeMode::Count) {
    d.timer = vm::timer();
    d.base = vm::measure_interpreter_base(spec.base_policy, spec.mode);
    if (spec.stream_base || spec.base_policy == vm::BasePolicy::Stream) {
      cal = std::make_unique<StreamCalibration>(spec.mode, spec.calls);
      for (int r = 0; r < StreamCalibration::rounds_before(spec.mode); ++r) cal->round();
      cal->fit(d.base);
      cal->mark();
    }
  }
  d.base.policy = spec.base_policy;
  d.runs = std::max<std::uint32_t>(1, spec.repeat);
  d.sample_every = spec.mode == vm::ProbeMode::Sampled ? spec.sample_every : 0;
  for (std::uint32_t r = 0; r < d.runs; ++r) {
    // Before the VM: its heap may tell of frees until it is gone.
    vm::MemProfile mem;
    vm::VM machine(with_compiler(spec.vm));
    // Declared after the VM: destroyed first, while the VM it hooks is alive.
    vm::CostRecorder rec(spec.mode, d.base, spec.sample_every);
    rec.track_calls(spec.calls);
    rec.track_paths(spec.calls && spec.paths);
    if (spec.memory && spec.mode == vm::ProbeMode::Count) rec.track_memory(&mem);
    std::function<void()> calibrate;
    if (cal) {
      // Calibration rounds between the run's slices, about a fifth of its
      // time at first (a ninth in the sampled view), then thinner (a round
      // per 1/kRounds of the run so far), so the base sees the host the run
      // saw.
      const auto gap_ticks =
          static_cast<std::uint64_t>(cal->round_ms() * 1e6 * vm::timer().ticks_per_ns) *
          StreamCalibration::spacing(spec.mode);
      const std::uint64_t start = vm::now_ticks();
      std::uint64_t next = start + gap_ticks;
      cal->begin_run();
      calibrate = [&cal, &rec, gap_ticks, start, next]() mutable {
        if (vm::now_ticks() < next || !rec.pausable()) return;
        rec.pause();
        cal->round_in_run(rec.instructions());
        const std::uint64_t ran = vm::now_ticks() - start - rec.hidden_ticks();
        rec.resume();
        next = vm::now_ticks() + std::max(gap_ticks, ran / StreamCalibration::kRounds);
      };
    }
    bool interrupted = false;
    if (calibrate || spec.interrupt) {
      machine.set_quantum_hook([&] {
        if (spec.interrupt && spec.interrupt->load(std::memory_order_relaxed) && !interrupted) {
          // Between slices the interpreter is ours: no further slice runs.
          vm::Runtime& rt = machine.runtime();
          rt.halted = true;
          rt.main_broken = true;
          if (rt.first_error.empty()) rt.first_error = "interrupted";
          interrupted = true;
        }
        if (calibrate && !interrupted) calibrate();
      });
    }
    rec.install(machine);
    std::uint64_t t0 = vm::MonoClock::now();
    vm::RunResult rr = machine.run_module(main, spec.program, spec.args);
    std::uint64_t t1 = vm::MonoClock::now();
    rec.finish();
    // The rounds in it are not the run's (and the count view reads no
    // clock, so it converts none).
    const double hidden = rec.hidden_ticks() > 0 ? vm::to_ns(rec.hidden_ticks()) : 0;
    out.run_ns += std::max(0.0, static_cast<double>(t1 - t0) - hidden);
    if (cal) {
      cal->end_run(rec.instructions());
      // The sampled view's rounds before a short run are too few to rest on.
      cal->top_up(StreamCalibration::kSampledMinRounds);
      cal->fit(d.base);
    }
    out.cpu_clock_reads += rec.cpu_clock_reads();
    if (rr.status != 0 && out.status == 0) {
      out.message = rr.message;
      Outcome& o = d.outcome;
      o.status = interrupted ? Outcome::Status::Interrupted : Outcome::Status::Failed;
      o.error = rr.message;
      o.pc = machine.runtime().first_error_pc;
      o.where = machine.runtime().first_error_where;
    }
    if (rr.status != 0) out.status = rr.status;
    out.instructions = rec.instructions();
    out.gc = machine.stats().gc;
    merge_run(rec, d, r, d.runs);
    if (spec.progress) spec.progress(r + 1, d.runs);
    if (interrupted) {
      // The report is of the runs that were made.
      d.runs = r + 1;
      for (ModuleCost& mc : d.modules) {
        if (d.runs > 1)
          mc.run_pc_ticks.resize(d.runs);
        else
          mc.run_pc_ticks.clear();
      }
      break;
    }
  }
  d.wall_ns = out.run_ns;
  d.timer_calibrated = vm::timer_calibrated();
  out.calibration = std::move(cal);
  return out;
}

double run_plain(const Module& main, const RunSpec& spec, int& status, double* cpu_ns) {
  vm::VM machine(with_compiler(spec.vm));
  std::uint64_t c0 = vm::thread_cpu_ns();
  std::uint64_t t0 = vm::MonoClock::now();
  vm::RunResult rr = machine.run_module(main, spec.program, spec.args);
  std::uint64_t t1 = vm::MonoClock::now();
  std::uint64_t c1 = vm::thread_cpu_ns();
  status = rr.status;
  if (cpu_ns) *cpu_ns = static_cast<double>(c1 - c0);
  return static_cast<double>(t1 - t0);
}

}  // namespace dis::cost
