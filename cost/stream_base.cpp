#include "stream_base.h"

#include <algorithm>
#include <array>
#include <cmath>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "compiler.h"
#include "interp.h"
#include "vm.h"

namespace dis::cost {

using vm::Fusion;
using vm::kNumFusions;

namespace {

// The streams: loops whose bodies are one kind of work each. The iteration
// count is the module's argument-free constant N (substituted below), so
// a round's instructions are known before it runs.
struct Stream {
  const char* name;
  const char* source;
};

constexpr Stream kStreams[] = {
    {"arith", R"(implement StreamArith;
StreamArith: module { init: fn(); };
init()
{
	a := 1; b := 2; c := 3; d := 4;
	for(i := 0; i < N; i++) {
		a = a + b;
		b = b ^ i;
		c = (c << 1) | (a & 7);
		d = d - c;
		if(d < a)
			d = a + 1;
		a = a * 3;
		b = b >> 2;
		c = c & 16rFFFF;
	}
}
)"},
    {"index", R"(implement StreamIndex;
StreamIndex: module { init: fn(); };
init()
{
	t := array[64] of int;
	s := "a stream of characters";
	x := 0;
	for(i := 0; i < N; i++) {
		x += t[i & 63];
		t[x & 63] = i;
		x += s[i & 15];
		x += len s + len t;
	}
}
)"},
    {"memory", R"(implement StreamMemory;
StreamMemory: module { init: fn(); };
P: adt { x, y: int; };
init()
{
	l: list of int;
	p := ref P(1, 2);
	q := p;
	x := 0;
	for(i := 0; i < N; i++) {
		q = p;
		p = q;
		l = x :: l;
		x += hd l;
		l = tl l;
		x ^= i;
	}
}
)"},
    {"real", R"(implement StreamReal;
StreamReal: module { init: fn(); };
init()
{
	x := 1.0; y := 0.5; z := 0.25;
	for(i := 0; i < N; i++) {
		x = x * 0.999 + y;
		y = y - z * 0.5;
		z = z + 0.125;
		if(z > 4.0)
			z = 0.25;
		x = x / 1.5;
		y = real (i & 7) + y * 0.5;
	}
}
)"},
    // Two statements each: a function whose body is one return is
    // inlined at its calls (as Inferno's compiler does), and this stream
    // then had no call in it at all.
    {"call", R"(implement StreamCall;
StreamCall: module { init: fn(); };
one(x: int): int
{
	x++;
	return x;
}
two(a, b: int): int
{
	x := one(a);
	return x ^ b;
}
init()
{
	s := 0;
	for(i := 0; i < N; i++)
		s = two(s, i) & 16rFFFF;
}
)"},
    // The shapes the decoder fuses (decode.cpp kFusedPairs, kLoopBacks),
    // each with a bound in a frame word, as the loop-back triple needs;
    // inc is called (lea, call), not inlined (see the call stream).
    {"pair", R"(implement StreamPair;
StreamPair: module { init: fn(); };
inc(x: int): int
{
	x++;
	return x;
}
init()
{
	t := array[64] of int;
	m := 3;
	l := 8;
	s := 0;
	for(i := 0; i < N; i++) {
		for(j := 0; j < m; j++)
			s += j;
		for(k := 1; k <= l; k += k)
			s ^= k;
		t[i & 63] = 1;
		if(t[s & 63] == 0)
			s++;
		s = inc(s) & 16rFFFF;
	}
}
)"},
    // Array fills (indw_FFF_movw_loop): stride one and a stride in a frame
    // word, long and short. The outer loop steps by 64, so the stream is
    // about as long as the others.
    {"fill", R"(implement StreamFill;
StreamFill: module { init: fn(); };
init()
{
	t := array[256] of int;
	n := 255;
	for(i := 0; i < N; i += 64) {
		for(j := 0; j <= n; j++)
			t[j] = 0;
		s := (i & 7) + 1;
		for(k := s; k <= n; k += s)
			t[k] = 1;
	}
}
)"},
    // Array scans (indw_FFF_beqw_scan): runs of 16 zeros ended by a one
    // (about the gaps between primes in a sieve), and short scans that stop
    // at once.
    {"scan", R"(implement StreamScan;
StreamScan: module { init: fn(); };
init()
{
	t := array[256] of int;
	n := 255;
	for(k := 0; k <= n; k += 16)
		t[k] = 1;
	c := 0;
	for(i := 0; i < N; i += 64) {
		for(j := 0; j <= n; j++)
			if(t[j] != 0)
				c++;
		m := (i & 7) + 1;
		for(j = 0; j <= m; j++)
			if(t[j] != 0)
				c--;
	}
}
)"},
    // Short counted loops, the bound in a frame word (so the loop-back
    // triple fuses). The probe adds less per instruction to a loop of five
    // than to the longer bodies above (about 26.3 ticks against the arith
    // stream's 27.0 here): without this stream a short loop's base came out
    // a tick high (loop's cpu_ratio 0.61 median of six, 0.74 with it).
    {"short", R"(implement StreamShort;
StreamShort: module { init: fn(); };
init()
{
	m := 8;
	s := 0;
	for(i := 0; i < N; i += 8)
		for(j := 0; j < m; j++)
			s = (s + j) ^ i;
}
)"},
    // Builtin calls (math->sqrt): the mcall's frame, argument and call, and
    // what the timed view's wrapper around every builtin leaves in the
    // mcall, which no class base holds (about 45 ticks per call here).
    {"builtin", R"(implement StreamBuiltin;
include "math.m";
	math: Math;
StreamBuiltin: module { init: fn(); };
init()
{
	math = load Math Math->PATH;
	x := 0.0;
	for(i := 0; i < N; i++)
		x = math->sqrt(x + 2.0);
}
)"},
    // Calls and returns by recursion rather than a loop: the call class
    // with little loop fusion around it (the call stream's calls sit in a
    // fused loop, which couples the two unknowns).
    {"recurse", R"(implement StreamRecurse;
StreamRecurse: module { init: fn(); };
down(n, s: int): int
{
	if(n <= 0)
		return s;
	return down(n - 1, s ^ n) + 1;
}
init()
{
	s := 0;
	for(i := 0; i < N; i += 16)
		s = down(16, s) & 16rFFFF;
}
)"},
};

// The unknowns: one base per cost class, then what a fused pair's
// instructions add to theirs and what one run of an array loop costs (the
// timed view runs those fused, one interval each; Fusion::None adds
// nothing, so it is no unknown), then what each builtin call adds to its
// mcall.
constexpr std::size_t kUnknowns = kNumCostClasses + kNumFusions;
std::size_t fusion_unknown(Fusion f) { return kNumCostClasses + static_cast<std::size_t>(f) - 1; }
constexpr std::size_t kBuiltinUnknown = kUnknowns - 1;

// The instructions of one stream run, about: long enough that each timed
// run holds several scheduler slices, short enough that a round is a few
// milliseconds (a preemption then spoils few rounds; the median drops them).
constexpr int kIterations = 4000;

struct Run {
  double ticks = 0;
  std::uint64_t instructions = 0;
  // Timed runs: executions per unknown (cost classes and fused pairs:
  // executions timed alone; array loops: runs; builtin calls).
  std::array<double, kUnknowns> by_class{};
};

Run run_plain_stream(const Module& m) {
  // The VM's setup and the scheduler between slices are outside, as they
  // are outside the timed run's instruction records.
  vm::VM machine;
  vm::PlainSliceTimer plain(machine);
  machine.run_module(m, "stream.b", {"stream"});
  Run r;
  r.ticks = static_cast<double>(plain.ticks());
  r.instructions = plain.instructions();
  return r;
}

// The raw ticks of the instruction records (preempted and interrupted
// intervals already moved to their buckets by the recorder).
Run run_timed_stream(const Module& m, vm::ProbeMode mode, bool calls) {
  vm::VM machine;
  vm::CostRecorder rec(mode, vm::Base{}, 1);
  rec.track_calls(calls);
  rec.install(machine);
  machine.run_module(m, "stream.b", {"stream"});
  rec.finish();
  Run r;
  for (const vm::ProgramRecords& pr : rec.programs()) {
    const std::vector<Fusion> fusion = vm::plain_fusion(*pr.program);
    for (std::size_t pc = 0; pc < pr.records.size() && pc < pr.program->mod.code.size(); ++pc) {
      const vm::ProbeRecord& x = pr.records[pc];
      const auto n = static_cast<double>(x.single_count());
      r.ticks += x.total_estimate();
      r.instructions += x.count;
      r.by_class[static_cast<std::size_t>(cost_class(pr.program->mod.code[pc].op))] += n;
      // An array loop's pc timed alone runs as the plain pair (Base::exact_for).
      if (fusion[pc] != Fusion::None) r.by_class[fusion_unknown(Fusion::Pair)] += n;
      if (fusion[pc] == Fusion::Fill || fusion[pc] == Fusion::Scan)
        r.by_class[fusion_unknown(fusion[pc])] += x.bulk_runs;
    }
  }
  for (const auto& [name, b] : rec.builtins())
    r.by_class[kBuiltinUnknown] += static_cast<double>(b.count);
  return r;
}

// Solves a x = b for square a (Gaussian elimination, partial pivoting);
// false when a is singular.
template <std::size_t N>
bool solve(std::array<std::array<double, N>, N> a, std::array<double, N> b,
           std::array<double, N>& x) {
  for (std::size_t c = 0; c < N; ++c) {
    std::size_t piv = c;
    for (std::size_t r = c + 1; r < N; ++r)
      if (std::abs(a[r][c]) > std::abs(a[piv][c])) piv = r;
    if (std::abs(a[piv][c]) < 1e-9) return false;
    std::swap(a[c], a[piv]);
    std::swap(b[c], b[piv]);
    for (std::size_t r = c + 1; r < N; ++r) {
      const double f = a[r][c] / a[c][c];
      for (std::size_t k = c; k < N; ++k) a[r][k] -= f * a[c][k];
      b[r] -= f * b[c];
    }
  }
  for (std::size_t c = N; c-- > 0;) {
    double v = b[c];
    for (std::size_t k = c + 1; k < N; ++k) v -= a[c][k] * x[k];
    x[c] = v / a[c][c];
  }
  return true;
}

// Least squares over more equations than unknowns: the normal equations
// (a^T a) x = a^T b. Each row is one stream per instruction, so every
// stream weighs alike.
template <std::size_t M, std::size_t N>
bool least_squares(const std::array<std::array<double, N>, M>& a, const std::array<double, M>& b,
                   std::array<double, N>& x) {
  std::array<std::array<double, N>, N> ata{};
  std::array<double, N> atb{};
  for (std::size_t r = 0; r < M; ++r)
    for (std::size_t i = 0; i < N; ++i) {
      atb[i] += a[r][i] * b[r];
      for (std::size_t j = 0; j < N; ++j) ata[i][j] += a[r][i] * a[r][j];
    }
  return solve(ata, atb, x);
}

// The q-quantile of v, interpolated between order statistics (0 if empty).
double quantile(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const double at = q * static_cast<double>(v.size() - 1);
  const auto i = static_cast<std::size_t>(at);
  const double frac = at - static_cast<double>(i);
  return i + 1 < v.size() ? v[i] + frac * (v[i + 1] - v[i]) : v[i];
}

// The middle value, or the mean of the two middle values.
double median(std::vector<double> v) { return quantile(std::move(v), 0.5); }

// Standard error of the median of `v`: 1.2533 sigma / sqrt(n) for a normal
// sample, sigma estimated as IQR / 1.349.
double median_standard_error(const std::vector<double>& v) {
  if (v.size() < 4) return 0;
  const double sigma = (quantile(v, 0.75) - quantile(v, 0.25)) / 1.349;
  return 1.2533 * sigma / std::sqrt(static_cast<double>(v.size()));
}

// The rounds beside the run: each the median of itself and its neighbours
// in time, averaged with `weights`; 0 when nothing weighs.
double weighed_rounds(const std::vector<double>& rounds, const std::vector<double>& weights) {
  double sum = 0, weight = 0;
  for (std::size_t k = 0; k < rounds.size() && k < weights.size(); ++k) {
    if (weights[k] <= 0) continue;
    const std::size_t lo = k > 0 ? k - 1 : 0, hi = std::min(rounds.size(), k + 2);
    sum +=
        weights[k] * median(std::vector<double>(rounds.begin() + static_cast<std::ptrdiff_t>(lo),
                                                rounds.begin() + static_cast<std::ptrdiff_t>(hi)));
    weight += weights[k];
  }
  return weight > 0 && sum > 0 ? sum / weight : 0;
}

}  // namespace

StreamCalibration::StreamCalibration(vm::ProbeMode mode, bool calls)
    : mode_(mode == vm::ProbeMode::Sampled ? mode : vm::ProbeMode::Time), calls_(calls) {
  (void)vm::timer();
#ifdef __GLIBC__
  // Each stream run builds a VM and a recorder. Memory fresh from the
  // kernel faults on first touch, inside a timed instruction (microseconds
  // under a hypervisor), and whether it is fresh depends on glibc's adaptive
  // mmap and trim thresholds: the base moved by up to a third from one
  // calibration to the next. Freed memory is kept for reuse instead, from
  // here on (the costed run and the plain runs it is compared with alike).
  mallopt(M_MMAP_THRESHOLD, 64 << 20);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
#endif
  const std::uint64_t t0 = vm::MonoClock::now();
  for (const Stream& s : kStreams) {
    std::string text = s.source;
    const std::string n = std::to_string(kIterations);
    for (std::size_t at; (at = text.find("< N;")) != std::string::npos;) text.replace(at + 2, 1, n);
    modules_.push_back(limbo::compile_source(std::string("stream-") + s.name + ".b", text, {}));
  }
  extra_.resize(std::size(kStreams));
  instructions_of_.assign(std::size(kStreams), 0);
  mix_.assign(std::size(kStreams), std::vector<double>(kUnknowns));
  // A round that is not kept: it takes the memory the rounds will reuse.
  for (const Module& m : modules_) {
    (void)run_timed_stream(m, mode_, calls_);
    (void)run_plain_stream(m);
  }
  ms_ += static_cast<double>(vm::MonoClock::now() - t0) / 1e6;
}

void StreamCalibration::round() {
  const std::uint64_t t0 = vm::MonoClock::now();
  const std::size_t r = rounds_.size();
  double plain = 0, raw = 0;
  std::uint64_t instructions = 0;
  for (std::size_t i = 0; i < modules_.size(); ++i) {
    // Alternate which goes first, so a drift in the clock rate or in the
    // host's load falls on both alike.
    Run p, t;
    if (r % 2) {
      p = run_plain_stream(modules_[i]);
      t = run_timed_stream(modules_[i], mode_, calls_);
    } else {
      t = run_timed_stream(modules_[i], mode_, calls_);
      p = run_plain_stream(modules_[i]);
    }
    plain += p.ticks;
    raw += t.ticks;
    instructions += t.instructions;
    extra_[i].push_back(t.ticks - p.ticks);
    // The same every round: the streams are deterministic.
    std::copy(t.by_class.begin(), t.by_class.end(), mix_[i].begin());
    instructions_of_[i] = static_cast<double>(t.instructions);
  }
  instructions_ = instructions;
  weights_.push_back(0);
  plain_.push_back(instructions > 0 ? plain / static_cast<double>(instructions) : 0);
  rounds_.push_back(instructions > 0 ? (raw - plain) / static_cast<double>(instructions) : 0);
  const double ms = static_cast<double>(vm::MonoClock::now() - t0) / 1e6;
  ms_ += ms;
  round_ms_ = round_ms_ == 0 ? ms : std::min(round_ms_, ms);
}

void StreamCalibration::begin_run() {
  run_prev_ = rounds_.empty() ? kNoRound : rounds_.size() - 1;
  run_done_ = 0;
}

void StreamCalibration::round_in_run(std::uint64_t executed) {
  const auto n = static_cast<double>(executed - run_done_);
  const std::size_t k = rounds_.size();
  round();
  ++run_rounds_;
  // The stretch ran between the round before it and this one: half each.
  if (run_prev_ != kNoRound) {
    weights_[run_prev_] += n / 2;
    weights_[k] += n / 2;
  } else {
    weights_[k] += n;
  }
  run_prev_ = k;
  run_done_ = executed;
}

void StreamCalibration::end_run(std::uint64_t executed) {
  // The last stretch has only the round before it.
  if (run_prev_ != kNoRound) weights_[run_prev_] += static_cast<double>(executed - run_done_);
  run_done_ = executed;
}

void StreamCalibration::top_up(std::size_t total) {
  while (rounds_.size() < total) {
    round();
    ++after_rounds_;
  }
}

double StreamCalibration::plain_gauge() const {
  double ticks = 0, instructions = 0;
  for (const Module& m : modules_) {
    const Run p = run_plain_stream(m);
    ticks += p.ticks;
    instructions += static_cast<double>(p.instructions);
  }
  return instructions > 0 ? ticks / instructions : 0;
}

double StreamCalibration::run_plain_ticks() const {
  if (plain_.empty()) return 0;
  if (const double beside = weighed_rounds(plain_, weights_); beside > 0) return beside;
  const std::size_t from = plain_.size() > kMinRunRounds ? plain_.size() - kMinRunRounds : 0;
  return median(
      std::vector<double>(plain_.begin() + static_cast<std::ptrdiff_t>(from), plain_.end()));
}

std::vector<StreamCalibration::Mix> StreamCalibration::mixes() const {
  std::vector<Mix> out;
  for (std::size_t i = 0; i < std::size(kStreams); ++i) {
    Mix m;
    m.name = kStreams[i].name;
    std::copy_n(mix_[i].begin(), kNumCostClasses, m.classes.begin());
    for (std::size_t f = 1; f < vm::kNumFusions; ++f)
      m.fusions[f] = mix_[i][fusion_unknown(static_cast<Fusion>(f))];
    m.builtins = mix_[i][kBuiltinUnknown];
    out.push_back(m);
  }
  return out;
}

double StreamCalibration::weighed_instructions() const {
  double n = 0;
  for (double w : weights_) n += w;
  return n;
}

double stream_level(const std::vector<double>& rounds, const std::vector<double>& weights,
                    double median_ticks) {
  const double beside = weighed_rounds(rounds, weights);
  return median_ticks > 0 && beside > 0 ? beside / median_ticks : 1.0;
}

void StreamCalibration::fit(vm::Base& base) const {
  // The rounds the base rests on: the run's own when there are enough of
  // them (the host then was the run's host), else all.
  // (Rounds topped up after the runs are not the run's own: with them
  // there are fewer than kMinRunRounds of those.)
  const std::size_t from = run_rounds_ >= kMinRunRounds ? from_mark_ : 0;
  const std::vector<double> rounds(rounds_.begin() + static_cast<std::ptrdiff_t>(from),
                                   rounds_.end());
  constexpr std::size_t kS = std::size(kStreams);
  static_assert(kS > kUnknowns, "more streams than unknowns: the fit leaves residuals");
  // The shape (a base per class) rests on medians over many rounds; the
  // level on the rounds beside the run's instructions, once rounds ran
  // during a run. A host whose speed drifts within the run (a neighbour's
  // load comes and goes) then costs each stretch of the run what the probe
  // cost at that time, not in the middle round. Replayed on the same twelve
  // runs of a host whose rounds spread from 28 to 45 ticks: sieve's
  // cpu_ratio 0.32-1.90 (8 of 12 within 50%) became 0.82-1.95 (11 of 12),
  // loop's 0.40-1.44 (8) became 0.54-1.14 (12), and fib's 0.23-2.29 (7)
  // became 0.74-1.41 (12).
  const double middle = median(rounds);
  const double level = run_rounds_ > 0 ? stream_level(rounds_, weights_, middle) : 1.0;
  base.stream_level = level;
  base.stream_ticks = std::max(0.0, middle) * level;
  base.stream_se_ticks = median_standard_error(rounds) * level;
  // Each stream's extra ticks are the sum over its classes of executions x
  // that class's base, plus over its fused instructions of executions x
  // what their kind adds: one equation per stream, more equations than
  // unknowns.
  std::array<double, kS> rhs{};
  std::array<std::array<double, kUnknowns>, kS> rows{};
  for (std::size_t i = 0; i < kS; ++i) {
    // Per instruction of the stream.
    const double n = instructions_of_[i];
    const std::vector<double> extra(extra_[i].begin() + static_cast<std::ptrdiff_t>(from),
                                    extra_[i].end());
    rhs[i] = n > 0 ? median(extra) / n : 0;
    for (std::size_t u = 0; u < kUnknowns; ++u) rows[i][u] = n > 0 ? mix_[i][u] / n : 0;
  }
  std::array<double, kUnknowns> per{};
  const bool solved = least_squares(rows, rhs, per);
  std::array<double, kS> fit{};  // each stream's ticks per instruction as fitted
  double sq = 0;
  for (std::size_t i = 0; i < kS; ++i) {
    for (std::size_t u = 0; u < kUnknowns; ++u) fit[i] += rows[i][u] * per[u];
    sq += (fit[i] - rhs[i]) * (fit[i] - rhs[i]);
  }
  const double residual = std::sqrt(sq / static_cast<double>(kS));
  for (std::size_t c = 0; c < kNumCostClasses; ++c)
    base.stream_class_ticks[c] =
        solved && std::isfinite(per[c]) && per[c] > 0 ? per[c] * level : base.stream_ticks;
  base.stream_fusion_ticks = {};
  for (std::size_t f = 1; f < kNumFusions; ++f) {
    const double x = per[fusion_unknown(static_cast<Fusion>(f))];
    base.stream_fusion_ticks[f] = solved && std::isfinite(x) ? x * level : 0;
  }
  const double builtin = per[kBuiltinUnknown];
  base.stream_builtin_ticks = solved && std::isfinite(builtin) && builtin > 0 ? builtin * level : 0;
  if (std::getenv("DIS_STREAM_DEBUG")) {
    for (std::size_t i = 0; i < kS; ++i) {
      std::fprintf(stderr, "stream %s: %.2f ticks per instruction (fit %.2f); mix",
                   kStreams[i].name, rhs[i], fit[i]);
      for (double x : rows[i]) std::fprintf(stderr, " %.2f", x);
      std::fprintf(stderr, "\n");
    }
    std::fprintf(stderr, "unknowns:");
    for (double x : per) std::fprintf(stderr, " %.2f", x);
    std::fprintf(stderr, "; residual %.3f\n", residual);
    std::fprintf(stderr,
                 "rounds: %zu in all, %zu of them the run's; the base rests on %zu; level %.4f\n",
                 rounds_.size(), run_rounds_, rounds.size(), level);
  }
  base.stream_streams = static_cast<std::uint32_t>(kS);
  base.stream_residual_ticks = solved ? residual : 0;
  base.stream_rounds = static_cast<std::uint32_t>(rounds.size());
  base.stream_run_rounds = static_cast<std::uint32_t>(run_rounds_);
  base.stream_after_rounds = static_cast<std::uint32_t>(after_rounds_);
  base.stream_instructions = instructions_;
  base.stream_spread_ticks = rounds.empty() ? 0
                                            : *std::max_element(rounds.begin(), rounds.end()) -
                                                  *std::min_element(rounds.begin(), rounds.end());
  base.stream_ms = ms_;
  if (base.policy == vm::BasePolicy::Stream) {
    base.ticks = base.ticks_for(vm::BasePolicy::Stream);
    base.ns = vm::to_ns(base.ticks);
  }
}

}  // namespace dis::cost
