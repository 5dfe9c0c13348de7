// The environment header every measurement carries (DESIGN Conventions):
// what the numbers were measured on. Collected once per run; rendered as
// text lines (for report headers) and as a JSON object.
//
// Contract: collect_environment() never throws for a missing /proc file or
// cpuid leaf; unknown fields are "unknown" (text) or empty. tsc_hz is the
// calibrated TSC rate, 0 when the timer is not the TSC.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

namespace dis::vm {

struct Environment {
  std::string cpu_model;   // /proc/cpuinfo "model name" (or the arch's equivalent)
  unsigned cpus = 0;       // logical CPUs online
  double tsc_hz = 0;       // calibrated TSC frequency, 0 if the TSC is not used
  std::string timer;       // TimerInfo::name
  std::string hypervisor;  // "" on bare metal; "KVM", "Hyper-V", ... or the cpuid vendor
  std::string kernel;      // uname: sysname release machine
  std::string build_type;  // CMake build type of this binary
  std::string compiler;    // e.g. "GCC 12.2.0"
  std::string version;     // project version
  std::string date;        // UTC, ISO-8601: 2026-11-30T00:14:55Z
  std::string command_line;
};

// Fills every field; calibrates the timer if it has not been yet, unless
// `with_timer` is false (a run that reads no clock: the count view), when
// the timer is named as not read. `argv` is the tool's command line.
Environment collect_environment(const std::vector<std::string>& argv, bool with_timer = true);

// Shell-quoted, space-separated (single quotes where a word needs them).
std::string quote_command_line(const std::vector<std::string>& argv);

// (label, value) pairs in display order: cpu, cpus, tsc, timer, hypervisor,
// kernel, build, compiler, version, date, command.
std::vector<std::pair<std::string, std::string>> environment_fields(const Environment& env);
// One "PREFIXlabel: value" line per field, each ending in '\n'.
std::string environment_text(const Environment& env, const std::string& prefix = "");
// Keys: cpu, cpus, tsc_hz, timer, hypervisor (null on bare metal), kernel,
// build_type, compiler, version, date, command.
nlohmann::json environment_json(const Environment& env);

}  // namespace dis::vm
