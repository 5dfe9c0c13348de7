// Inferno's floating-point traps and modes (Math->FPcontrol, math.m's bits).
// Each Dis thread has a control word (which IEEE exceptions trap, and the
// rounding) and a sticky status; a spawned thread starts with its parent's.
// A trap raises "sys: fp: exception", the text of Inferno's host trap.
//
// The real-arithmetic handlers keep their fast path: a result that is a
// normal, finite, nonzero number raised no exception but inexact, so only
// other results (zero, subnormal, infinite, NaN) go to fp_arith_slow, which
// redoes the operation under the host's exception flags. Not modelled:
// inexact (neither recorded nor trapped: it would cost every operation).
#pragma once

#include <bit>
#include <cfloat>
#include <cmath>
#include <cstdint>

namespace dis::vm {

struct Prog;

inline constexpr std::uint32_t kFpInval = 1u << 0;
inline constexpr std::uint32_t kFpZdiv = 1u << 1;
inline constexpr std::uint32_t kFpOvfl = 1u << 2;
inline constexpr std::uint32_t kFpUnfl = 1u << 3;
inline constexpr std::uint32_t kFpInex = 1u << 4;
inline constexpr std::uint32_t kFpExceptions = 0x1f;
inline constexpr std::uint32_t kFpRoundMask = 3u << 8;  // RND_NR 0, NINF 1, PINF 2, Z 3 (<< 8)
inline constexpr std::uint32_t kFpControlBits = kFpExceptions | kFpRoundMask;
// Inferno's FPinit: every exception but inexact traps; round to nearest.
inline constexpr std::uint32_t kFpDefaultControl = kFpInval | kFpZdiv | kFpOvfl | kFpUnfl;

struct FpState {
  std::uint32_t control = kFpDefaultControl;
  std::uint32_t status = 0;  // sticky exception bits
};

// True when r may carry an IEEE exception: not a normal finite nonzero,
// i.e. its exponent field is all zeros (zero, subnormal) or all ones. With
// the sign shifted out, normal numbers are one unsigned range: one compare.
inline bool fp_suspect(double r) {
  const std::uint64_t u = std::bit_cast<std::uint64_t>(r) << 1;
  return u - (std::uint64_t{1} << 53) >= (std::uint64_t{0x7fe} << 53);
}

enum class FpOp : std::uint8_t { add, sub, mul, div, exp };

// Whether r = m op s must go to fp_arith_slow. Zeros are common results
// (0*x, 0/x, x-x, sums from zero) and exact when an operand makes them so:
// those raise nothing and stay on the fast path.
template <FpOp op>
inline bool fp_needs_check(double r, double m, double s) {
  if (!fp_suspect(r)) [[likely]]
    return false;
  if (r != 0) return true;
  if constexpr (op == FpOp::add || op == FpOp::sub)
    return false;  // a zero sum is exact; only a subnormal one can underflow
  else if constexpr (op == FpOp::mul)
    return m != 0 && s != 0;
  else if constexpr (op == FpOp::div)
    return m != 0;
  else
    return true;
}

// Redoes `m op s` (for exp, m ** s with s an int) under the host's flags,
// adds them to p's status and raises when p's control traps one of them.
[[gnu::cold, gnu::noinline]] void fp_arith_slow(Prog& p, FpOp op, double m, double s);
// Adds IEEE exceptions (math.m's bits) to p's status; raises when p's
// control traps one of them.
void fp_record(Prog& p, std::uint32_t bits);
// An invalid operation (an ordered comparison with NaN, a conversion to an
// integer out of range): recorded, and raised when INVAL traps.
[[gnu::cold, gnu::noinline]] void fp_invalid(Prog& p);

// Real to integer as Inferno's interpreter computes it, (x < 0 ? x - .5 :
// x + .5) truncated; false (and the minimum integer) for NaN or out of range.
// Inline: cvtfw and cvtfl are common in real code and the test is two compares.
inline bool real_to_int_ok(double x, std::int32_t& out) {
  const double y = x < 0 ? x - .5 : x + .5;
  if (!(y > -2147483649.0 && y < 2147483648.0)) [[unlikely]] {
    out = INT32_MIN;
    return false;
  }
  out = static_cast<std::int32_t>(y);
  return true;
}

inline bool real_to_big_ok(double x, std::int64_t& out) {
  const double y = x < 0 ? x - .5 : x + .5;
  // -2^63 is the last double at or above -2^63 - 1.
  if (!(y >= -9223372036854775808.0 && y < 9223372036854775808.0)) [[unlikely]] {
    out = INT64_MIN;
    return false;
  }
  out = static_cast<std::int64_t>(y);
  return true;
}

// The exceptions of narrowing x to a short real f (cvtfr), as the x87 store
// raises them: overflow when a finite x becomes infinite, underflow when a
// nonzero x becomes subnormal or zero. A NaN stays quiet.
inline std::uint32_t real_to_short_exceptions(double x, float f) {
  const float a = std::fabs(f);
  if (a >= FLT_MIN && a <= FLT_MAX) [[likely]]
    return 0;
  if (std::isinf(f) && std::isfinite(x)) return kFpOvfl;
  if (a < FLT_MIN && x != 0) return kFpUnfl;
  return 0;
}

// Makes the host thread round as `control` says (Math->FPcontrol applies a
// change at once, from inside the slice).
void fp_apply_rounding(std::uint32_t control);

// Around a thread's slice: its rounding while alive (nothing to do for round
// to nearest, the default), and round to nearest again after when the
// slice changed it (here or through fp_apply_rounding); a host mode the
// embedder set itself is left alone.
// Inline: every thread switch passes here (perf/LOG.md).
extern constinit thread_local bool tl_rounding_changed;  // not put back yet
void fp_restore_rounding();
class FpRoundScope {
 public:
  explicit FpRoundScope(std::uint32_t control) {
    if ((control & kFpRoundMask) != 0) [[unlikely]]
      fp_apply_rounding(control);
  }
  ~FpRoundScope() {
    if (tl_rounding_changed) [[unlikely]]
      fp_restore_rounding();
  }
  FpRoundScope(const FpRoundScope&) = delete;
  FpRoundScope& operator=(const FpRoundScope&) = delete;
};

}  // namespace dis::vm
