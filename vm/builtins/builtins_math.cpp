// $Math (the scalar functions here, the array ones in builtins_math_arrays.cpp) and
// $Bench (timers; disablegc/enablegc halt and resume the collector).
#include <cfenv>
#include <chrono>
#include <cmath>
#include <cstring>
#include <map>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "sys_fd.h"

namespace dis::vm {

namespace {

constexpr int kHostTraps = FE_INVALID | FE_DIVBYZERO | FE_OVERFLOW | FE_UNDERFLOW;

// Which of kHostTraps the host's flags hold. glibc's fetestexcept and
// feclearexcept are out-of-line calls, and feclearexcept stores and reloads
// the whole x87 environment: the pair was 30% of an n-body run's time
// calling sqrt (perf/LOG.md). On x86-64 the two status registers are read
// inline (fenv.h's FE_ bits are their low bits in both units).
int host_flags() {
#if defined(__x86_64__)
  std::uint16_t sw;
  __asm__ volatile("fnstsw %0" : "=m"(sw));
  return static_cast<int>(_mm_getcsr() | sw) & kHostTraps;
#else
  return std::fetestexcept(kHostTraps);
#endif
}

// The flags are sticky and the interpreter's own arithmetic does not clear
// them, so a call clears them first, but only when one is set: usually none
// is (inexact is ignored), and clearing is the expensive part.
void clear_host_flags() {
  if (host_flags() != 0) [[unlikely]]
    std::feclearexcept(FE_ALL_EXCEPT);
}

// The IEEE exceptions the C library raised since the flags were cleared,
// in math.m's bits (INVAL, ZDIV, OVFL, UNFL).
std::uint32_t host_fp_exceptions() {
  const int e = host_flags();
  return (e & FE_INVALID ? 1u : 0u) | (e & FE_DIVBYZERO ? 2u : 0u) | (e & FE_OVERFLOW ? 4u : 0u) |
         (e & FE_UNDERFLOW ? 8u : 0u);
}

// As Inferno's fdlibm under the thread's traps: log(0) traps (zero divide),
// sqrt(-1) too (invalid), unless Math->FPcontrol turned that trap off. The
// volatile stores keep the call between the flag reads.
template <double (*F)(double)>
void unary(Call& c) {
  volatile double x = c.arg_real(32);
  clear_host_flags();
  volatile double r = F(x);
  if (std::uint32_t e = host_fp_exceptions()) c.fp_raised(e);
  c.ret_real(r);
}
template <double (*F)(double, double)>
void binary(Call& c) {
  volatile double x = c.arg_real(32), y = c.arg_real(40);
  clear_host_flags();
  volatile double r = F(x, y);
  if (std::uint32_t e = host_fp_exceptions()) c.fp_raised(e);
  c.ret_real(r);
}

double d_acos(double x) { return std::acos(x); }
double d_acosh(double x) { return std::acosh(x); }
double d_asin(double x) { return std::asin(x); }
double d_asinh(double x) { return std::asinh(x); }
double d_atan(double x) { return std::atan(x); }
double d_atanh(double x) { return std::atanh(x); }
double d_cbrt(double x) { return std::cbrt(x); }
double d_ceil(double x) { return std::ceil(x); }
double d_cos(double x) { return std::cos(x); }
double d_cosh(double x) { return std::cosh(x); }
double d_erf(double x) { return std::erf(x); }
double d_erfc(double x) { return std::erfc(x); }
double d_exp(double x) { return std::exp(x); }
double d_expm1(double x) { return std::expm1(x); }
double d_fabs(double x) { return std::fabs(x); }
double d_floor(double x) { return std::floor(x); }
double d_j0(double x) { return ::j0(x); }
double d_j1(double x) { return ::j1(x); }
double d_log(double x) { return std::log(x); }
double d_log10(double x) { return std::log10(x); }
double d_log1p(double x) { return std::log1p(x); }
double d_rint(double x) { return std::rint(x); }
double d_sin(double x) { return std::sin(x); }
double d_sinh(double x) { return std::sinh(x); }
double d_sqrt(double x) { return std::sqrt(x); }
double d_tan(double x) { return std::tan(x); }
double d_tanh(double x) { return std::tanh(x); }
double d_y0(double x) { return ::y0(x); }
double d_y1(double x) { return ::y1(x); }
double d_atan2(double y, double x) { return std::atan2(y, x); }
double d_copysign(double x, double y) { return std::copysign(x, y); }
double d_fdim(double x, double y) { return std::fdim(x, y); }
double d_fmax(double x, double y) { return std::fmax(x, y); }
double d_fmin(double x, double y) { return std::fmin(x, y); }
double d_fmod(double x, double y) { return std::fmod(x, y); }
double d_hypot(double x, double y) { return std::hypot(x, y); }
double d_nextafter(double x, double y) { return std::nextafter(x, y); }
double d_pow(double x, double y) { return std::pow(x, y); }
double d_remainder(double x, double y) { return std::remainder(x, y); }

void m_finite(Call& c) { c.ret_int(std::isfinite(c.arg_real(32)) ? 1 : 0); }
void m_isnan(Call& c) { c.ret_int(std::isnan(c.arg_real(32)) ? 1 : 0); }
void m_ilogb(Call& c) { c.ret_int(std::ilogb(c.arg_real(32))); }
void m_pow10(Call& c) { c.ret_real(std::pow(10.0, c.arg_int(32))); }
void m_scalbn(Call& c) { c.ret_real(std::scalbn(c.arg_real(32), c.arg_int(40))); }
void m_jn(Call& c) { c.ret_real(::jn(c.arg_int(32), c.arg_real(40))); }
void m_yn(Call& c) { c.ret_real(::yn(c.arg_int(32), c.arg_real(40))); }
void m_bits32real(Call& c) {
  std::int32_t b = c.arg_int(32);
  float f;
  std::memcpy(&f, &b, 4);
  c.ret_real(f);
}
void m_bits64real(Call& c) {
  std::int64_t b = c.arg_big(32);
  double d;
  std::memcpy(&d, &b, 8);
  c.ret_real(d);
}
void m_realbits32(Call& c) {
  auto f = static_cast<float>(c.arg_real(32));
  std::int32_t b;
  std::memcpy(&b, &f, 4);
  c.ret_int(b);
}
void m_realbits64(Call& c) {
  double d = c.arg_real(32);
  std::int64_t b;
  std::memcpy(&b, &d, 8);
  c.ret_big(b);
}
void m_modf(Call& c) {
  double ip;
  double fr = std::modf(c.arg_real(32), &ip);
  if (auto* r = c.result()) {
    st<std::int32_t>(r, static_cast<std::int32_t>(ip));
    st<double>(r + 8, fr);
  }
}
void m_lgamma(Call& c) {
  int sign = 1;
  double v = ::lgamma_r(c.arg_real(32), &sign);
  if (auto* r = c.result()) {
    st<std::int32_t>(r, sign);
    st<double>(r + 8, v);
  }
}
// FPcontrol/FPstatus(r, mask) and their readers (Call::fp_control).
std::int32_t as_int(std::uint32_t w) { return static_cast<std::int32_t>(w); }
std::uint32_t as_bits(Call& c, std::uint32_t off) {
  return static_cast<std::uint32_t>(c.arg_int(off));
}
void m_fpcontrol(Call& c) { c.ret_int(as_int(c.fp_control(as_bits(c, 32), as_bits(c, 36)))); }
void m_fpstatus(Call& c) { c.ret_int(as_int(c.fp_status(as_bits(c, 32), as_bits(c, 36)))); }
void m_getfpcontrol(Call& c) { c.ret_int(as_int(c.fp_control())); }
void m_getfpstatus(Call& c) { c.ret_int(as_int(c.fp_status())); }

std::int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace

void register_math(VM& vm) {
  Impls impls{
      {"acos", unary<d_acos>},
      {"acosh", unary<d_acosh>},
      {"asin", unary<d_asin>},
      {"asinh", unary<d_asinh>},
      {"atan", unary<d_atan>},
      {"atanh", unary<d_atanh>},
      {"cbrt", unary<d_cbrt>},
      {"ceil", unary<d_ceil>},
      {"cos", unary<d_cos>},
      {"cosh", unary<d_cosh>},
      {"erf", unary<d_erf>},
      {"erfc", unary<d_erfc>},
      {"exp", unary<d_exp>},
      {"expm1", unary<d_expm1>},
      {"fabs", unary<d_fabs>},
      {"floor", unary<d_floor>},
      {"j0", unary<d_j0>},
      {"j1", unary<d_j1>},
      {"log", unary<d_log>},
      {"log10", unary<d_log10>},
      {"log1p", unary<d_log1p>},
      {"rint", unary<d_rint>},
      {"sin", unary<d_sin>},
      {"sinh", unary<d_sinh>},
      {"sqrt", unary<d_sqrt>},
      {"tan", unary<d_tan>},
      {"tanh", unary<d_tanh>},
      {"y0", unary<d_y0>},
      {"y1", unary<d_y1>},
      {"atan2", binary<d_atan2>},
      {"copysign", binary<d_copysign>},
      {"fdim", binary<d_fdim>},
      {"fmax", binary<d_fmax>},
      {"fmin", binary<d_fmin>},
      {"fmod", binary<d_fmod>},
      {"hypot", binary<d_hypot>},
      {"nextafter", binary<d_nextafter>},
      {"pow", binary<d_pow>},
      {"remainder", binary<d_remainder>},
      {"finite", m_finite},
      {"isnan", m_isnan},
      {"ilogb", m_ilogb},
      {"pow10", m_pow10},
      {"scalbn", m_scalbn},
      {"jn", m_jn},
      {"yn", m_yn},
      {"bits32real", m_bits32real},
      {"bits64real", m_bits64real},
      {"realbits32", m_realbits32},
      {"realbits64", m_realbits64},
      {"modf", m_modf},
      {"lgamma", m_lgamma},
      {"getFPcontrol", m_getfpcontrol},
      {"getFPstatus", m_getfpstatus},
      {"FPcontrol", m_fpcontrol},
      {"FPstatus", m_fpstatus},
  };
  add_math_array_functions(impls);
  register_table(vm, "$Math", impls);
}

void register_bench(VM& vm, const std::shared_ptr<SysState>& sys) {
  static const std::int64_t start = now_ns();
  auto reset_at = std::make_shared<std::int64_t>(start);
  register_table(
      vm, "$Bench",
      {
          {"microsec", [reset_at](Call& c) { c.ret_big((now_ns() - *reset_at) / 1000); }},
          {"nsec", [reset_at](Call& c) { c.ret_big(now_ns() - *reset_at); }},
          {"reset", [reset_at](Call&) { *reset_at = now_ns(); }},
          {"read", sys_read_fn(sys)},
          {"disablegc", [](Call& c) { c.collector().halt(); }},
          {"enablegc", [](Call& c) { c.collector().resume(); }},
      });
}

}  // namespace dis::vm
