// The --log LEVEL option every tool takes (log.h), also read from the
// DIS_LOG environment variable; a level outside kLogLevelNames is a usage
// error (exit 2, as every tool's bad flag). Header-only: only the tools'
// mains include it, and they link CLI11.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "log.h"

namespace dis {

inline void add_log_option(CLI::App& app) {
  app.add_option_function<std::string>(
         "--log",
         [](const std::string& name) {
           LogLevel level = LogLevel::Off;
           parse_log_level(name, level);  // checked below
           set_log_level(level);
         },
         std::string("diagnostic log on stderr (loader, verifier, collector, scheduler, "
                     "kernel processes) from this level on: ") +
             kLogLevelNames + " (default off; also DIS_LOG)")
      ->envname("DIS_LOG")
      ->option_text("LEVEL")
      ->check(CLI::IsMember({"trace", "debug", "info", "warn", "error", "off"}));
}

}  // namespace dis
