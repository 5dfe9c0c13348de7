#include "log.h"

#include <spdlog/logger.h>
#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/sinks/stdout_sinks.h>

#include <array>
#include <memory>
#include <mutex>

namespace dis {

namespace {

constexpr std::array<std::string_view, 6> kNames = {"trace", "debug", "info",
                                                    "warn",  "error", "off"};

spdlog::level::level_enum spdlog_level(LogLevel level) {
  switch (level) {
    case LogLevel::Trace:
      return spdlog::level::trace;
    case LogLevel::Debug:
      return spdlog::level::debug;
    case LogLevel::Info:
      return spdlog::level::info;
    case LogLevel::Warn:
      return spdlog::level::warn;
    case LogLevel::Error:
      return spdlog::level::err;
    case LogLevel::Off:
      break;
  }
  return spdlog::level::off;
}

// The logger, made on first use and remade when the stream changes; the
// mutex orders a change against the kernel processes' writes.
struct Log {
  std::mutex mu;
  std::shared_ptr<spdlog::logger> logger;
  std::ostream* out = nullptr;

  spdlog::logger& get() {
    if (!logger) {
      spdlog::sink_ptr sink;
      if (out)
        sink = std::make_shared<spdlog::sinks::ostream_sink_st>(*out, /*force_flush=*/true);
      else
        sink = std::make_shared<spdlog::sinks::stderr_sink_st>();
      logger = std::make_shared<spdlog::logger>("dis", std::move(sink));
      logger->set_pattern("[%l] %v");
      logger->set_level(spdlog::level::trace);  // the threshold is ours (log_on)
    }
    return *logger;
  }
};

Log& the_log() {
  static Log log;
  return log;
}

}  // namespace

bool parse_log_level(std::string_view name, LogLevel& level) {
  for (std::size_t i = 0; i < kNames.size(); ++i)
    if (name == kNames[i]) {
      level = static_cast<LogLevel>(i);
      return true;
    }
  return false;
}

void set_log_level(LogLevel level) {
  detail::log_threshold.store(static_cast<int>(level), std::memory_order_relaxed);
}

void set_log_stream(std::ostream* out) {
  Log& log = the_log();
  std::lock_guard lk(log.mu);
  log.out = out;
  log.logger.reset();
}

void detail::log_line(LogLevel level, std::string_view component, std::string_view message) {
  Log& log = the_log();
  std::lock_guard lk(log.mu);
  log.get().log(spdlog_level(level), "{}: {}", component, message);
}

}  // namespace dis
