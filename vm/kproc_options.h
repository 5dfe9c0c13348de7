// The kernel-process options of every tool that runs programs (dis, cost,
// bench): --idle-gc old|fixed and --cpus N (vm.h Options::idle_gc, cpus).
// Header-only: included by the tools' mains, which link CLI11.
#pragma once

#include <sched.h>

#include <CLI/CLI.hpp>
#include <string>

#include "vm.h"

namespace dis::vm {

inline void add_kproc_options(CLI::App& app, IdleGc& idle_gc, unsigned& cpus) {
  app.add_option_function<std::string>(
         "--idle-gc", [&idle_gc](const std::string& s) { parse_idle_gc(s, idle_gc); },
         "idle garbage collection: old (stops only when a kernel process wants the "
         "interpreter or a thread is ready) or fixed (also yields the processor after each "
         "step)")
      ->check(CLI::IsMember({"old", "fixed"}))
      ->default_str(idle_gc == IdleGc::Old ? "old" : "fixed");
  app.add_option("--cpus", cpus,
                 "confine the whole VM process to N processors (CPU affinity), e.g. 1 as on "
                 "the paper's uniprocessor")
      ->check(CLI::Range(1u, static_cast<unsigned>(CPU_SETSIZE)));
}

}  // namespace dis::vm
