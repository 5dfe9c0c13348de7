// bench: the measurement suite of the paper's devbench, on this VM. Prints
// one summary line per test (or, with --all, every observation) after the
// environment header, as observation lines that plot and bstat read.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "bench_suite.h"
#include "diag.h"
#include "environment.h"
#include "kproc_options.h"
#include "limit_options.h"
#include "run_options.h"
#include "timer.h"
#include "tool_cli.h"

using namespace dis::cost;

namespace {

std::string list_text() {
  std::string s;
  for (const BenchTest& t : bench_tests())
    s += fmt::format("{:<19} n={:<5} inner={:<4} {}\n", t.name, t.outer, t.inner, t.description);
  return s;
}

// "# " lines: what each figure rests on.
std::string figure_comment(const BenchTest& t, const BenchResult& r) {
  std::string s = fmt::format("# {}: {} observations", r.name, r.values.size());
  if (r.inner > 1) s += fmt::format(", each the mean of an inner loop of {}", r.inner);
  s += "; " + t.description + "\n";
  if (!r.note.empty()) s += "# " + r.name + ": " + r.note + "\n";
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  dis::cli::Tool tool("bench",
                      "bench: run the measurement suite (BASE, SLEEP0, GCSCHED, GCIDLE, one test "
                      "per opcode family) on the Dis VM; one summary line per test, or with "
                      "--all every observation",
                      "bench [OPTIONS]");
  CLI::App& app = tool.app();
  std::uint32_t outer = 0;
  std::vector<std::string> names;
  bool obs = false, list = false, us = false;
  std::string format = "text", out_path, suite;
  int pin = -1;
  app.add_option("-n", outer, "outer repetitions per test (default: each test's, see --list)")
      ->option_text("N")
      ->check(CLI::Range(1u, 10000000u));
  app.add_option("-t", names, "run only test NAME (repeatable; see --list)")
      ->option_text("NAME")
      ->allow_extra_args(false);
  app.add_flag("-a,--all", obs,
               "print every observation (NAME:1l:Observation::Time:UNIT v1 v2 ...; the paper's "
               "bench -o)");
  app.add_option("--format", format, "text or json")->check(CLI::IsMember({"text", "json"}));
  dis::vm::add_pin_option(app, pin);
  app.add_flag("--list", list, "list the tests and exit");
  tool.add_out(out_path, "write the results to FILE instead of stdout");
  BenchConfig cfg;
  dis::vm::LimitOptions limits{dis::vm::Options{}};
  limits.add_to(app);
  dis::vm::add_kproc_options(app, cfg.idle_gc, cfg.cpus);
  app.add_flag("--us", us, "record microseconds (microsec, /dev/busec) as the paper did");
  app.add_option("--suite", suite, "directory of the suite's Limbo programs")
      ->option_text("DIR")
      ->check(CLI::ExistingDirectory);
  if (std::optional<int> rc = tool.parse(argc, argv)) return *rc;
  if (list) {
    std::cout << list_text();
    return 0;
  }
  if (const std::string e = dis::vm::timer_env_error(); !e.empty()) {
    std::cerr << "bench: " << e << "\n";
    return 2;
  }

  std::vector<const BenchTest*> tests;
  for (const std::string& n : names) {
    const BenchTest* t = find_bench_test(n);
    if (!t) {
      std::cerr << fmt::format("bench: no test named '{}' (bench --list shows them)\n",
                               quote_for_message(n));
      return 2;
    }
    tests.push_back(t);
  }
  if (tests.empty())
    for (const BenchTest& t : bench_tests()) tests.push_back(&t);

  cfg.suite_dir = find_suite_dir(suite);
  if (cfg.suite_dir.empty()) {
    std::cerr << "bench: cannot find the suite's programs (samples/bench-suite/ops.b); "
                 "use --suite DIR\n";
    return 2;
  }
  cfg.unit = us ? BenchUnit::Us : BenchUnit::Ns;
  cfg.outer = outer;
  {
    dis::vm::Options limited;
    limits.apply(limited);
    cfg.heap_limit = limited.heap_limit;
    cfg.stack_limit = limited.stack_limit;
    cfg.max_instructions = limited.max_instructions;
  }

  if (!dis::vm::apply_pin(pin, "bench")) return 2;

  std::vector<std::string> argv_vec(argv, argv + argc);
  dis::vm::Environment env = dis::vm::collect_environment(argv_vec);
  std::ostringstream report;
  nlohmann::json jtests = nlohmann::json::array();
  const char* unit = us ? "us" : "ns";
  if (format == "text") {
    report << dis::vm::environment_text(env, "# ");
    report << fmt::format(
        "# unit: {}; a value is one outer repetition's time divided by its inner loop count\n",
        unit);
  }
  int status = 0;
  for (const BenchTest* t : tests) {
    BenchResult r;
    try {
      r = run_bench_test(*t, cfg);
    } catch (const dis::InputError& e) {
      std::cerr << "bench: " << e.what() << "\n";
      return 2;
    } catch (const std::exception& e) {
      std::cerr << "bench: " << e.what() << "\n";
      status = 1;
      continue;
    }
    if (format == "text") {
      report << figure_comment(*t, r);
      write_observation_line(report, obs ? observations_line(r) : summary_line(r));
      report << "\n";
    } else {
      SummaryValues s = summary_values(summary_line(r));
      nlohmann::json j = {{"name", r.name},   {"description", t->description},
                          {"unit", r.unit},   {"n", static_cast<std::uint64_t>(s.n)},
                          {"inner", r.inner}, {"mean", s.mean},
                          {"min", s.min},     {"max", s.max},
                          {"std", s.std},     {"note", r.note}};
      if (obs) j["values"] = r.values;
      jtests.push_back(std::move(j));
    }
  }
  if (format == "json") {
    nlohmann::json doc = {
        {"environment", dis::vm::environment_json(env)}, {"unit", unit}, {"tests", jtests}};
    report << doc.dump(2) << "\n";
  }
  if (out_path.empty()) {
    std::cout << report.str() << std::flush;
  } else {
    std::ofstream f(out_path);
    if (!(f << report.str())) {
      std::cerr << fmt::format("bench: {}: cannot write\n", out_path);
      return 2;
    }
  }
  return status;
}
