// The limit options of every tool that runs programs (dis, cost, bench):
// --heap-limit MiB, --stack-limit KiB and --max-instructions N (vm.h
// Options::heap_limit, stack_limit, max_instructions). A negative value, a
// zero heap or stack, or a size past 2^40 bytes is a usage error naming the
// flag: CLI11 reads "-1" into an unsigned option as 2^64 - 1, which made
// --stack-limit -5 hang the interpreter and --heap-limit -1 mean no limit.
// Header-only: included by the tools' mains, which link CLI11.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>

#include "vm.h"

namespace dis::vm {

// Refuses a negative value for an unsigned option.
inline CLI::Validator not_negative() {
  return CLI::Validator(
      [](std::string& s) {
        const auto first = s.find_first_not_of(" \t");
        return first != std::string::npos && s[first] == '-'
                   ? std::string("Value ") + s + " is negative"
                   : std::string();
      },
      "");
}

class LimitOptions {
 public:
  // Starts from `defaults` (shown in --help).
  explicit LimitOptions(const Options& defaults)
      : heap_mb_(defaults.heap_limit >> 20),
        stack_kb_(defaults.stack_limit >> 10),
        max_instructions_(defaults.max_instructions) {}

  void add_to(CLI::App& app) {
    app.add_option("--heap-limit", heap_mb_, "live heap limit in MiB")
        ->check(not_negative())
        ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 20))
        ->capture_default_str();
    app.add_option("--stack-limit", stack_kb_, "stack limit per thread in KiB")
        ->check(not_negative())
        ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 30))
        ->capture_default_str();
    app.add_option("--max-instructions", max_instructions_,
                   "stop with 'instruction limit' after N instructions (0: none)")
        ->check(not_negative());
  }

  void apply(Options& o) const {
    o.heap_limit = heap_mb_ << 20;
    o.stack_limit = stack_kb_ << 10;
    o.max_instructions = max_instructions_;
  }

 private:
  std::uint64_t heap_mb_, stack_kb_, max_instructions_;
};

}  // namespace dis::vm
