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
#include <mutex>
#include <optional>
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

int run(int argc, char** argv) {
  dis::cli::Tool tool(
      "cost",
      "cost: run a Dis program with every instruction timed and report the cost per source line",
      "cost [OPTIONS] FILE [ARGS...]  |  cost -f FILE [OPTIONS] [-- ARGS...]  |  cost --diff "
      "A.json B.json");
  CLI::App& app = tool.app();
  std::string file, only, by, format = "text", base = "stream", out_path, timer_read;
  std::string program_output;
  std::size_t top = 0;
  bool profile = false, count = false, hide = false, accuracy = false, mem = false;
  std::uint32_t repeat = 1, sample = 0;
  int pin = -1;
  std::vector<std::string> diff;
  double confidence = 95;
  dis::vm::Options vopts;
  vm::LimitOptions limits(vopts);
  CLI::Option* file_option =
      app.add_option("-f,--file", file,
                     "the program: prog.b (compiled), prog.dis (+prog.sbl) or prog.s")
          ->option_text("FILE");
  app.add_option("-s,--module", only,
                 "report only this module (e.g. -s Base; a name differing only in case, as the "
                 "paper's -s bench, finds it too)");
  app.add_option("--by", by, "view: fn (inclusive/exclusive per function), op (per opcode), pc")
      ->check(CLI::IsMember({"fn", "op", "pc", "line"}));
  app.add_option("--top", top, "the N hottest lines")
      ->check(vm::not_negative())
      ->check(CLI::Range(std::size_t{1}, std::size_t{1} << 30));
  app.add_flag("--profile", profile, "where all the time went, as shares of the total");
  app.add_flag("--count", count, "count instructions only (fast, deterministic)");
  app.add_flag("--hide-unexecuted", hide, "omit source lines whose code never ran");
  app.add_flag("--mem", mem,
               "memory profile: per source line and function the heap objects allocated (count, "
               "bytes, by kind), freed by reference counting and by the collector, and live at "
               "exit, and the collector's time per cycle (counts instructions, times none)");
  app.add_option("--format", format,
                 "text, json, csv, callgrind or html (one self-contained page: the source "
                 "heat-coloured, the views, charts and a flame graph; also for --diff)")
      ->check(CLI::IsMember({"text", "json", "csv", "callgrind", "html"}))
      ->capture_default_str();
  app.add_option("--base", base,
                 "base subtracted from each observation: stream (what the probe adds per "
                 "instruction on synthetic instruction streams run plain and timed in this "
                 "process: the most accurate, perf/accuracy.py), min (the paper's BASE: the "
                 "smallest empty measurement, never below one timer step), median, or mean (of "
                 "the empty measurements, outliers left out)")
      ->check(CLI::IsMember({"min", "median", "mean", "stream"}))
      ->capture_default_str();
  app.add_option("--timer", timer_read,
                 "the clock read: rdtsc (cheapest; the default), rdtscp (fenced: an instruction's "
                 "work cannot overlap the reads, so a mean base comes closer to the plain run), "
                 "clock (clock_gettime); default from DIS_TIMER")
      ->check(
          CLI::IsMember(std::vector<std::string>(vm::kTimerReads.begin(), vm::kTimerReads.end())));
  app.add_flag("--accuracy", accuracy,
               fmt::format("also run {} times without probes; compare the plain run time with the "
                           "attributed total, per base policy, and gauge how far the host moved "
                           "between the two",
                           kPlainRuns));
  app.add_option("--repeat", repeat, "run N times and merge (with run-to-run spread per line)")
      ->check(CLI::Range(1u, 100000u));
  vm::add_pin_option(app, pin);
  vm::add_root_option(app, vopts.root);
  vm::add_gc_option(app, vopts.gc);
  app.add_option("--diff", diff,
                 "compare two saved JSON reports per source line (with --by pc: per instruction)")
      ->expected(2);
  app.add_option("-c,--confidence", confidence,
                 "confidence for --diff, and for --repeat's marks of lines not reproducible "
                 "from run to run, in percent")
      ->check(CLI::Range(50.0, 99.999))
      ->capture_default_str();
  app.add_option("--sample", sample,
                 "time about one in N executions of each instruction (runs of 4 in a row from "
                 "random points; counts stay exact)")
      ->check(CLI::Range(1u, 1000000000u));
  tool.add_out(out_path, "write the report to FILE instead of stdout");
  app.add_option("--program-output", program_output,
                 "write the program's own output to FILE (default: stdout before a text "
                 "report; stderr when another format goes to stdout, so the report pipes)")
      ->option_text("FILE");
  limits.add_to(app);
  vm::add_kproc_options(app, vopts.idle_gc, vopts.cpus);
  app.footer(
      "What follows FILE is the program's (its argv[0] is FILE); with -f FILE, options anywhere "
      "are cost's and the program's arguments follow --.\n"
      "The program's output goes to stdout before a text report; with another format on stdout "
      "it goes to stderr (or --program-output FILE).\n"
      "Exit status: 0 success, 1 the program failed, 2 usage error or bad input, 130 interrupted "
      "by Ctrl-C (the report of what ran is still written).");
  std::vector<std::string> rest;
  if (std::optional<int> rc = tool.parse_program(argc, argv, file_option, file, rest)) return *rc;

  // The timer is chosen once, on its first use (probe/timer.h), from DIS_TIMER.
  if (!timer_read.empty()) setenv("DIS_TIMER", timer_read.c_str(), 1);
  if (const std::string e = vm::timer_env_error(); !e.empty()) {
    std::cerr << "cost: " << e << "\n";
    return 2;
  }

  if (!diff.empty()) {
    try {
      if (format == "html") {
        const std::string page = cost::render_html_diff(
            cost::read_report(diff[0]), cost::read_report(diff[1]), diff[0], diff[1], confidence);
        if (out_path.empty()) {
          std::cout << page;
          return 0;
        }
        std::ofstream out(out_path, std::ios::binary);
        if (!(out << page)) {
          std::cerr << "cost: " << out_path << ": cannot write\n";
          return 2;
        }
        return 0;
      }
      // Per source line; --by pc compares instruction by instruction.
      std::cout << cost::diff_reports(diff[0], diff[1], confidence, by == "pc");
      return 0;
    } catch (const InputError& e) {
      std::cerr << "cost: " << e.what() << "\n";
      return 2;
    }
  }

  if (!vm::probes_built()) {
    std::cerr << "cost: this build has no probes (configured with -DDIS_PROBES=OFF)\n";
    return 2;
  }

  if (file.empty()) return tool.usage_error("no program given (cost -f prog.b, or cost prog.b)");
  if (count && sample) {
    std::cerr << "cost: --count and --sample exclude each other\n";
    return 2;
  }
  if (mem && (sample || accuracy)) {
    // The memory profile counts instructions: it times none.
    std::cerr << "cost: --mem excludes --sample and --accuracy\n";
    return 2;
  }
  if (mem) count = true;
  if (count && accuracy) {
    // The accuracy check compares timed figures; a count run has none.
    std::cerr << "cost: --count and --accuracy exclude each other\n";
    return 2;
  }

  cost::ReportOptions ro;
  cost::parse_format(format, ro.format);
  ro.counts_only = count;
  ro.hide_unexecuted = hide;
  ro.module = only;
  ro.confidence = confidence;
  if (!by.empty()) cost::parse_view(by, ro.view);
  if (top) {
    ro.view = cost::View::Top;
    ro.top = top;
  }
  if (profile) ro.view = cost::View::Profile;

  if (!vm::apply_pin(pin, "cost")) return 2;

  cost::RunSpec spec;
  spec.program = file;
  spec.args.push_back(file);
  spec.args.insert(spec.args.end(), rest.begin(), rest.end());
  limits.apply(vopts);
  spec.vm = vopts;
  spec.mode = count ? vm::ProbeMode::Count : sample ? vm::ProbeMode::Sampled : vm::ProbeMode::Time;
  spec.sample_every = sample ? sample : 100;
  vm::parse_base_policy(base, spec.base_policy);
  spec.stream_base = accuracy;
  spec.memory = mem;
  spec.repeat = repeat;
  spec.interrupt = &interrupted;
  std::signal(SIGINT, on_interrupt);
  // Inclusive figures per function and call site appear in --by fn and in
  // the machine-readable formats only.
  spec.calls = ro.view == cost::View::Fn || ro.format != cost::Format::Text;
  // The page's flame graph.
  spec.paths = ro.format == cost::Format::Html;
  // The page says where a failing run stopped: the VM's diagnostics pass
  // through and the first 64 KiB are kept.
  cost::TeeStream diagnostics(std::cerr, 1 << 16);
  if (ro.format == cost::Format::Html && !spec.vm.err) spec.vm.err = &diagnostics;

  // A report other than text on stdout must pipe into its client: the
  // program's own output goes elsewhere.
  std::unique_ptr<std::ofstream> program_file;
  if (!program_output.empty()) {
    program_file = std::make_unique<std::ofstream>(program_output, std::ios::binary);
    if (!*program_file) {
      std::cerr << "cost: " << program_output << ": cannot open for writing\n";
      return 2;
    }
    spec.vm.out = program_file.get();
  } else if (ro.format != cost::Format::Text && out_path.empty()) {
    spec.vm.out = &std::cerr;
  }

  std::unique_ptr<std::ofstream> out_file;
  if (!out_path.empty()) {
    out_file = std::make_unique<std::ofstream>(out_path, std::ios::binary);
    if (!*out_file) {
      std::cerr << "cost: " << out_path << ": cannot open for writing\n";
      return 2;
    }
  }

  // Timed runs calibrate for half a second anyway; the count view starts
  // fast and reads no clock.
  if (spec.mode != vm::ProbeMode::Count) cost::warm_heap(kWarmHeapBytes);
  try {
    Module main_module = cost::load_program(vm::program_file(file, vopts.root));
    cost::RunOutcome outcome;
    {
      Progress progress(isatty(2) != 0);
      spec.progress = [&](std::uint32_t done, std::uint32_t runs) {
        progress.set("run " + std::to_string(std::min(done + 1, runs)) + " of " +
                     std::to_string(runs));
      };
      outcome = cost::run_costed(main_module, spec);
      if (accuracy) progress.set("plain runs");
      std::vector<std::string> av(argv, argv + argc);
      outcome.data.environment =
          vm::collect_environment(av, spec.mode != vm::ProbeMode::Count || accuracy);
    }
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
    std::ostream& os = out_file ? static_cast<std::ostream&>(*out_file) : std::cout;
    std::string accuracy_text;
    nlohmann::json accuracy_json;
    // An interrupted run has nothing to compare: no plain runs.
    if (interrupted) accuracy = false;
    if (accuracy) {
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
      accuracy_text = cost::accuracy_text(a);
      accuracy_json = cost::accuracy_json(a);
    }
    if (ro.format == cost::Format::Json || ro.format == cost::Format::Html) {
      nlohmann::json j = cost::render_json_value(outcome.data, ro);
      if (accuracy) j["accuracy"] = accuracy_json;
      if (ro.format == cost::Format::Json) {
        os << j.dump(2) << "\n";
      } else {
        cost::PageFacts facts{outcome.status, outcome.message,
                              cost::failure_position(diagnostics.kept(), outcome.message),
                              accuracy_text};
        os << cost::render_html(outcome.data, j, facts);
      }
    } else {
      cost::write_report(os, outcome.data, ro);
      if (accuracy && ro.format == cost::Format::Text) os << accuracy_text;
      if (accuracy && ro.format != cost::Format::Text) std::cerr << accuracy_text;
    }
    os.flush();
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

}  // namespace

int main(int argc, char** argv) { return dis::vm::fault::guarded_main("cost", run, argc, argv); }
