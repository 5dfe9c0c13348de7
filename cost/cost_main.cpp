// cost: run a Dis program with every instruction timed (or counted) and
// report per source line, function, opcode or pc (issue `cost`).
//   cost [options] -f prog.b [options] [-- args]
//   cost [options] prog.b|prog.dis|prog.s [args]
//   cost --diff a.json b.json [-c 95]
// Exit status (DESIGN Conventions): 0 success; 1 the program failed (the
// report is still written); 2 usage error or unreadable/malformed input; 130
// interrupted by Ctrl-C (the report of what ran is still written).
#include <fmt/format.h>
#include <sched.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <memory>
#include <mutex>
#include <optional>
#include <sstream>
#include <thread>

#include "cost_accuracy.h"
#include "cost_diff.h"
#include "cost_report.h"
#include "cost_report_html.h"
#include "cost_run.h"
#include "diag.h"
#include "fault_injection.h"
#include "kproc_options.h"
#include "limit_options.h"
#include "run_options.h"
#include "stream_tee.h"
#include "timer.h"
#include "tool_cli.h"
#include "warm_heap.h"

namespace {

using namespace dis;

// Prints elapsed time on stderr every second once a run has taken 3 s, when
// stderr is a terminal.
class Progress {
 public:
  explicit Progress(bool enabled) {
    if (!enabled) return;
    thread_ = std::thread([this] {
      auto start = std::chrono::steady_clock::now();
      std::unique_lock lk(m_);
      bool shown = false;
      while (!cv_.wait_for(lk, std::chrono::seconds(1), [this] { return done_; })) {
        auto s = std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() -
                                                                  start)
                     .count();
        if (s < 3) continue;
        std::cerr << "\rcost: running " << status_ << ", " << s << " s" << std::flush;
        shown = true;
      }
      if (shown) std::cerr << "\r\033[K" << std::flush;
    });
  }
  void set(std::string s) {
    std::lock_guard lk(m_);
    status_ = std::move(s);
  }
  ~Progress() {
    if (!thread_.joinable()) return;
    {
      std::lock_guard lk(m_);
      done_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }

 private:
  std::thread thread_;
  std::mutex m_;
  std::condition_variable cv_;
  bool done_ = false;
  std::string status_ = "run 1";
};

// Ctrl-C stops the program between slices; the report of what ran is
// still written. A second Ctrl-C ends cost at once.
std::atomic<bool> interrupted{false};
extern "C" void on_interrupt(int) {
  interrupted.store(true);
  std::signal(SIGINT, SIG_DFL);
}

constexpr int kPlainRuns = 5;
// Enough for the samples and the classic programs (warm_heap.h).
constexpr std::size_t kWarmHeapBytes = 16 << 20;

// cost's command line as parsed.
struct CostOptions {
  std::string file, only, by, format = "text", base = "stream", out_path, timer_read;
  std::string program_output;
  std::size_t top = 0;
  bool profile = false, count = false, hide = false, accuracy = false, mem = false;
  std::uint32_t repeat = 1, sample = 0;
  int pin = -1;
  std::vector<std::string> diff;
  double confidence = 95;
  vm::Options vopts;
  std::vector<std::string> rest;  // the program's arguments
};

// Declares every option on `tool`; returns -f, which parse_program needs.
CLI::Option* add_options(cli::Tool& tool, CostOptions& o, vm::LimitOptions& limits) {
  CLI::App& app = tool.app();
  CLI::Option* file_option =
      app.add_option("-f,--file", o.file,
                     "the program: prog.b (compiled), prog.dis (+prog.sbl) or prog.s")
          ->option_text("FILE");
  app.add_option("-s,--module", o.only,
                 "report only this module (e.g. -s Base; a name differing only in case, as the "
                 "paper's -s bench, finds it too)");
  app.add_option("--by", o.by, "view: fn (inclusive/exclusive per function), op (per opcode), pc")
      ->check(CLI::IsMember({"fn", "op", "pc", "line"}));
  app.add_option("--top", o.top, "the N hottest lines")
      ->check(vm::not_negative())
      ->check(CLI::Range(std::size_t{1}, std::size_t{1} << 30));
  app.add_flag("--profile", o.profile, "where all the time went, as shares of the total");
  app.add_flag("--count", o.count, "count instructions only (fast, deterministic)");
  app.add_flag("--hide-unexecuted", o.hide, "omit source lines whose code never ran");
  app.add_flag("--mem", o.mem,
               "memory profile: per source line and function the heap objects allocated (count, "
               "bytes, by kind), freed by reference counting and by the collector, and live at "
               "exit, and the collector's time per cycle (counts instructions, times none)");
  app.add_option("--format", o.format,
                 "text, json, csv, callgrind or html (one self-contained page: the source "
                 "heat-coloured, the views, charts and a flame graph; also for --diff)")
      ->check(CLI::IsMember({"text", "json", "csv", "callgrind", "html"}))
      ->capture_default_str();
  app.add_option("--base", o.base,
                 "base subtracted from each observation: stream (what the probe adds per "
                 "instruction on synthetic instruction streams run plain and timed in this "
                 "process: the most accurate, perf/accuracy.py), min (the paper's BASE: the "
                 "smallest empty measurement, never below one timer step), median, or mean (of "
                 "the empty measurements, outliers left out)")
      ->check(CLI::IsMember({"min", "median", "mean", "stream"}))
      ->capture_default_str();
  app.add_option("--timer", o.timer_read,
                 "the clock read: rdtsc (cheapest; the default), rdtscp (fenced: an instruction's "
                 "work cannot overlap the reads, so a mean base comes closer to the plain run), "
                 "clock (clock_gettime); default from DIS_TIMER")
      ->check(
          CLI::IsMember(std::vector<std::string>(vm::kTimerReads.begin(), vm::kTimerReads.end())));
  app.add_flag("--accuracy", o.accuracy,
               fmt::format("also run {} times without probes; compare the plain run time with the "
                           "attributed total, per base policy, and gauge how far the host moved "
                           "between the two",
                           kPlainRuns));
  app.add_option("--repeat", o.repeat, "run N times and merge (with run-to-run spread per line)")
      ->check(CLI::Range(1u, 100000u));
  vm::add_pin_option(app, o.pin);
  vm::add_root_option(app, o.vopts.root);
  vm::add_gc_option(app, o.vopts.gc);
  app.add_option("--diff", o.diff,
                 "compare two saved JSON reports per source line (with --by pc: per instruction)")
      ->expected(2);
  app.add_option("-c,--confidence", o.confidence,
                 "confidence for --diff, and for --repeat's marks of lines not reproducible "
                 "from run to run, in percent")
      ->check(CLI::Range(50.0, 99.999))
      ->capture_default_str();
  app.add_option("--sample", o.sample,
                 "time about one in N executions of each instruction (runs of 4 in a row from "
                 "random points; counts stay exact)")
      ->check(CLI::Range(1u, 1000000000u));
  tool.add_out(o.out_path, "write the report to FILE instead of stdout");
  app.add_option("--program-output", o.program_output,
                 "write the program's own output to FILE (default: stdout before a text "
                 "report; stderr when another format goes to stdout, so the report pipes)")
      ->option_text("FILE");
  limits.add_to(app);
  vm::add_kproc_options(app, o.vopts.idle_gc, o.vopts.cpus);
  app.footer(
      "What follows FILE is the program's (its argv[0] is FILE); with -f FILE, options anywhere "
      "are cost's and the program's arguments follow --.\n"
      "The program's output goes to stdout before a text report; with another format on stdout "
      "it goes to stderr (or --program-output FILE).\n"
      "Exit status: 0 success, 1 the program failed, 2 usage error or bad input, 130 interrupted "
      "by Ctrl-C (the report of what ran is still written).");
  return file_option;
}

// cost --diff A.json B.json: compares two saved reports; runs nothing.
int run_diff(const CostOptions& o) {
  try {
    if (o.format == "html") {
      const std::string page =
          cost::render_html_diff(cost::read_report(o.diff[0]), cost::read_report(o.diff[1]),
                                 o.diff[0], o.diff[1], o.confidence);
      if (o.out_path.empty()) {
        std::cout << page;
        return 0;
      }
      std::ofstream out(o.out_path, std::ios::binary);
      if (!(out << page)) {
        std::cerr << "cost: " << o.out_path << ": cannot write\n";
        return 2;
      }
      return 0;
    }
    // Per source line; --by pc compares instruction by instruction.
    std::cout << cost::diff_reports(o.diff[0], o.diff[1], o.confidence, o.by == "pc");
    return 0;
  } catch (const InputError& e) {
    std::cerr << "cost: " << e.what() << "\n";
    return 2;
  }
}

// Refuses what cannot run (no probes built, no program, modes that exclude
// each other); --mem implies --count. An exit status when cost must stop.
std::optional<int> check_run_options(const cli::Tool& tool, CostOptions& o) {
  if (!vm::probes_built()) {
    std::cerr << "cost: this build has no probes (configured with -DDIS_PROBES=OFF)\n";
    return 2;
  }
  if (o.file.empty()) return tool.usage_error("no program given (cost -f prog.b, or cost prog.b)");
  if (o.count && o.sample) {
    std::cerr << "cost: --count and --sample exclude each other\n";
    return 2;
  }
  if (o.mem && (o.sample || o.accuracy)) {
    // The memory profile counts instructions: it times none.
    std::cerr << "cost: --mem excludes --sample and --accuracy\n";
    return 2;
  }
  if (o.mem) o.count = true;
  if (o.count && o.accuracy) {
    // The accuracy check compares timed figures; a count run has none.
    std::cerr << "cost: --count and --accuracy exclude each other\n";
    return 2;
  }
  return std::nullopt;
}

cost::ReportOptions report_options(const CostOptions& o) {
  cost::ReportOptions ro;
  cost::parse_format(o.format, ro.format);
  ro.counts_only = o.count;
  ro.hide_unexecuted = o.hide;
  ro.module = o.only;
  ro.confidence = o.confidence;
  if (!o.by.empty()) cost::parse_view(o.by, ro.view);
  if (o.top) {
    ro.view = cost::View::Top;
    ro.top = o.top;
  }
  if (o.profile) ro.view = cost::View::Profile;
  return ro;
}

// What to run and how to probe it.
cost::RunSpec run_spec(const CostOptions& o, const cost::ReportOptions& ro) {
  cost::RunSpec spec;
  spec.program = o.file;
  spec.args.push_back(o.file);
  spec.args.insert(spec.args.end(), o.rest.begin(), o.rest.end());
  spec.vm = o.vopts;
  spec.mode = o.count    ? vm::ProbeMode::Count
              : o.sample ? vm::ProbeMode::Sampled
                         : vm::ProbeMode::Time;
  spec.sample_every = o.sample ? o.sample : 100;
  vm::parse_base_policy(o.base, spec.base_policy);
  spec.stream_base = o.accuracy;
  spec.memory = o.mem;
  spec.repeat = o.repeat;
  spec.interrupt = &interrupted;
  // Inclusive figures per function and call site appear in --by fn and in
  // the machine-readable formats only.
  spec.calls = ro.view == cost::View::Fn || ro.format != cost::Format::Text;
  // The page's flame graph.
  spec.paths = ro.format == cost::Format::Html;
  return spec;
}

// The files cost writes besides stdout and stderr.
struct Outputs {
  std::unique_ptr<std::ofstream> program_file;
  std::unique_ptr<std::ofstream> out_file;
};

// Opens the report's and the program's files and points the program's
// output at its place. An exit status when one cannot be opened.
std::optional<int> open_outputs(const CostOptions& o, const cost::ReportOptions& ro,
                                cost::RunSpec& spec, Outputs& outputs) {
  // A report other than text on stdout must pipe into its client: the
  // program's own output goes elsewhere.
  if (!o.program_output.empty()) {
    outputs.program_file = std::make_unique<std::ofstream>(o.program_output, std::ios::binary);
    if (!*outputs.program_file) {
      std::cerr << "cost: " << o.program_output << ": cannot open for writing\n";
      return 2;
    }
    spec.vm.out = outputs.program_file.get();
  } else if (ro.format != cost::Format::Text && o.out_path.empty()) {
    spec.vm.out = &std::cerr;
  }
  if (!o.out_path.empty()) {
    outputs.out_file = std::make_unique<std::ofstream>(o.out_path, std::ios::binary);
    if (!*outputs.out_file) {
      std::cerr << "cost: " << o.out_path << ": cannot open for writing\n";
      return 2;
    }
  }
  return std::nullopt;
}

// The costed run(s), with progress on a terminal, and the host's description.
cost::RunOutcome run_measured(const Module& main_module, cost::RunSpec& spec, bool accuracy,
                              int argc, char** argv) {
  Progress progress(isatty(2) != 0);
  spec.progress = [&](std::uint32_t done, std::uint32_t runs) {
    progress.set("run " + std::to_string(std::min(done + 1, runs)) + " of " + std::to_string(runs));
  };
  cost::RunOutcome outcome = cost::run_costed(main_module, spec);
  if (accuracy) progress.set("plain runs");
  std::vector<std::string> av(argv, argv + argc);
  outcome.data.environment =
      vm::collect_environment(av, spec.mode != vm::ProbeMode::Count || accuracy);
  return outcome;
}

// --accuracy: the plain runs set against the attributed total.
struct AccuracyReport {
  std::string text;
  nlohmann::json json;
};

AccuracyReport measure_accuracy(const Module& main_module, const cost::RunSpec& spec,
                                const cost::RunOutcome& outcome) {
  std::vector<double> plain, plain_cpu;
  cost::HostGauge gauge;
  int st = 0;
  {
    // The program's output and diagnostics of the plain runs are not
    // shown again (a failing program said why once, in the costed run).
    std::ostringstream sink;
    cost::RunSpec quiet = spec;
    quiet.vm.out = &sink;
    quiet.vm.err = &sink;
    // The host gauged before each plain run and after the last, as the
    // rounds gauged it beside the costed run.
    const cost::StreamCalibration* cal = outcome.calibration.get();
    if (cal) gauge.run_ticks = cal->run_plain_ticks();
    for (int i = 0; i < kPlainRuns; ++i) {
      if (cal) gauge.plain_ticks.push_back(cal->plain_gauge());
      double cpu = 0;
      plain.push_back(cost::run_plain(main_module, quiet, st, &cpu));
      plain_cpu.push_back(cpu);
    }
    if (cal) gauge.plain_ticks.push_back(cal->plain_gauge());
  }
  const cost::Accuracy a = cost::accuracy_of(outcome.data, plain, plain_cpu, gauge);
  return {cost::accuracy_text(a), cost::accuracy_json(a)};
}

// Writes the report in its format; `accuracy` is null without --accuracy.
void write_output(std::ostream& os, const cost::RunOutcome& outcome, const cost::ReportOptions& ro,
                  const AccuracyReport* accuracy, const cost::TeeStream& diagnostics) {
  if (ro.format == cost::Format::Json || ro.format == cost::Format::Html) {
    nlohmann::json j = cost::render_json_value(outcome.data, ro);
    if (accuracy) j["accuracy"] = accuracy->json;
    if (ro.format == cost::Format::Json) {
      os << j.dump(2) << "\n";
    } else {
      cost::PageFacts facts{outcome.status, outcome.message,
                            cost::failure_position(diagnostics.kept(), outcome.message),
                            accuracy ? accuracy->text : std::string()};
      os << cost::render_html(outcome.data, j, facts);
    }
  } else {
    cost::write_report(os, outcome.data, ro);
    if (accuracy && ro.format == cost::Format::Text) os << accuracy->text;
    if (accuracy && ro.format != cost::Format::Text) std::cerr << accuracy->text;
  }
  os.flush();
}

// Loads, runs, measures and reports; the exit status.
int run_and_report(const CostOptions& o, cost::ReportOptions& ro, cost::RunSpec& spec,
                   const Outputs& outputs, const cost::TeeStream& diagnostics, int argc,
                   char** argv) {
  // Timed runs calibrate for half a second anyway; the count view starts
  // fast and reads no clock.
  if (spec.mode != vm::ProbeMode::Count) cost::warm_heap(kWarmHeapBytes);
  try {
    Module main_module = cost::load_program(vm::program_file(o.file, o.vopts.root));
    const cost::RunOutcome outcome = run_measured(main_module, spec, o.accuracy, argc, argv);
    std::cout.flush();
    if (!ro.module.empty()) {
      const std::optional<std::string> m = cost::resolve_module(outcome.data, ro.module);
      if (!m) {
        std::cerr << "cost: -s " << ro.module << ": no module of that name ran (modules that ran: "
                  << cost::module_names(outcome.data) << ")\n";
        return 2;
      }
      ro.module = *m;
    }
    std::ostream& os = outputs.out_file ? static_cast<std::ostream&>(*outputs.out_file) : std::cout;
    // An interrupted run has nothing to compare: no plain runs.
    std::optional<AccuracyReport> accuracy;
    if (o.accuracy && !interrupted) accuracy = measure_accuracy(main_module, spec, outcome);
    write_output(os, outcome, ro, accuracy ? &*accuracy : nullptr, diagnostics);
    if (interrupted) {
      std::cerr << "cost: interrupted; the report is of what ran\n";
      return 130;
    }
    return outcome.status == 0 ? 0 : 1;
  } catch (const InputError& e) {
    std::cout.flush();
    std::cerr << e.what() << "\n";
    return 2;
  }
}

int run(int argc, char** argv) {
  dis::cli::Tool tool(
      "cost",
      "cost: run a Dis program with every instruction timed and report the cost per source line",
      "cost [OPTIONS] FILE [ARGS...]  |  cost -f FILE [OPTIONS] [-- ARGS...]  |  cost --diff "
      "A.json B.json");
  CostOptions o;
  vm::LimitOptions limits(o.vopts);
  CLI::Option* file_option = add_options(tool, o, limits);
  if (std::optional<int> rc = tool.parse_program(argc, argv, file_option, o.file, o.rest))
    return *rc;

  // The timer is chosen once, on its first use (probe/timer.h), from DIS_TIMER.
  if (!o.timer_read.empty()) setenv("DIS_TIMER", o.timer_read.c_str(), 1);
  if (const std::string e = vm::timer_env_error(); !e.empty()) {
    std::cerr << "cost: " << e << "\n";
    return 2;
  }
  if (!o.diff.empty()) return run_diff(o);
  if (std::optional<int> rc = check_run_options(tool, o)) return *rc;

  cost::ReportOptions ro = report_options(o);
  if (!vm::apply_pin(o.pin, "cost")) return 2;
  limits.apply(o.vopts);
  cost::RunSpec spec = run_spec(o, ro);
  std::signal(SIGINT, on_interrupt);
  // The page says where a failing run stopped: the VM's diagnostics pass
  // through and the first 64 KiB are kept.
  cost::TeeStream diagnostics(std::cerr, 1 << 16);
  if (ro.format == cost::Format::Html && !spec.vm.err) spec.vm.err = &diagnostics;
  Outputs outputs;
  if (std::optional<int> rc = open_outputs(o, ro, spec, outputs)) return *rc;
  return run_and_report(o, ro, spec, outputs, diagnostics, argc, argv);
}

}  // namespace

int main(int argc, char** argv) { return dis::vm::fault::guarded_main("cost", run, argc, argv); }
