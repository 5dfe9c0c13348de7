// dis: run a Dis module (.dis, or .s assembled in memory).
//   dis [options] prog.dis|prog.s|prog.b [args...]
// Exit status: 0 success; 1 uncaught exception in init's thread, deadlock or verifier
// refusal; 2 usage error or unreadable/malformed input.
#include <CLI/CLI.hpp>
#include <iostream>
#include <new>

#include "compiler.h"
#include "diag.h"
#include "fault_injection.h"
#include "kproc_options.h"
#include "limit_options.h"
#include "log_option.h"
#include "vm.h"

namespace {

int run(int argc, char** argv) {
  CLI::App app{"dis: run a Dis module (.dis or .s) with init(nil, args)"};
  app.set_version_flag("--version", std::string("dis ") + DIS_VERSION);
  dis::add_log_option(app);
  app.prefix_command();  // everything from the program on belongs to it
  dis::vm::Options opts;
  dis::vm::LimitOptions limits(opts);
  limits.add_to(app);
  app.add_flag("--trace", opts.trace, "print each executed instruction on stderr");
  app.add_option("--trace-limit", opts.trace_limit, "trace at most N instructions")
      ->check(dis::vm::not_negative());
  app.add_option("--root", opts.root, "host directory for absolute Dis paths")
      ->check(CLI::ExistingDirectory);
  std::string gc_mode = "dis";
  bool gc_stats = false;
  app.add_option("--gc", gc_mode,
                 "memory management: dis (reference counts + incremental collector), ms (collector "
                 "only), stress (full collection at every allocation)")
      ->check(CLI::IsMember({"dis", "ms", "stress"}))
      ->capture_default_str();
  app.add_option("--gc-quanta", opts.gc_quanta, "fixed GC step budget (0: adaptive 50..750)");
  app.add_flag("--gc-stats", gc_stats, "print memory-management counters on stderr at exit");
  app.add_flag("--gc-verify", opts.gc_verify, "verify the heap after every GC step (slow)");
  bool gc_step_times = false;
  app.add_flag("--gc-step-times", gc_step_times,
               "time every GC step; print percentiles and the maximum on stderr at exit");
  dis::vm::add_kproc_options(app, opts.idle_gc, opts.cpus);
  app.footer("The program's own arguments follow its file name; its argv[0] is that name.");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int rc = app.exit(e);
    return rc == 0 ? 0 : 2;
  }
  std::vector<std::string> rest = app.remaining();
  if (!rest.empty() && rest[0] == "--") rest.erase(rest.begin());
  if (rest.empty()) {
    std::cerr << "dis: no program given\n" << app.help();
    return 2;
  }
  if (!rest[0].empty() && rest[0][0] == '-' && rest[0] != "-") {
    std::cerr << "dis: unknown option " << rest[0] << "\n";
    return 2;
  }
  opts.compile = [](const std::string& path) { return dis::limbo::compile_file(path, {}); };
  limits.apply(opts);
  dis::vm::parse_gc_mode(gc_mode, opts.gc);
  try {
    dis::vm::GcStepTimes step_times;  // outlives the VM
    dis::vm::VM vm(opts);
    if (gc_step_times) vm.set_gc_observer(&step_times);
    dis::vm::RunResult r = vm.run_file(rest[0], rest);
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

int main(int argc, char** argv) {
  dis::vm::fault::arm();  // test builds only (fault_injection.h)
  try {
    return run(argc, argv);
  } catch (const std::bad_alloc&) {
    // Outside a program's threads (options, loading, compiling): the run
    // ends as on any failure, with a message.
    std::cout.flush();
    std::cerr << "dis: out of memory\n";
    return 1;
  }
}
