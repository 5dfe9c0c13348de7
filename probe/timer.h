// The timer behind per-instruction timing (DESIGN decision 6).
//
// Ticks come from the CPU timestamp counter when it is usable (x86-64 with
// the invariant-TSC cpuid flag, and RDTSCP for the fenced read), converted
// to ns by a calibration against CLOCK_MONOTONIC_RAW; otherwise from
// clock_gettime(MONOTONIC_RAW), whose ticks are ns. The choice is made once,
// on first use of timer(), and never changes afterwards.
//
// Two TSC reads are offered. `rdtsc` alone (the default: about 24 cycles
// here, 9 ns at 2.6 GHz) is not ordered with the code around it, so a few
// cycles of one instruction's work can be counted in its neighbour's
// interval, but chained intervals still sum exactly to the elapsed time and
// the base (measured through the same read) absorbs the read's cost.
// `rdtscp` + `lfence` (about 60 cycles, 23 ns) orders the read on both
// sides, for per-instruction figures that must not bleed into each other.
// DIS_TIMER=rdtscp selects it, DIS_TIMER=clock forces clock_gettime. The
// header of every report names the read and its measured cost.
//
// now_ticks() is the hot-path read: two predictable branches on the choice,
// then the read.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <ctime>
#include <string>

#include "timer_resolution.h"

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define DIS_HAVE_TSC 1
#else
#define DIS_HAVE_TSC 0
#endif

namespace dis::vm {

// clock_gettime(CLOCK_MONOTONIC_RAW) in ns: the fallback and the reference.
struct MonoClock {
  static std::uint64_t now() noexcept {
    timespec ts;
    clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
    return static_cast<std::uint64_t>(ts.tv_sec) * 1000000000u +
           static_cast<std::uint64_t>(ts.tv_nsec);
  }
};

// CPU time of the calling thread in ns (a system call: ~0.1-0.5 us).
inline std::uint64_t thread_cpu_ns() noexcept {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<std::uint64_t>(ts.tv_sec) * 1000000000u +
         static_cast<std::uint64_t>(ts.tv_nsec);
}

#if DIS_HAVE_TSC
// rdtscp then lfence. Timing is chained (one read ends an instruction and
// starts the next), so the read must be ordered on both sides: rdtscp does not
// execute until every earlier instruction has executed, so the work before it
// is inside the interval it closes; the lfence after it keeps later
// instructions from starting before the read, so they fall in the interval it
// opens. `lfence; rdtsc; lfence` orders the same with two fences; one
// rdtscp + lfence is cheaper and the cpuid check below guarantees RDTSCP.
struct TscClock {
  static std::uint64_t now() noexcept {
    unsigned aux;
    std::uint64_t t = __rdtscp(&aux);
    _mm_lfence();
    return t;
  }
};
#endif

// The read behind now_ticks().
enum class ClockRead : std::uint8_t { Monotonic, TscFenced, TscPlain };

namespace detail {
// Set once by timer(); Monotonic until then. Atomic (relaxed: a plain load
// on x86) so a thread reading it while another calibrates is no data race.
extern std::atomic<ClockRead> g_clock;
}  // namespace detail

// The names of the reads, as --timer and DIS_TIMER take them.
inline constexpr std::array<const char*, 3> kTimerReads{"rdtsc", "rdtscp", "clock"};
// "DIS_TIMER=x: expected ..." when DIS_TIMER names none of them (a tool
// refuses to run: silently timing with rdtsc would mislabel every figure),
// else "".
std::string timer_env_error();

// Call timer() first: reads taken before it are clock_gettime ns and must
// not be compared with later ones.
inline std::uint64_t now_ticks() noexcept {
#if DIS_HAVE_TSC
  const ClockRead c = detail::g_clock.load(std::memory_order_relaxed);
  if (c == ClockRead::TscPlain) return __rdtsc();
  if (c == ClockRead::TscFenced) return TscClock::now();
#endif
  return MonoClock::now();
}

// Statistics of back-to-back reads: the cost of one read, over `samples`
// batches of kReadBatch reads: the fastest batch's and the median batch's
// ticks per read (to a fraction of a tick), the same rounded, and in ns.
inline constexpr std::uint32_t kReadBatch = 256;
inline constexpr std::uint32_t kReadBatches = 1250;  // 320000 reads, 3-4 ms
struct ReadCost {
  double min = 0;
  double median = 0;
  std::uint64_t min_ticks = 0;
  std::uint64_t median_ticks = 0;
  double min_ns = 0;
  double median_ns = 0;
  std::uint32_t samples = 0;
};

struct TimerInfo {
  bool tsc = false;  // true: TSC ticks; false: clock_gettime ns
  ClockRead read_kind = ClockRead::Monotonic;
  std::string name;             // e.g. "tsc (rdtsc)"
  std::string fallback_reason;  // why the TSC is not used ("" when it is)
  double ticks_per_ns = 1.0;    // calibrated (1 for clock_gettime)
  std::uint32_t calibration_rounds = 0;
  double calibration_ms = 0;      // total time spent calibrating
  double calibration_spread = 0;  // (max - min) / median of the rounds' rates
  ReadCost read;                  // cost of one now_ticks() read
  TimerResolution resolution;     // the step its reads advance by
};

// The timer in use, calibrated on first call (about 30 ms; thread-safe).
// DIS_TIMER=clock in the environment forces the clock_gettime fallback,
// DIS_TIMER=rdtscp the fenced TSC read.
const TimerInfo& timer();
// True once timer() has calibrated (the count view never calls it).
bool timer_calibrated();

// A fresh calibration without changing the timer in use (read costs left
// zero): the TSC if allow_tsc and usable, else the clock_gettime fallback
// with fallback_reason saying why.
TimerInfo calibrate_timer(bool allow_tsc);

// What cpuid says of the timestamp counter.
struct TscFeatures {
  bool extended_leaves = false;  // leaf 0x80000007 exists
  bool tsc = false;              // rdtsc
  bool rdtscp = false;
  bool invariant = false;  // constant rate in every P-, C- and T-state
};
// This CPU's (all false where there is no x86 cpuid).
TscFeatures tsc_features();
// Why `read` cannot time with a TSC that has `f`, or "" when it can: rdtsc
// needs a TSC of invariant rate, the fenced read RDTSCP as well.
std::string tsc_refusal(const TscFeatures& f, ClockRead read);

inline double to_ns(std::uint64_t ticks) {
  return static_cast<double>(ticks) / timer().ticks_per_ns;
}
inline double to_ns(double ticks) { return ticks / timer().ticks_per_ns; }
inline double ticks_per_ns() { return timer().ticks_per_ns; }

// The amortized cost of one now_ticks() read, from `samples` batches of
// kReadBatch back-to-back reads.
ReadCost measure_read_cost(std::uint32_t samples = kReadBatches);

}  // namespace dis::vm
