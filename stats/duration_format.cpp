#include "duration_format.h"

#include <fmt/format.h>

#include <cmath>

namespace dis::cost {

std::string format_duration_ns(double ns) {
  if (!(ns > 0)) return "0 ns";  // also NaN
  // A mean over many executions is finer than the timer's step: a sub-10 ns
  // mean printed as an integer read "0 ns" for a share of a fused loop.
  if (std::round(ns * 10) < 100) return fmt::format("{:.1f} ns", ns);
  if (std::round(ns) < 1000) return fmt::format("{:.0f} ns", ns);
  double us = ns / 1e3;
  if (std::round(us * 100) < 100000) return fmt::format("{:.2f} us", us);
  double ms = ns / 1e6;
  if (std::round(ms * 100) < 100000) return fmt::format("{:.2f} ms", ms);
  return fmt::format("{:.2f} s", ns / 1e9);
}

}  // namespace dis::cost
