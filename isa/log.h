// The diagnostic log: what the loader, the verifier, the collector, the
// scheduler and the kernel processes do, written to stderr (or a stream a
// test gives) through spdlog at the level every tool takes as `--log LEVEL`
// or the DIS_LOG environment variable (log_option.h).
//
// Off by default. Every call site asks log_on(level) first, an inline
// relaxed load and compare, so when the log is off a call formats nothing
// and costs a predicted branch; no call sits on the interpreter's
// per-instruction path.
//
//   if (log_on(LogLevel::Debug)) log_write(LogLevel::Debug, "loader", "{}: ...", path);
//   log_debug("loader", "{}: {} instructions", path, n);  // the same, shorter
#pragma once

#include <fmt/format.h>

#include <atomic>
#include <iosfwd>
#include <string>
#include <string_view>

namespace dis {

// In increasing severity; a message shows when its level is at least the
// threshold. Off shows nothing.
enum class LogLevel : int { Trace, Debug, Info, Warn, Error, Off };

// "trace", "debug", "info", "warn", "error", "off" -> level; false otherwise.
bool parse_log_level(std::string_view name, LogLevel& level);
// The names parse_log_level takes, for help texts and errors.
inline constexpr const char* kLogLevelNames = "trace, debug, info, warn, error, off";

namespace detail {
inline std::atomic<int> log_threshold{static_cast<int>(LogLevel::Off)};
void log_line(LogLevel level, std::string_view component, std::string_view message);
}  // namespace detail

void set_log_level(LogLevel level);
// Where the log goes: `out` (kept, not owned, until the next call), or
// stderr when nullptr. Lines are "[level] component: message".
void set_log_stream(std::ostream* out);

inline bool log_on(LogLevel level) {
  return static_cast<int>(level) >= detail::log_threshold.load(std::memory_order_relaxed);
}

template <class... Args>
void log_write(LogLevel level, std::string_view component, fmt::format_string<Args...> f,
               Args&&... args) {
  if (log_on(level))
    detail::log_line(level, component, fmt::format(f, std::forward<Args>(args)...));
}
template <class... Args>
void log_debug(std::string_view component, fmt::format_string<Args...> f, Args&&... args) {
  log_write(LogLevel::Debug, component, f, std::forward<Args>(args)...);
}
template <class... Args>
void log_info(std::string_view component, fmt::format_string<Args...> f, Args&&... args) {
  log_write(LogLevel::Info, component, f, std::forward<Args>(args)...);
}
template <class... Args>
void log_warn(std::string_view component, fmt::format_string<Args...> f, Args&&... args) {
  log_write(LogLevel::Warn, component, f, std::forward<Args>(args)...);
}
template <class... Args>
void log_trace(std::string_view component, fmt::format_string<Args...> f, Args&&... args) {
  log_write(LogLevel::Trace, component, f, std::forward<Args>(args)...);
}

}  // namespace dis
