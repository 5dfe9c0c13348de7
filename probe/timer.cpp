#include "timer.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <vector>

#if DIS_HAVE_TSC
#include <cpuid.h>
#endif

namespace dis::vm {

namespace detail {
std::atomic<ClockRead> g_clock{ClockRead::Monotonic};
}

std::string timer_env_error() {
  const char* v = std::getenv("DIS_TIMER");
  if (!v) return "";
  std::string names;
  for (std::size_t i = 0; i < kTimerReads.size(); ++i) {
    if (std::strcmp(v, kTimerReads[i]) == 0) return "";
    names += i == 0 ? "" : i + 1 == kTimerReads.size() ? " or " : ", ";
    names += kTimerReads[i];
  }
  return std::string("DIS_TIMER=") + v + ": expected " + names;
}

namespace {
std::atomic<bool> g_calibrated{false};
std::atomic<std::uint64_t> g_sink{0};  // keeps measured reads alive

// The TSC read DIS_TIMER asks for: the fenced one for "rdtscp", else rdtsc.
ClockRead tsc_read_choice() {
  const char* v = std::getenv("DIS_TIMER");
  return v && std::strcmp(v, "rdtscp") == 0 ? ClockRead::TscFenced : ClockRead::TscPlain;
}
}  // namespace

namespace {

template <class T>
T median_of(std::vector<T> v) {
  if (v.empty()) return T{};
  auto mid = v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2);
  std::nth_element(v.begin(), mid, v.end());
  return *mid;
}

}  // namespace

std::string tsc_refusal(const TscFeatures& f, ClockRead read) {
  if (!f.extended_leaves) return "cpuid has no leaf 0x80000007";
  if (!f.tsc) return "no TSC";
  // Only the fenced read needs RDTSCP: some hypervisors (bhyve) hide it
  // while rdtsc itself works at full speed.
  if (read == ClockRead::TscFenced && !f.rdtscp)
    return "no RDTSCP (the fenced read, --timer rdtscp, needs it)";
  // Invariant TSC: constant rate across P-, C- and T-states. Without it the
  // counter's rate changes with frequency scaling and ticks are not time.
  if (!f.invariant) return "no invariant TSC";
  return "";
}

TscFeatures tsc_features() {
  TscFeatures f;
#if DIS_HAVE_TSC
  unsigned a, b, c, d;
  f.extended_leaves = __get_cpuid(0x80000000u, &a, &b, &c, &d) && a >= 0x80000007u;
  if (__get_cpuid(1u, &a, &b, &c, &d)) f.tsc = (d & (1u << 4)) != 0;
  if (f.extended_leaves) {
    __get_cpuid(0x80000001u, &a, &b, &c, &d);
    f.rdtscp = (d & (1u << 27)) != 0;
    __get_cpuid(0x80000007u, &a, &b, &c, &d);
    f.invariant = (d & (1u << 8)) != 0;
  }
#endif
  return f;
}

namespace {

// Why the TSC cannot be used, or "" when it can. DIS_TIMER=clock forces the
// fallback (for comparison runs and for machines whose TSC is known bad).
std::string tsc_refusal() {
  if (const char* forced = std::getenv("DIS_TIMER"); forced && std::strcmp(forced, "clock") == 0)
    return "the clock was asked for (--timer clock, DIS_TIMER=clock)";
#if DIS_HAVE_TSC
  const TscFeatures f = tsc_features();
  return tsc_refusal(f, tsc_read_choice());
#else
  return "not x86";
#endif
}

#if DIS_HAVE_TSC
// One (tsc, mono) pair with the TSC read bracketing the clock read; of a few
// attempts the narrowest bracket wins, so a preemption in between is dropped.
struct Pair {
  double tsc;
  std::uint64_t mono;
};

Pair read_pair() {
  Pair best{0, 0};
  std::uint64_t best_width = ~std::uint64_t{0};
  for (int i = 0; i < 7; ++i) {
    std::uint64_t t0 = TscClock::now();
    std::uint64_t m = MonoClock::now();
    std::uint64_t t1 = TscClock::now();
    if (t1 - t0 < best_width) {
      best_width = t1 - t0;
      best = {static_cast<double>(t0) + static_cast<double>(t1 - t0) / 2, m};
    }
  }
  return best;
}
#endif

}  // namespace

TimerInfo calibrate_timer(bool allow_tsc) {
  TimerInfo info;
  std::string refusal = allow_tsc ? tsc_refusal() : std::string("TSC not allowed");
#if DIS_HAVE_TSC
  if (refusal.empty()) {
    // Several short rounds; the median rate is robust to a round that was
    // preempted or migrated. A clock_gettime read costs ~20 ns, so a 1 ms
    // round already fixes the rate to ~2e-5; longer rounds only delayed
    // every timed run's start (28 ms, 5% of a one-second program).
    constexpr int kRounds = 7;
    constexpr std::uint64_t kRoundNs = 1'000'000;
    std::uint64_t start = MonoClock::now();
    std::vector<double> rates;
    for (int r = 0; r < kRounds; ++r) {
      Pair p0 = read_pair();
      while (MonoClock::now() - p0.mono < kRoundNs) {
      }
      Pair p1 = read_pair();
      if (p1.mono > p0.mono && p1.tsc > p0.tsc)
        rates.push_back((p1.tsc - p0.tsc) / static_cast<double>(p1.mono - p0.mono));
    }
    info.calibration_ms = static_cast<double>(MonoClock::now() - start) / 1e6;
    std::sort(rates.begin(), rates.end());
    if (!rates.empty() && rates[rates.size() / 2] > 0) {
      double med = rates[rates.size() / 2];
      info.tsc = true;
      info.read_kind = tsc_read_choice();
      info.name = info.read_kind == ClockRead::TscFenced ? "tsc (rdtscp+lfence)" : "tsc (rdtsc)";
      info.ticks_per_ns = med;
      info.calibration_rounds = static_cast<std::uint32_t>(rates.size());
      info.calibration_spread = (rates.back() - rates.front()) / med;
      return info;
    }
    refusal = "calibration failed";
  }
#endif
  info.tsc = false;
  info.name = "clock_gettime(CLOCK_MONOTONIC_RAW)";
  info.fallback_reason = refusal;
  info.ticks_per_ns = 1.0;
  return info;
}

namespace {

// The cost of one read in a stream of reads (what chained timing pays per
// instruction): `samples` batches of kReadBatch back-to-back reads, ticks
// per read. An unordered rdtsc can overlap its neighbour, so a single pair
// could show 0; the batch gives the amortized cost. The batch is long
// because the counter can advance in steps (21 ticks on an AMD EPYC under
// bhyve): a batch's length is then only known to a step, and over 16 reads
// that made reads of 22 ticks show 21 in the fastest batch. Over 256 the
// error is under 0.1 tick. The timer must be chosen.
ReadCost raw_read_cost(std::uint32_t samples) {
  std::vector<double> d(samples);
  std::uint64_t sink = 0;
  for (auto& x : d) {
    std::uint64_t t0 = now_ticks();
    for (std::uint32_t k = 1; k < kReadBatch; ++k) sink += now_ticks();
    std::uint64_t t1 = now_ticks();
    x = static_cast<double>(t1 - t0) / kReadBatch;
  }
  g_sink.fetch_add(sink, std::memory_order_relaxed);
  ReadCost rc;
  if (d.empty()) return rc;
  rc.samples = samples;
  rc.min = *std::min_element(d.begin(), d.end());
  rc.median = median_of(std::move(d));
  rc.min_ticks = static_cast<std::uint64_t>(std::llround(rc.min));
  rc.median_ticks = static_cast<std::uint64_t>(std::llround(rc.median));
  return rc;
}

void fill_ns(ReadCost& rc, double ticks_per_ns) {
  rc.min_ns = rc.min / ticks_per_ns;
  rc.median_ns = rc.median / ticks_per_ns;
}

}  // namespace

const TimerInfo& timer() {
  static const TimerInfo info = [] {
    TimerInfo i = calibrate_timer(true);
    detail::g_clock.store(i.read_kind, std::memory_order_relaxed);
    i.read = raw_read_cost(kReadBatches);
    fill_ns(i.read, i.ticks_per_ns);
    i.resolution = measure_resolution();
    g_calibrated.store(true, std::memory_order_relaxed);
    return i;
  }();
  return info;
}

bool timer_calibrated() { return g_calibrated.load(std::memory_order_relaxed); }

ReadCost measure_read_cost(std::uint32_t samples) {
  const TimerInfo& t = timer();
  ReadCost rc = raw_read_cost(samples);
  fill_ns(rc, t.ticks_per_ns);
  return rc;
}

}  // namespace dis::vm
