// The clock a thread's slices are timed with, for /prog/N/status's time
// (Prog::cpu_ns). Linux's coarse monotonic clock: it advances a tick at a
// time (a few ms) but costs a tenth of steady_clock under a hypervisor
// (11 ns against 95 here), and two reads per slice were most of a thread
// switch on a channel (perf/LOG.md). A slice's time is then 0 or a tick,
// right on average over many slices, which is what a status line in
// milliseconds shows.
#pragma once

#include <chrono>
#include <cstdint>
#include <ctime>

namespace dis::vm {

inline std::int64_t slice_clock_ns() noexcept {
#ifdef CLOCK_MONOTONIC_COARSE
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
  return std::int64_t{ts.tv_sec} * 1000000000 + ts.tv_nsec;
#else
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
#endif
}

}  // namespace dis::vm
