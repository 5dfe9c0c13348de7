// Floating-point traps (fp_traps.h): the slow paths, off the interpreter's
// hot loop.
#include "fp_traps.h"

#include <cfenv>

#include "runtime.h"

namespace dis::vm {

namespace {

// volatile keeps the operation between the flag reads, where the compiler
// would otherwise fold or move it.
double apply(FpOp op, double m_in, double s_in) {
  volatile double m = m_in, s = s_in;
  switch (op) {
    case FpOp::add:
      return m + s;
    case FpOp::sub:
      return m - s;
    case FpOp::mul:
      return m * s;
    case FpOp::div:
      return m / s;
    case FpOp::exp: {
      // As the interpreter's expf: squaring, then 1/r for a negative power.
      auto e = static_cast<std::int32_t>(s);
      std::uint32_t n = e < 0 ? 0u - static_cast<std::uint32_t>(e) : static_cast<std::uint32_t>(e);
      volatile double r = 1, b = m;
      while (n) {
        if (n & 1) r = r * b;
        n >>= 1;
        if (n) b = b * b;
      }
      return e < 0 ? 1 / r : r;
    }
  }
  return 0;
}

int host_rounding(std::uint32_t control) {
  switch ((control & kFpRoundMask) >> 8) {
    case 1:
      return FE_DOWNWARD;
    case 2:
      return FE_UPWARD;
    case 3:
      return FE_TOWARDZERO;
    default:
      return FE_TONEAREST;
  }
}

}  // namespace

void fp_arith_slow(Prog& p, FpOp op, double m, double s) {
  std::feclearexcept(FE_ALL_EXCEPT);
  const double r = apply(op, m, s);
  const int f = std::fetestexcept(FE_INVALID | FE_DIVBYZERO | FE_OVERFLOW | FE_UNDERFLOW);
  std::uint32_t bits = 0;
  if (f & FE_INVALID) bits |= kFpInval;
  if (f & FE_DIVBYZERO) bits |= kFpZdiv;
  if (f & FE_OVERFLOW) bits |= kFpOvfl;
  // A trapped underflow is signalled on a tiny result even when exact (the
  // host's flag, untrapped, wants it inexact too).
  if ((f & FE_UNDERFLOW) || (r != 0 && std::fabs(r) < DBL_MIN)) bits |= kFpUnfl;
  if (bits) fp_record(p, bits);
}

void fp_record(Prog& p, std::uint32_t bits) {
  p.fp.status |= bits & kFpExceptions;
  if (bits & p.fp.control & kFpExceptions) raise_error("sys: fp: exception");
}

void fp_invalid(Prog& p) { fp_record(p, kFpInval); }

// This host thread's rounding was changed by a Dis thread and not yet put
// back. Reading the mode back (fegetround) at every slice's end cost about
// 20 ns, a tenth of a thread switch on a channel (perf/LOG.md).
constinit thread_local bool tl_rounding_changed = false;

void fp_apply_rounding(std::uint32_t control) {
  const int mode = host_rounding(control);
  std::fesetround(mode);
  tl_rounding_changed = mode != FE_TONEAREST;
}

void fp_restore_rounding() {
  std::fesetround(FE_TONEAREST);
  tl_rounding_changed = false;
}

}  // namespace dis::vm
