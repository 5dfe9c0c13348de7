#include "bench_suite.h"

#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <sstream>
#include <stdexcept>

#include "compiler.h"
#include "data_dirs.h"
#include "diag.h"
#include "timer.h"
#include "vm.h"

namespace dis::cost {

namespace fs = std::filesystem;

namespace {

std::vector<BenchTest> make_tests() {
  std::vector<BenchTest> t;
  auto base = [&](const std::string& clock, bool off, const std::string& what) {
    t.push_back({"BASE-" + clock + (off ? "-nogc" : ""), BenchKind::Base, clock, off, 1000, 1,
                 "two consecutive " + what + " timestamps" +
                     (off ? ", collector disabled (bench->disablegc())" : "")});
  };
  base("busec", false, "/dev/busec (sys->read)");
  base("microsec", false, "bench->microsec()");
  base("nsec", false, "bench->nsec()");
  base("busec", true, "/dev/busec (sys->read)");
  base("microsec", true, "bench->microsec()");
  base("nsec", true, "bench->nsec()");
  t.push_back({"SLEEP0", BenchKind::Ops, "SLEEP0", false, 200, 10, "sys->sleep(0)"});
  t.push_back({"GCSCHED", BenchKind::GcSched, "", false, 1000, 1,
               "one GC step at a quantum's end while 3 threads allocate"});
  t.push_back({"GCIDLE", BenchKind::GcIdle, "", false, 50, 1,
               "one idle-GC episode completing three epochs (program sleeps 20 ms)"});
  auto op = [&](const std::string& name, const std::string& what) {
    t.push_back({name, BenchKind::Ops, name, false, 1000, 100, what});
  };
  op("LOOP", "empty loop: the control every other family's figure includes");
  op("INT", "int multiply, add, and (mulw addw andw)");
  op("BIG", "big multiply, add, and (mull addl andl)");
  op("REAL", "real multiply and add (mulf addf)");
  op("STRCAT", "string concatenation of two 8-byte strings (addc)");
  op("STRINDEX", "string index (indc)");
  op("ARRAY", "int array load and store (indw)");
  op("LISTCONS", "list cons onto a 1-element list (consw)");
  op("LISTHD", "list head (headw)");
  op("CALL", "call and return of a local function (frame call ret)");
  op("MCALL", "call of a loaded module's function (mframe mcall ret)");
  op("CHAN", "send and receive on a buffered channel (send recv)");
  op("ALLOC", "allocation of an adt (new)");
  t.push_back({"ALLOC-nogc", BenchKind::Ops, "ALLOC", true, 1000, 100,
               "allocation of an adt (new), collector disabled"});
  return t;
}

vm::Options capture_options(std::ostringstream& out, std::ostringstream& err,
                            const BenchConfig& cfg) {
  vm::Options o;
  if (cfg.heap_limit) o.heap_limit = cfg.heap_limit;
  if (cfg.stack_limit) o.stack_limit = cfg.stack_limit;
  o.max_instructions = cfg.max_instructions;
  o.idle_gc = cfg.idle_gc;
  o.cpus = cfg.cpus;
  o.out = &out;
  o.err = &err;
  o.compile = [](const std::string& path) { return limbo::compile_file(path, {}); };
  return o;
}

void run_program(vm::VM& machine, const std::string& path, const std::vector<std::string>& args,
                 const std::string& test, std::ostringstream& err) {
  vm::RunResult r = machine.run_file(path, args);
  if (r.status != 0)
    throw std::runtime_error(test + ": " + path + " failed: " + r.message +
                             (err.str().empty() ? "" : "\n" + err.str()));
}

std::vector<long long> parse_raw(const std::string& text, const std::string& test) {
  std::istringstream in(text);
  std::vector<long long> v;
  long long x;
  while (in >> x) v.push_back(x);
  if (!in.eof()) throw std::runtime_error(test + ": unexpected program output");
  return v;
}

double round3(double v) { return std::round(v * 1000.0) / 1000.0; }

// Times collector steps outside idle episodes (the scheduler's rungc).
struct StepTimer : vm::GcObserver {
  std::size_t limit;
  int idle_depth = 0;
  std::uint64_t t0 = 0;
  std::vector<double> ns;
  explicit StepTimer(std::size_t n) : limit(n) { ns.reserve(n); }
  void gc_begin(vm::GcEvent e) override {
    if (e == vm::GcEvent::Idle) ++idle_depth;
    if (e == vm::GcEvent::Step && idle_depth == 0) t0 = vm::now_ticks();
  }
  void gc_end(vm::GcEvent e, const vm::GcWork&) override {
    if (e == vm::GcEvent::Step && idle_depth == 0 && ns.size() < limit)
      ns.push_back(vm::to_ns(vm::now_ticks() - t0));
    if (e == vm::GcEvent::Idle) --idle_depth;
  }
};

// Times idle episodes; keeps those that completed three epochs.
struct IdleTimer : vm::GcObserver {
  vm::VM& machine;
  std::uint64_t epochs0 = 0, t0 = 0;
  std::vector<double> ns;
  std::uint64_t cut_short = 0;
  explicit IdleTimer(vm::VM& m) : machine(m) {}
  void gc_begin(vm::GcEvent e) override {
    if (e != vm::GcEvent::Idle) return;
    epochs0 = machine.stats().gc.epochs;
    t0 = vm::now_ticks();
  }
  void gc_end(vm::GcEvent e, const vm::GcWork&) override {
    if (e != vm::GcEvent::Idle) return;
    std::uint64_t t1 = vm::now_ticks();
    if (machine.stats().gc.epochs >= epochs0 + 3)
      ns.push_back(vm::to_ns(t1 - t0));
    else
      ++cut_short;
  }
};

}  // namespace

const std::vector<BenchTest>& bench_tests() {
  static const std::vector<BenchTest> tests = make_tests();
  return tests;
}

const BenchTest* find_bench_test(std::string_view name) {
  for (const BenchTest& t : bench_tests())
    if (t.name == name) return &t;
  return nullptr;
}

std::string find_suite_dir(const std::string& explicit_dir) {
  auto holds = [](const fs::path& d) {
    std::error_code ec;
    return fs::exists(d / "ops.b", ec);
  };
  if (!explicit_dir.empty()) return holds(explicit_dir) ? explicit_dir : "";
  for (const auto& d : data_dirs("samples/bench-suite", "bench-suite"))
    if (holds(d)) return d;
  return "";
}

BenchResult run_bench_test(const BenchTest& test, const BenchConfig& cfg) {
  vm::timer();  // calibrate before the first read
  BenchResult res;
  res.name = test.name;
  res.unit = cfg.unit == BenchUnit::Ns ? "ns" : "us";
  res.inner = test.inner;
  const std::uint32_t outer = cfg.outer ? cfg.outer : test.outer;
  const fs::path dir(cfg.suite_dir);
  std::ostringstream out, err;
  vm::VM machine(capture_options(out, err, cfg));
  // Converts ns to the output unit.
  const double from_ns = cfg.unit == BenchUnit::Ns ? 1.0 : 0.001;

  switch (test.kind) {
    case BenchKind::Base:
    case BenchKind::Ops: {
      std::vector<std::string> args;
      std::string prog;
      double native_ns;  // ns per raw unit printed by the program
      if (test.kind == BenchKind::Base) {
        prog = (dir / "base.b").string();
        args = {prog, test.arg, std::to_string(outer), test.gc_off ? "1" : "0"};
        native_ns = test.arg == "nsec" ? 1.0 : 1000.0;
      } else {
        prog = (dir / "ops.b").string();
        const bool us = cfg.unit == BenchUnit::Us;
        args = {prog,
                test.arg,
                us ? "microsec" : "nsec",
                std::to_string(outer),
                std::to_string(test.inner),
                test.gc_off ? "1" : "0",
                (dir / "benchmod.b").string()};
        native_ns = us ? 1000.0 : 1.0;
      }
      run_program(machine, prog, args, test.name, err);
      std::vector<long long> raw = parse_raw(out.str(), test.name);
      if (raw.size() != outer)
        throw std::runtime_error(test.name + ": expected " + std::to_string(outer) +
                                 " values, the program printed " + std::to_string(raw.size()));
      for (long long r : raw)
        res.values.push_back(
            round3(static_cast<double>(r) * native_ns * from_ns / static_cast<double>(test.inner)));
      break;
    }
    case BenchKind::GcSched: {
      StepTimer timer(outer);
      machine.set_gc_observer(&timer);
      const std::string prog = (dir / "gcsched.b").string();
      // About one step per 10 iterations of the 3 threads together: ask for
      // more work than needed and keep the first `outer` steps.
      run_program(machine, prog, {prog, std::to_string(std::uint64_t{outer} * 5 + 50), "3"},
                  test.name, err);
      machine.set_gc_observer(nullptr);
      for (double ns : timer.ns) res.values.push_back(round3(ns * from_ns));
      vm::Stats s = machine.stats();
      res.note = std::to_string(s.gc.steps) + " steps in " + std::to_string(s.slices) +
                 " quanta, " + std::to_string(s.gc.epochs) + " epochs";
      break;
    }
    case BenchKind::GcIdle: {
      IdleTimer timer(machine);
      machine.set_gc_observer(&timer);
      const std::string prog = (dir / "gcidle.b").string();
      run_program(machine, prog, {prog, std::to_string(outer), "20"}, test.name, err);
      machine.set_gc_observer(nullptr);
      for (double ns : timer.ns) res.values.push_back(round3(ns * from_ns));
      res.note = std::to_string(timer.ns.size() + timer.cut_short) + " idle episodes, " +
                 std::to_string(timer.cut_short) + " cut short by a waking thread (left out)";
      break;
    }
  }
  return res;
}

Observation observations_line(const BenchResult& r) {
  Observation o;
  o.name = r.name;
  o.style = "1l";
  o.xlabel = "Observation";
  o.ylabel = "Time";
  o.yunit = r.unit;
  o.values = r.values;
  return o;
}

Observation summary_line(const BenchResult& r) {
  Observation o = make_summary(r.name, "Time", r.unit, r.values);
  // Values are kept to 0.001 of the unit; the statistics need no more.
  for (std::size_t i = 1; i < o.values.size(); ++i) o.values[i] = round3(o.values[i]);
  return o;
}

}  // namespace dis::cost
