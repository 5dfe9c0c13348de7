// The options of the tools that run programs (dis, cost, bench), each
// defined here once: --pin CPU, --root DIR and --gc MODE, beside
// --heap-limit/--stack-limit/--max-instructions (limit_options.h) and
// --idle-gc/--cpus (kproc_options.h). Header-only: included by the tools'
// mains, which link CLI11.
#pragma once

#include <sched.h>

#include <CLI/CLI.hpp>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <string>

#include "vm.h"

namespace dis::vm {

// --pin CPU: -1 when not given.
inline void add_pin_option(CLI::App& app, int& pin) {
  app.add_option("--pin", pin, "run on CPU number CPU only (sched_setaffinity)")
      ->option_text("CPU")
      ->check(CLI::Range(0, CPU_SETSIZE - 1));
}

// Pins the process to `pin` (nothing for -1); false after saying why.
inline bool apply_pin(int pin, const std::string& tool) {
  if (pin < 0) return true;
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(pin, &set);
  if (sched_setaffinity(0, sizeof set, &set) == 0) return true;
  std::cerr << tool << ": --pin " << pin << ": cannot run on that CPU\n";
  return false;
}

inline void add_root_option(CLI::App& app, std::string& root) {
  app.add_option("--root", root, "host directory for absolute Dis paths")
      ->option_text("DIR")
      ->check(CLI::ExistingDirectory);
}

// The host file of the program a tool runs: an absolute path missing on the
// host names a file under --root (`dis --root INFERNO /dis/wc.dis`), as the
// modules it loads do; argv[0] stays the Dis path.
inline std::string program_file(const std::string& file, const std::string& root) {
  std::error_code ec;
  if (root.empty() || file.empty() || file[0] != '/' || std::filesystem::exists(file, ec))
    return file;
  return std::filesystem::exists(root + file, ec) ? root + file : file;
}

// --gc MODE into `mode` (vm::Options::gc).
inline void add_gc_option(CLI::App& app, GcMode& mode) {
  app.add_option_function<std::string>(
         "--gc", [&mode](const std::string& s) { parse_gc_mode(s, mode); },
         "memory management: dis (reference counts + incremental collector), ms (collector "
         "only), stress (full collection at every allocation)")
      ->check(CLI::IsMember({"dis", "ms", "stress"}))
      ->option_text("MODE")
      ->default_str("dis");
}

// --gc-verify[=N] into `every` (vm::Options::gc_verify): alone, 1 (after
// every step); N >= 1 is the sampled verifier. A flag, so N needs the `=`.
inline void add_gc_verify_option(CLI::App& app, std::uint32_t& every) {
  app.add_flag("--gc-verify", every,
               "verify the heap after every GC step (slow); --gc-verify=N: after every Nth "
               "step, at every collection's end and at exit")
      ->transform(CLI::Validator(
          [](std::string& v) -> std::string {
            if (v == "true") v = "1";  // the flag alone
            char* end = nullptr;
            const unsigned long long n = std::strtoull(v.c_str(), &end, 10);
            if (v.empty() || v[0] < '0' || v[0] > '9' || *end || n < 1 || n > (1u << 30))
              return "N must be a whole number from 1 to 1073741824, not '" + v + "'";
            return {};
          },
          "", "gc-verify N"))
      ->option_text("[=N]");
}

}  // namespace dis::vm
