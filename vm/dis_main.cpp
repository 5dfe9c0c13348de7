// dis: run a Dis module (.dis, or .s assembled in memory).
//   dis [options] prog.dis|prog.s|prog.b [args...]
//   dis -f prog.b [options] [-- args...]
// Exit status: 0 success; 1 uncaught exception in init's thread, deadlock or verifier
// refusal; 2 usage error or unreadable/malformed input.
#include <CLI/CLI.hpp>
#include <iostream>

#include "compiler.h"
#include "diag.h"
#include "fault_injection.h"
#include "kproc_options.h"
#include "limit_options.h"
#include "run_options.h"
#include "tool_cli.h"
#include "vm.h"

namespace {

int run(int argc, char** argv) {
  dis::cli::Tool tool("dis",
                      "dis: run a Dis module (.dis, .s, or .b compiled in memory) with "
                      "init(nil, args)",
                      "dis [OPTIONS] FILE [ARGS...]  |  dis -f FILE [OPTIONS] [-- ARGS...]");
  CLI::App& app = tool.app();
  dis::vm::Options opts;
  dis::vm::LimitOptions limits(opts);
  std::string file;
  CLI::Option* file_option =
      app.add_option("-f,--file", file, "the program: prog.dis, prog.s or prog.b")
          ->option_text("FILE");
  limits.add_to(app);
  app.add_flag("--trace", opts.trace, "print each executed instruction on stderr");
  app.add_option("--trace-limit", opts.trace_limit, "trace at most N instructions")
      ->check(dis::vm::not_negative());
  dis::vm::add_root_option(app, opts.root);
  dis::vm::add_gc_option(app, opts.gc);
  bool gc_stats = false;
  app.add_option("--gc-quanta", opts.gc_quanta, "fixed GC step budget (0: adaptive 50..750)");
  app.add_flag("--gc-stats", gc_stats, "print memory-management counters on stderr at exit");
  dis::vm::add_gc_verify_option(app, opts.gc_verify);
  bool gc_step_times = false;
  app.add_flag("--gc-step-times", gc_step_times,
               "time every GC step; print percentiles and the maximum on stderr at exit");
  dis::vm::add_kproc_options(app, opts.idle_gc, opts.cpus);
  int pin = -1;
  dis::vm::add_pin_option(app, pin);
  app.footer(
      "What follows FILE is the program's (its argv[0] is FILE); with -f FILE, the program's "
      "arguments follow --.");
  std::vector<std::string> rest;
  if (std::optional<int> rc = tool.parse_program(argc, argv, file_option, file, rest)) return *rc;
  if (file.empty()) return tool.usage_error("no program given (dis prog.dis, or dis -f prog.b)");
  if (!dis::vm::apply_pin(pin, "dis")) return 2;
  rest.insert(rest.begin(), file);
  opts.compile = [](const std::string& path) { return dis::limbo::compile_file(path, {}); };
  limits.apply(opts);
  try {
    dis::vm::GcStepTimes step_times;  // outlives the VM
    dis::vm::VM vm(opts);
    if (gc_step_times) vm.set_gc_observer(&step_times);
    dis::vm::RunResult r = vm.run_file(dis::vm::program_file(rest[0], opts.root), rest);
    std::cout.flush();
    if (gc_stats) std::cerr << dis::vm::format_gc_stats(vm.stats().gc);
    if (gc_step_times) std::cerr << step_times.report();
    return r.status;
  } catch (const dis::InputError& e) {
    std::cout.flush();
    std::cerr << e.what() << "\n";
    return 2;
  }
}

}  // namespace

int main(int argc, char** argv) { return dis::vm::fault::guarded_main("dis", run, argc, argv); }
