// The Dis interpreter: pre-decoded instructions, threaded dispatch through a
// table of label addresses generated from opcodes.def (or a switch when built
// with DIS_SWITCH_DISPATCH). Run-time errors are thrown as DisError and turned
// into Dis exceptions at the bottom of the loop.
#include "interp.h"

#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "cost_probe.h"
#include "dis_string.h"
#include "format.h"

namespace dis::vm {

std::int32_t real_to_int(double x) {
  if (std::isnan(x)) return INT32_MIN;
  double r = std::round(x);
  if (r >= 2147483648.0 || r < -2147483648.0) return INT32_MIN;
  return static_cast<std::int32_t>(r);
}

std::int64_t real_to_big(double x) {
  if (std::isnan(x)) return INT64_MIN;
  double r = std::round(x);
  if (r >= 9223372036854775808.0 || r < -9223372036854775808.0) return INT64_MIN;
  return static_cast<std::int64_t>(r);
}

namespace {

[[gnu::always_inline]] inline std::uint8_t* addr_of(std::uint8_t* const* base, std::uint8_t* cage,
                                                    const DOpnd& o) {
  std::uint8_t* a = base[o.base] + o.a;
  if (o.ind) {
    Ptr q = ld<Ptr>(a);
    if (q == H) raise_error("dereference of nil");
    a = cage + static_cast<std::uint32_t>(q + static_cast<std::uint32_t>(o.b));
  }
  return a;
}

inline std::int32_t pow_int(std::int32_t base, std::int32_t e) {
  if (e < 0) {
    if (base == 0) raise_error("zero divide");
    // 1/r in integers.
    if (base == 1) return 1;
    if (base == -1) return (e & 1) ? -1 : 1;
    return 0;
  }
  std::uint32_t r = 1, b = static_cast<std::uint32_t>(base);
  while (e) {
    if (e & 1) r *= b;
    b *= b;
    e >>= 1;
  }
  return static_cast<std::int32_t>(r);
}

inline std::int64_t pow_big(std::int64_t base, std::int32_t e) {
  if (e < 0) {
    if (base == 0) raise_error("zero divide");
    if (base == 1) return 1;
    if (base == -1) return (e & 1) ? -1 : 1;
    return 0;
  }
  std::uint64_t r = 1, b = static_cast<std::uint64_t>(base);
  while (e) {
    if (e & 1) r *= b;
    b *= b;
    e >>= 1;
  }
  return static_cast<std::int64_t>(r);
}

inline double pow_real(double base, std::int32_t e) {
  bool neg = e < 0;
  std::uint32_t n = neg ? 0u - static_cast<std::uint32_t>(e) : static_cast<std::uint32_t>(e);
  double r = 1;
  while (n) {
    if (n & 1) r *= base;
    base *= base;
    n >>= 1;
  }
  return neg ? 1 / r : r;
}

// Fixed point, as Inferno's interpreter computes it: a scale p >= 0 shifts
// left, p < 0 right (arithmetic); the count is taken mod 64, as the host's
// shifter does. 64-bit sums wrap.
inline std::int64_t fx_shift(std::int64_t v, std::int64_t p) {
  if (p >= 0) return static_cast<std::int64_t>(static_cast<std::uint64_t>(v) << (p & 63));
  return v >> ((-p) & 63);
}
inline std::int64_t fx_add(std::int64_t a, std::int64_t b) {
  return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) + static_cast<std::uint64_t>(b));
}
inline std::int64_t fx_div(std::int64_t n, std::int64_t d) {
  if (d == 0) raise_error("zero divide");
  if (d == -1) return static_cast<std::int64_t>(0 - static_cast<std::uint64_t>(n));
  return n / d;
}
// The rounding bias 2^-p - 1 of the *1 forms (their p is negative).
inline std::int64_t fx_bias(std::int64_t p) {
  return static_cast<std::int64_t>((std::uint64_t{1} << ((-p) & 63)) - 1);
}
inline std::int32_t fx_neg(std::int32_t v) {
  return static_cast<std::int32_t>(0u - static_cast<std::uint32_t>(v));
}
inline std::int32_t fx_pred(std::int32_t v) {
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(v) - 1u);
}
// The *1 forms' flags in the two low bits of the scale: bit 1 adds a
// rounding term v to the shifted value, bit 0 a bias before the shift.
struct FxRound {
  bool vnz, wnz;
  std::int32_t p;
  explicit FxRound(std::int32_t scale) : vnz(scale & 2), wnz(scale & 1), p(scale >> 2) {}
};

std::int32_t find_frame(Prog& p, Ptr f) {
  for (auto i = static_cast<std::int32_t>(p.frames.size()) - 1; i > p.cur; --i)
    if (p.frames[i].fp == f) return i;
  raise_error("dereference of nil");
}

// Link k of a module instance: k >= 0 indexes the importer's resolved table,
// k < 0 names entry -k-1 of the module's own export list (Limbo's function
// references call through it). nullptr when out of range.
const Export* link_at(const Modlink& tm, std::int32_t k) {
  if (k >= 0) return static_cast<std::size_t>(k) < tm.links.size() ? tm.links[k] : nullptr;
  const std::size_t i = static_cast<std::size_t>(-(static_cast<std::int64_t>(k) + 1));
  if (tm.prog) return i < tm.prog->exports.size() ? tm.prog->exports[i] : nullptr;
  if (tm.native) return i < tm.native->exports.size() ? &tm.native->exports[i] : nullptr;
  return nullptr;
}

}  // namespace

template <class Probe>
void interpret(Impl& vm, Prog& p, std::uint32_t& left, Probe& probe) {
  Heap& heap = vm.heap;
  std::uint8_t* const cage = vm.cage.base();
  std::uint32_t mli;
  Modlink* ml;
  Program* prog;
  const DInst* code;
  const DInst* ip;
  const DInst* in = nullptr;
  std::uint8_t* base[3];
  // The budget lives in a register; written back on every exit (return or
  // an exception leaving the loop).
  struct BudgetSync {
    std::uint32_t& out;
    std::uint32_t n;
    ~BudgetSync() { out = n; }
  } budget{left, left};

  auto load_module_regs = [&]() {
    ml = &vm.modlink(mli);
    prog = ml->prog;
    code = prog->code.data();
    base[kMp] = cage + ml->mp;
    base[kConst] = reinterpret_cast<std::uint8_t*>(prog->consts.data());
  };
  auto load_regs = [&]() {
    mli = p.ml;
    load_module_regs();
    ip = code + p.pc;
    base[kFp] = cage + p.frames[p.cur].fp;
  };
  auto put_ptr = [&](std::uint8_t* d, Ptr owned) {
    Ptr old = ld<Ptr>(d);
    st<Ptr>(d, owned);
    heap.decref(old);
  };
  auto release_all = [&]() {
    vm.pop_frames_to(p, -1);
    p.state = ProgState::Done;
  };

  load_regs();
  for (;;) {
    try {
#define S addr_of(base, cage, in->s)
#define M addr_of(base, cage, in->m)
#define D addr_of(base, cage, in->d)
#define LW(x) ld<std::int32_t>(x)
#define LB(x) ld<std::uint8_t>(x)
#define LL(x) ld<std::int64_t>(x)
#define LF(x) ld<double>(x)
#define LP(x) ld<Ptr>(x)
#define SAVE_PC() (p.pc = static_cast<std::int32_t>(ip - code), p.ml = mli)
#define BRANCH(cond)             \
  if (cond) ip = code + in->aux; \
  goto next

// Without a probe each handler ends with its own copy of the dispatch
// (threaded code: one indirect jump per handler, each predicted on its own).
#ifdef DIS_SWITCH_DISPATCH
#define NEXT goto next
#else
#define NEXT                                         \
  do {                                               \
    if constexpr (Probe::active) goto next;          \
    if (budget.n == 0) [[unlikely]]                  \
      goto next;                                     \
    --budget.n;                                      \
    in = ip++;                                       \
    goto* labels[static_cast<std::uint8_t>(in->op)]; \
  } while (0)
#endif

#ifndef DIS_SWITCH_DISPATCH
      static const void* const labels[] = {
#define DIS_OP(code, name, S_, M_, D_) &&L_##name,
#include "opcodes.def"
#undef DIS_OP
      };
#endif

    next:
      if (budget.n == 0) {
        SAVE_PC();
        return;
      }
      --budget.n;
      in = ip++;
      if constexpr (Probe::active) {
        SAVE_PC();
        probe.before(vm, p, *prog, static_cast<std::int32_t>(in - code));
        if (vm.halted) {
          p.pc = static_cast<std::int32_t>(in - code);
          return;
        }
      }
#ifdef DIS_SWITCH_DISPATCH
      switch (in->op) {
#define DIS_OP(code, name, S_, M_, D_) \
  case Op::name##_:                    \
    goto L_##name;
#include "opcodes.def"
#undef DIS_OP
      }
#else
      goto* labels[static_cast<std::uint8_t>(in->op)];
#endif

    L_nop:
      raise_error("illegal dis instruction");
    L_runt:
    L_eclr:
      NEXT;

      // ---- moves and conversions ----
    L_movw:
      st<std::int32_t>(D, LW(S));
      NEXT;
    L_movb:
      st<std::uint8_t>(D, LB(S));
      NEXT;
    L_movf:
      st<double>(D, LF(S));
      NEXT;
    L_movl:
      st<std::int64_t>(D, LL(S));
      NEXT;
    L_movp : {
      Ptr v = LP(S);
      heap.incref(v);
      put_ptr(D, v);
      NEXT;
    }
    L_movm : {
      std::uint8_t* s = S;
      std::int32_t n = LW(M);
      std::uint8_t* d = D;
      if (n < 0 || std::uint64_t(s - cage) + std::uint64_t(n) > Cage::kSize ||
          std::uint64_t(d - cage) + std::uint64_t(n) > Cage::kSize)
        raise_error("array bounds error");
      std::memmove(d, s, static_cast<std::size_t>(n));
      NEXT;
    }
    L_movmp:
      heap.copy_record(D, S, static_cast<std::uint32_t>(in->aux));
      NEXT;
    L_lea:
      if (in->s.base == kConst && !in->s.ind)
        st<Ptr>(D, static_cast<Ptr>(in->aux));  // a constant's cage slot
      else
        st<Ptr>(D, static_cast<Ptr>(S - cage));
      NEXT;
    L_movpc:
      st<std::int32_t>(D, LW(S));
      NEXT;
    L_cvtbw:
      st<std::int32_t>(D, LB(S));
      NEXT;
    L_cvtwb:
      st<std::uint8_t>(D, static_cast<std::uint8_t>(LW(S)));
      NEXT;
    L_cvtfw:
      st<std::int32_t>(D, real_to_int(LF(S)));
      NEXT;
    L_cvtwf:
      st<double>(D, LW(S));
      NEXT;
    L_cvtlf:
      st<double>(D, static_cast<double>(LL(S)));
      NEXT;
    L_cvtfl:
      st<std::int64_t>(D, real_to_big(LF(S)));
      NEXT;
    L_cvtlw:
      st<std::int32_t>(D, static_cast<std::int32_t>(LL(S)));
      NEXT;
    L_cvtwl:
      st<std::int64_t>(D, LW(S));
      NEXT;
    L_cvtrf:
      st<double>(D, ld<float>(S));
      NEXT;
    L_cvtfr:
      st<float>(D, static_cast<float>(LF(S)));
      NEXT;
    L_cvtws:
      st<std::int16_t>(D, static_cast<std::int16_t>(LW(S)));
      NEXT;
    L_cvtsw:
      st<std::int32_t>(D, ld<std::int16_t>(S));
      NEXT;
    L_cvtwc:
      put_ptr(D, str_from_utf8(heap, int_to_string(LW(S))));
      NEXT;
    L_cvtlc:
      put_ptr(D, str_from_utf8(heap, big_to_string(LL(S))));
      NEXT;
    L_cvtfc:
      put_ptr(D, str_from_utf8(heap, real_to_string(LF(S))));
      NEXT;
    L_cvtcw:
      st<std::int32_t>(D, string_to_int(str_utf8(heap, LP(S))));
      NEXT;
    L_cvtcl:
      st<std::int64_t>(D, string_to_big(str_utf8(heap, LP(S))));
      NEXT;
    L_cvtcf:
      st<double>(D, string_to_real(str_utf8(heap, LP(S))));
      NEXT;
    L_cvtca : {
      std::string u = str_utf8(heap, LP(S));
      put_ptr(D, array_of_bytes(heap, u.data(), u.size()));
    }
      NEXT;
    L_cvtac : {
      ArrayRef r = array_ref(heap, LP(S));
      std::string u(reinterpret_cast<const char*>(cage + r.data),
                    r.len > 0 ? static_cast<std::size_t>(r.len) : 0);
      put_ptr(D, str_from_utf8(heap, u));
    }
      NEXT;

      // ---- arithmetic ----
#define ARITH(name, T, expr)        \
  L_##name : {                      \
    T s_ = ld<T>(S);                \
    T m_ = ld<T>(M);                \
    st<T>(D, static_cast<T>(expr)); \
    NEXT;                           \
  }
#define U32(x) static_cast<std::uint32_t>(x)
#define U64(x) static_cast<std::uint64_t>(x)
      ARITH(addb, std::uint8_t, m_ + s_)
      ARITH(subb, std::uint8_t, m_ - s_)
      ARITH(mulb, std::uint8_t, m_ * s_)
      ARITH(andb, std::uint8_t, m_ & s_)
      ARITH(orb, std::uint8_t, m_ | s_)
      ARITH(xorb, std::uint8_t, m_ ^ s_)
      ARITH(addw, std::int32_t, U32(m_) + U32(s_))
      ARITH(subw, std::int32_t, U32(m_) - U32(s_))
      ARITH(mulw, std::int32_t, U32(m_) * U32(s_))
      ARITH(andw, std::int32_t, m_ & s_)
      ARITH(orw, std::int32_t, m_ | s_)
      ARITH(xorw, std::int32_t, m_ ^ s_)
      ARITH(addl, std::int64_t, U64(m_) + U64(s_))
      ARITH(subl, std::int64_t, U64(m_) - U64(s_))
      ARITH(mull, std::int64_t, U64(m_) * U64(s_))
      ARITH(andl, std::int64_t, m_ & s_)
      ARITH(orl, std::int64_t, m_ | s_)
      ARITH(xorl, std::int64_t, m_ ^ s_)
      ARITH(addf, double, m_ + s_)
      ARITH(subf, double, m_ - s_)
      ARITH(mulf, double, m_* s_)
      ARITH(divf, double, m_ / s_)
    L_divb : {
      std::uint8_t s_ = LB(S), m_ = LB(M);
      if (s_ == 0) raise_error("zero divide");
      st<std::uint8_t>(D, static_cast<std::uint8_t>(m_ / s_));
      NEXT;
    }
    L_modb : {
      std::uint8_t s_ = LB(S), m_ = LB(M);
      if (s_ == 0) raise_error("zero divide");
      st<std::uint8_t>(D, static_cast<std::uint8_t>(m_ % s_));
      NEXT;
    }
    L_divw : {
      std::int32_t s_ = LW(S), m_ = LW(M);
      if (s_ == 0) raise_error("zero divide");
      st<std::int32_t>(D, s_ == -1 ? static_cast<std::int32_t>(0u - U32(m_)) : m_ / s_);
      NEXT;
    }
    L_modw : {
      std::int32_t s_ = LW(S), m_ = LW(M);
      if (s_ == 0) raise_error("zero divide");
      st<std::int32_t>(D, s_ == -1 ? 0 : m_ % s_);
      NEXT;
    }
    L_divl : {
      std::int64_t s_ = LL(S), m_ = LL(M);
      if (s_ == 0) raise_error("zero divide");
      st<std::int64_t>(D, s_ == -1 ? static_cast<std::int64_t>(0ull - U64(m_)) : m_ / s_);
      NEXT;
    }
    L_modl : {
      std::int64_t s_ = LL(S), m_ = LL(M);
      if (s_ == 0) raise_error("zero divide");
      st<std::int64_t>(D, s_ == -1 ? 0 : m_ % s_);
      NEXT;
    }
    L_shlb:
      st<std::uint8_t>(D, static_cast<std::uint8_t>(U32(LB(M)) << (LW(S) & 31)));
      NEXT;
    L_shrb:
      st<std::uint8_t>(D, static_cast<std::uint8_t>(U32(LB(M)) >> (LW(S) & 31)));
      NEXT;
    L_shlw:
      st<std::int32_t>(D, static_cast<std::int32_t>(U32(LW(M)) << (LW(S) & 31)));
      NEXT;
    L_shrw:
      st<std::int32_t>(D, LW(M) >> (LW(S) & 31));
      NEXT;
    L_lsrw:
      st<std::int32_t>(D, static_cast<std::int32_t>(U32(LW(M)) >> (LW(S) & 31)));
      NEXT;
    L_shll:
      st<std::int64_t>(D, static_cast<std::int64_t>(U64(LL(M)) << (LW(S) & 63)));
      NEXT;
    L_shrl:
      st<std::int64_t>(D, LL(M) >> (LW(S) & 63));
      NEXT;
    L_lsrl:
      st<std::int64_t>(D, static_cast<std::int64_t>(U64(LL(M)) >> (LW(S) & 63)));
      NEXT;
    L_negf:
      st<double>(D, -LF(S));
      NEXT;
    L_expw:
      st<std::int32_t>(D, pow_int(LW(M), LW(S)));
      NEXT;
    L_expl:
      st<std::int64_t>(D, pow_big(LL(M), LW(S)));
      NEXT;
    L_expf:
      st<double>(D, pow_real(LF(M), LW(S)));
      NEXT;

      // ---- fixed point: scale from the frame temporaries ----
    L_mulx : {
      std::int64_t r = std::int64_t(LW(M)) * LW(S);
      st<std::int32_t>(D, static_cast<std::int32_t>(fx_shift(r, ld<std::int32_t>(base[kFp] + 28))));
      NEXT;
    }
    L_divx : {
      std::int64_t r = fx_shift(LW(M), ld<std::int32_t>(base[kFp] + 28));
      st<std::int32_t>(D, static_cast<std::int32_t>(fx_div(r, LW(S))));
      NEXT;
    }
    L_cvtxx:
      st<std::int32_t>(D, static_cast<std::int32_t>(fx_shift(LW(S), LW(M))));
      NEXT;
      // The 0 and 1 forms: a zero operand gives 0 before any division; the
      // divisor (mulx, cvtxx) or multiplier (divx) is the temporary at 20(fp).
    L_mulx0 : {
      std::int32_t x = LW(M), y = LW(S);
      std::int64_t r = 0;
      if (x != 0 && y != 0) {
        r = fx_shift(std::int64_t(x) * y, ld<std::int32_t>(base[kFp] + 28));
        r = fx_div(r, ld<std::int32_t>(base[kFp] + 20));
      }
      st<std::int32_t>(D, static_cast<std::int32_t>(r));
      NEXT;
    }
    L_divx0 : {
      std::int32_t x = LW(M), y = LW(S);
      std::int64_t r = 0;
      if (x != 0) {
        r = fx_shift(std::int64_t(ld<std::int32_t>(base[kFp] + 20)) * x,
                     ld<std::int32_t>(base[kFp] + 28));
        r = fx_div(r, y);
      }
      st<std::int32_t>(D, static_cast<std::int32_t>(r));
      NEXT;
    }
    L_cvtxx0 : {
      std::int32_t x = LW(S);
      std::int64_t r = 0;
      if (x != 0) r = fx_div(fx_shift(x, LW(M)), ld<std::int32_t>(base[kFp] + 20));
      st<std::int32_t>(D, static_cast<std::int32_t>(r));
      NEXT;
    }
    L_mulx1 : {
      std::int32_t x = LW(M), y = LW(S), a = ld<std::int32_t>(base[kFp] + 20);
      std::int64_t r = 0;
      if (x != 0 && y != 0) {
        FxRound f(ld<std::int32_t>(base[kFp] + 28));
        const bool differ = (x < 0) != (y < 0);  // signs, zero counted positive
        std::int32_t v = 0;
        if (f.vnz) v = differ ? fx_neg(fx_pred(a)) : fx_pred(a);
        std::int64_t w = 0;
        if (f.wnz && (f.vnz ? !differ : differ)) w = fx_bias(f.p);
        r = fx_shift(fx_add(std::int64_t(x) * y, w), f.p);
        r = fx_div(fx_add(r, v), a);
      }
      st<std::int32_t>(D, static_cast<std::int32_t>(r));
      NEXT;
    }
    L_divx1 : {
      std::int32_t x = LW(M), y = LW(S), b = ld<std::int32_t>(base[kFp] + 20);
      std::int32_t out = 0;
      if (x != 0) {
        FxRound f(ld<std::int32_t>(base[kFp] + 28));
        std::int32_t v = 0;
        if (f.vnz) v = (x < 0) != (y < 0) ? -1 : 1;
        std::int64_t w = f.wnz && x <= 0 ? fx_bias(f.p) : 0;
        std::int64_t r = fx_div(fx_shift(fx_add(std::int64_t(b) * x, w), f.p), y);
        out = static_cast<std::int32_t>(static_cast<std::uint32_t>(r) + static_cast<std::uint32_t>(v));
      }
      st<std::int32_t>(D, out);
      NEXT;
    }
    L_cvtxx1 : {
      std::int32_t x = LW(S), a = ld<std::int32_t>(base[kFp] + 20);
      std::int64_t r = 0;
      if (x != 0) {
        FxRound f(LW(M));
        std::int32_t v = 0;
        if (f.vnz) v = x < 0 ? fx_neg(fx_pred(a)) : fx_pred(a);
        std::int64_t w = 0;
        if (f.wnz && (f.vnz ? x > 0 : x < 0)) w = fx_bias(f.p);
        r = fx_div(fx_add(fx_shift(fx_add(x, w), f.p), v), a);
      }
      st<std::int32_t>(D, static_cast<std::int32_t>(r));
      NEXT;
    }
    L_cvtfx:
      st<std::int32_t>(D, real_to_int(LF(S) * LF(M)));
      NEXT;
    L_cvtxf:
      st<double>(D, LW(S) * LF(M));
      NEXT;

      // ---- branches ----
#define CMPBR(name, T, op) \
  L_##name : {             \
    T s_ = ld<T>(S);       \
    T m_ = ld<T>(M);       \
    BRANCH(s_ op m_);      \
  }
      CMPBR(beqb, std::uint8_t, ==)
      CMPBR(bneb, std::uint8_t, !=)
      CMPBR(bltb, std::uint8_t, <)
      CMPBR(bleb, std::uint8_t, <=)
      CMPBR(bgtb, std::uint8_t, >)
      CMPBR(bgeb, std::uint8_t, >=)
      CMPBR(beqw, std::int32_t, ==)
      CMPBR(bnew, std::int32_t, !=)
      CMPBR(bltw, std::int32_t, <)
      CMPBR(blew, std::int32_t, <=)
      CMPBR(bgtw, std::int32_t, >)
      CMPBR(bgew, std::int32_t, >=)
      CMPBR(beql, std::int64_t, ==)
      CMPBR(bnel, std::int64_t, !=)
      CMPBR(bltl, std::int64_t, <)
      CMPBR(blel, std::int64_t, <=)
      CMPBR(bgtl, std::int64_t, >)
      CMPBR(bgel, std::int64_t, >=)
      CMPBR(beqf, double, ==)
      CMPBR(bnef, double, !=)
      CMPBR(bltf, double, <)
      CMPBR(blef, double, <=)
      CMPBR(bgtf, double, >)
      CMPBR(bgef, double, >=)
#define STRBR(name, op)                       \
  L_##name : {                                \
    int c_ = str_compare(heap, LP(S), LP(M)); \
    BRANCH(c_ op 0);                          \
  }
      STRBR(beqc, ==)
      STRBR(bnec, !=)
      STRBR(bltc, <)
      STRBR(blec, <=)
      STRBR(bgtc, >)
      STRBR(bgec, >=)
    L_jmp:
      ip = code + in->aux;
      NEXT;
    L_case : {
      std::int32_t v = LW(S);
      const CaseTable& t = prog->cases[in->aux];
      std::size_t lo = 0, hi = t.entries.size();
      std::int32_t target = t.dflt;
      while (lo < hi) {
        std::size_t mid = (lo + hi) / 2;
        const CaseEntry& e = t.entries[mid];
        if (v < e.lo)
          hi = mid;
        else if (v >= e.hi)
          lo = mid + 1;
        else {
          target = e.pc;
          break;
        }
      }
      ip = code + target;
      NEXT;
    }
    L_casel : {
      std::int64_t v = LL(S);
      const CaseTable& t = prog->cases[in->aux];
      std::int32_t target = t.dflt;
      for (const CaseEntry& e : t.entries)
        if (v >= e.lo && v < e.hi) {
          target = e.pc;
          break;
        }
      ip = code + target;
      NEXT;
    }
    L_casec : {
      std::u32string v = str_runes(heap, LP(S));
      const StrCaseTable& t = prog->scases[in->aux];
      std::int32_t target = t.dflt;
      for (const StrCaseEntry& e : t.entries)
        if (v >= e.lo && v <= e.hi) {
          target = e.pc;
          break;
        }
      ip = code + target;
    }
      NEXT;
    L_goto : {
      std::int32_t i = LW(S);
      const auto& t = prog->gotos[in->aux];
      if (i < 0 || static_cast<std::size_t>(i) >= t.size()) raise_error("array bounds error");
      ip = code + t[i];
      NEXT;
    }

      // ---- frames and calls ----
    L_frame : {
      std::uint8_t* d = D;
      Ptr f = vm.push_frame(p, static_cast<std::uint32_t>(in->aux));
      st<Ptr>(d, f);
      NEXT;
    }
    L_call : {
      Ptr f = LP(S);
      std::int32_t fi = find_frame(p, f);
      Frame& fr = p.frames[fi];
      fr.lr = static_cast<std::int32_t>(ip - code);
      fr.caller = p.cur;
      fr.caller_ml = mli;
      fr.ml = mli;
      fr.mcalled = false;
      std::uint8_t* fh = cage + f;
      st<std::int32_t>(fh, fr.lr);
      st<Ptr>(fh + 4, p.frames[p.cur].fp);
      st<Ptr>(fh + 8, H);
      p.cur = fi;
      base[kFp] = fh;
      ip = code + in->aux;
      NEXT;
    }
    L_ret : {
      const Frame& top = p.frames[p.cur];
      const std::int32_t caller = top.caller;
      const std::int32_t lr = top.lr;
      const std::uint32_t caller_ml = top.caller_ml;
      if (caller < 0) {
        release_all();
        return;
      }
      // Popping releases the frame's pointers and, after an mcall, the
      // callee module's reference.
      if (static_cast<std::size_t>(p.cur) + 1 == p.frames.size()) [[likely]]
        vm.pop_frame(p);
      else
        vm.pop_frames_to(p, p.cur - 1);
      p.cur = caller;
      base[kFp] = cage + p.frames[caller].fp;
      if (caller_ml != mli) {
        mli = caller_ml;
        p.ml = mli;
        load_module_regs();
      }
      ip = code + lr;
      NEXT;
    }
    L_mframe : {
      std::uint32_t target = vm.module_of(LP(S));
      std::int32_t k = LW(M);
      Modlink& tm = vm.modlink(target);
      const Export* e = link_at(tm, k);
      if (!e) raise_error("module not loaded");
      std::uint8_t* d = D;
      st<Ptr>(d, vm.push_frame(p, e->frame_type));
      NEXT;
    }
    L_mcall : {
      std::uint32_t target = vm.module_of(LP(D));
      std::int32_t k = LW(M);
      Modlink& tm = vm.modlink(target);
      const Export* e = link_at(tm, k);
      if (!e) raise_error("module not loaded");
      Ptr f = LP(S);
      std::int32_t fi = find_frame(p, f);
      Frame& fr = p.frames[fi];
      fr.lr = static_cast<std::int32_t>(ip - code);
      fr.caller = p.cur;
      fr.caller_ml = mli;
      if (e->native) {
        SAVE_PC();
        Call c(vm, p, f);
        try {
          e->native->fn(c);
        } catch (...) {
          vm.pop_frames_to(p, fi - 1);
          throw;
        }
        vm.pop_frames_to(p, fi - 1);
        if (p.pending_sleep) {
          p.pending_sleep = false;
          p.state = ProgState::Sleeping;
          p.wake = std::chrono::steady_clock::now() + std::chrono::milliseconds(p.sleep_ms);
          return;
        }
        if (vm.halted) return;
        NEXT;
      }
      fr.mcalled = true;
      fr.ml = target;
      heap.incref(tm.obj);
      std::uint8_t* fh = cage + f;
      st<std::int32_t>(fh, fr.lr);
      st<Ptr>(fh + 4, p.frames[p.cur].fp);
      st<Ptr>(fh + 8, mli);
      p.cur = fi;
      base[kFp] = fh;
      mli = target;
      p.ml = mli;
      load_module_regs();
      ip = code + e->pc;
      NEXT;
    }
    L_spawn:
    L_mspawn : {
      Ptr f = LP(S);
      std::uint32_t target = mli;
      std::int32_t pc;
      if (in->op == Op::spawn_) {
        pc = in->aux;
      } else {
        target = vm.module_of(LP(D));
        std::int32_t k = LW(M);
        Modlink& tm = vm.modlink(target);
        const Export* e = link_at(tm, k);
        if (!e || e->native) raise_error("module not loaded");
        pc = e->pc;
      }
      std::int32_t fi = find_frame(p, f);
      Frame fr = p.frames[fi];
      Prog& np = vm.new_prog(target);
      Ptr nf = vm.push_frame(np, fr.type);
      std::memcpy(cage + nf, cage + f, fr.size);
      // The references in the frame moved with it: clear the old slots so
      // popping the frame releases nothing.
      heap.init_record(cage + f, fr.type);
      vm.pop_frames_to(p, fi - 1);
      np.cur = 0;
      np.frames[0].caller = -1;
      np.pc = pc;
      NEXT;
    }
    L_exit:
      release_all();
      return;
    L_load : {
      std::string path = str_utf8(heap, LP(S));
      std::int32_t table = LW(M);
      std::uint8_t* d = D;
      SAVE_PC();
      Ptr r = vm.load_module(path, mli, table);
      put_ptr(d, r);
      // Loading may add modlinks; ours are stable (held by unique_ptr).
    }
      NEXT;
    L_self:
      heap.incref(ml->obj);
      put_ptr(D, ml->obj);
      NEXT;
    L_raise : {
      Ptr v = LP(S);
      if (v == H) raise_error("dereference of nil");
      std::string name;
      BlockHeader* h = heap.checked_header(v);
      if (h && h->type == kTypeString)
        name = str_utf8(heap, v);
      else if (h)
        name = str_utf8(heap, ld<Ptr>(cage + v));
      heap.incref(v);
      throw DisError{name, v};
    }

      // ---- heap objects ----
    L_new:
    L_newz:
      put_ptr(D, heap.new_object(static_cast<std::uint32_t>(in->aux)));
      NEXT;
    L_mnewz : {
      std::uint32_t target = vm.module_of(LP(S));
      Modlink& tm = vm.modlink(target);
      std::int32_t k = LW(M);
      if (!tm.prog || k < 0 || static_cast<std::size_t>(k) >= tm.prog->types.size())
        raise_error("type check");
      put_ptr(D, heap.new_object(tm.prog->types[k]));
      NEXT;
    }
    L_tcmp : {
      Ptr s_ = LP(S), d_ = LP(D);
      if (s_ != H) {
        BlockHeader* a = heap.checked_header(s_);
        BlockHeader* b = d_ == H ? nullptr : heap.checked_header(d_);
        if (!a || !b || a->type != b->type) raise_error("type check");
      }
      NEXT;
    }
    L_newa:
    L_newaz:
      put_ptr(D, array_new(heap, static_cast<std::uint32_t>(in->aux), LW(S)));
      NEXT;
    L_indx:
    L_indw:
    L_indf:
    L_indb:
    L_indl : {
      ArrayRef r = array_ref(heap, LP(S));
      std::int32_t i = LW(D);
      if (i < 0 || i >= r.len) raise_error("array bounds error");
      std::uint32_t es;
      switch (in->op) {
        case Op::indw_:
          es = 4;
          break;
        case Op::indb_:
          es = 1;
          break;
        case Op::indf_:
        case Op::indl_:
          es = 8;
          break;
        default:
          es = heap.type(r.elemtype).size;
      }
      st<Ptr>(M, r.data + static_cast<std::uint32_t>(i) * es);
      NEXT;
    }
    L_lena:
      st<std::int32_t>(D, array_ref(heap, LP(S)).len);
      NEXT;
    L_slicea : {
      std::int32_t a = LW(S), b = LW(M);
      std::uint8_t* d = D;
      put_ptr(d, array_slice(heap, LP(d), a, b));
      NEXT;
    }
    L_slicela : {
      Ptr src = LP(S);
      std::int32_t i = LW(M);
      array_copy_into(heap, LP(D), i, src);
      NEXT;
    }

      // ---- strings ----
    L_lenc:
      st<std::int32_t>(D, str_len(heap, LP(S)));
      NEXT;
    L_indc : {
      StrView v = str_view(heap, LP(S));
      std::int32_t i = LW(M);
      if (i < 0 || i >= v.n) raise_error("array bounds error");
      st<std::int32_t>(D, v.at(i));
      NEXT;
    }
    L_insc : {
      std::int32_t r = LW(S), i = LW(M);
      std::uint8_t* d = D;
      bool in_place;
      Ptr n = str_insert(heap, LP(d), i, r, in_place);
      if (!in_place) put_ptr(d, n);
      NEXT;
    }
    L_addc : {
      Ptr s_ = LP(S), m_ = LP(M);
      put_ptr(D, str_concat(heap, m_, s_));
      NEXT;
    }
    L_slicec : {
      std::int32_t a = LW(S), b = LW(M);
      std::uint8_t* d = D;
      put_ptr(d, str_slice(heap, LP(d), a, b));
      NEXT;
    }

    // ---- lists ----
#define CONS(name, type, size)                            \
  L_##name : {                                            \
    std::uint8_t* s_ = S;                                 \
    std::uint8_t* d_ = D;                                 \
    st<Ptr>(d_, list_cons(heap, type, size, s_, LP(d_))); \
    NEXT;                                                 \
  }
      CONS(consb, kTypeByte, 1)
      CONS(consw, kTypeWord, 4)
      CONS(consf, kTypeBig, 8)
      CONS(consl, kTypeBig, 8)
      CONS(consp, kTypePtr, 4)
    L_consm : {
      std::uint8_t* s_ = S;
      std::int32_t n = LW(M);
      std::uint8_t* d_ = D;
      if (n < 0 || n > 65536) raise_error("array bounds error");
      st<Ptr>(d_, list_cons(heap, vm.plain_type(static_cast<std::uint32_t>(n)),
                            static_cast<std::uint32_t>(n), s_, LP(d_)));
      NEXT;
    }
    L_consmp : {
      std::uint8_t* s_ = S;
      std::uint8_t* d_ = D;
      auto t = static_cast<std::uint32_t>(in->aux);
      st<Ptr>(d_, list_cons(heap, t, heap.type(t).size, s_, LP(d_)));
      NEXT;
    }
#define HEAD_CELL()                                                           \
  Ptr l_ = LP(S);                                                             \
  if (l_ == H || !heap.checked_header(l_)) raise_error("dereference of nil"); \
  std::uint8_t* e_ = cage + l_ + kListHeader
    L_headb : {
      HEAD_CELL();
      st<std::uint8_t>(D, *e_);
      NEXT;
    }
    L_headw : {
      HEAD_CELL();
      st<std::int32_t>(D, LW(e_));
      NEXT;
    }
    L_headf:
    L_headl : {
      HEAD_CELL();
      st<std::int64_t>(D, LL(e_));
      NEXT;
    }
    L_headp : {
      HEAD_CELL();
      Ptr v = LP(e_);
      heap.incref(v);
      put_ptr(D, v);
      NEXT;
    }
    L_headm : {
      HEAD_CELL();
      std::int32_t n = LW(M);
      std::uint8_t* d = D;
      if (n < 0 || std::uint64_t(d - cage) + std::uint64_t(n) > Cage::kSize)
        raise_error("array bounds error");
      std::memmove(d, e_, static_cast<std::size_t>(n));
      NEXT;
    }
    L_headmp : {
      HEAD_CELL();
      heap.copy_record(D, e_, static_cast<std::uint32_t>(in->aux));
      NEXT;
    }
    L_tail : {
      Ptr l_ = LP(S);
      if (l_ == H || !heap.checked_header(l_)) raise_error("dereference of nil");
      Ptr t = LP(cage + l_);
      heap.incref(t);
      put_ptr(D, t);
      NEXT;
    }
    L_lenl:
      st<std::int32_t>(D, list_len(heap, LP(S)));
      NEXT;

      // ---- channels ----
    L_newcb:
      put_ptr(D, vm.new_channel(kTypeByte, 1, LW(M)));
      NEXT;
    L_newcw:
      put_ptr(D, vm.new_channel(kTypeWord, 4, LW(M)));
      NEXT;
    L_newcf:
    L_newcl:
      put_ptr(D, vm.new_channel(kTypeBig, 8, LW(M)));
      NEXT;
    L_newcp:
      put_ptr(D, vm.new_channel(kTypePtr, 4, LW(M)));
      NEXT;
    L_newcm : {
      std::int32_t n = LW(S);
      if (n < 0 || n > 65536) raise_error("array bounds error");
      put_ptr(D, vm.new_channel(vm.plain_type(static_cast<std::uint32_t>(n)),
                                static_cast<std::uint32_t>(n), LW(M)));
      NEXT;
    }
    L_newcmp : {
      auto t = static_cast<std::uint32_t>(in->aux);
      put_ptr(D, vm.new_channel(t, heap.type(t).size, LW(M)));
      NEXT;
    }
    L_send : {
      std::uint8_t* sa = S;
      if (in->s.base == kConst && !in->s.ind) {
        // A constant: give it a cage address the receiver can read from.
        std::memcpy(cage + p.scratch, sa, 8);
        sa = cage + p.scratch;
      }
      Ptr src = static_cast<Ptr>(sa - cage);
      Ptr c = LP(D);
      SAVE_PC();
      if (!vm.chan_send(p, c, src)) return;
      NEXT;
    }
    L_recv : {
      Ptr c = LP(S);
      Ptr dst = static_cast<Ptr>(D - cage);
      SAVE_PC();
      if (!vm.chan_recv(p, c, dst)) return;
      NEXT;
    }
    L_alt:
    L_nbalt : {
      Ptr t = static_cast<Ptr>(S - cage);
      Ptr dst = static_cast<Ptr>(D - cage);
      SAVE_PC();
      if (!vm.chan_alt(p, t, dst, in->op == Op::nbalt_)) return;
      NEXT;
    }
#undef S
#undef M
#undef D
#undef NEXT
    } catch (DisError& e) {
      // The faulting instruction is `in`.
      p.ml = mli;
      p.pc = in ? static_cast<std::int32_t>(in - code) : p.pc;
      if (vm.halted) return;
      if (!vm.handle_exception(p, e.msg, e.value)) return;
      load_regs();
    }
  }
}

template void interpret<ProbeNone>(Impl&, Prog&, std::uint32_t&, ProbeNone&);
template void interpret<ProbeTrace>(Impl&, Prog&, std::uint32_t&, ProbeTrace&);
// The cost tool's policies (cost_probe.h); absent from a -DDIS_PROBES=OFF build.
#if DIS_PROBES
template void interpret<ProbeCount>(Impl&, Prog&, std::uint32_t&, ProbeCount&);
template void interpret<ProbeTime>(Impl&, Prog&, std::uint32_t&, ProbeTime&);
template void interpret<ProbeSampled>(Impl&, Prog&, std::uint32_t&, ProbeSampled&);
#endif

void ProbeTrace::before(Impl& vm, Prog& p, const Program& prog, std::int32_t pc) {
  if (vm.opts.trace_limit && vm.trace_count >= vm.opts.trace_limit) return;
  ++vm.trace_count;
  const Instruction& in = prog.mod.code[pc];
  std::string line =
      "[" + std::to_string(p.id) + "] " + prog.mod.name + " pc " + std::to_string(pc);
  if (pc < static_cast<std::int32_t>(prog.mod.positions.size()))
    line += " (line " + std::to_string(prog.mod.positions[pc].line) + ")";
  line += ": ";
  line += op_name(in.op);
  auto opnd = [&](const Operand& o, const char* tag) {
    if (o.mode == AddrMode::None) return;
    std::uint8_t* cage = vm.cage.base();
    std::uint8_t* fp = cage + p.frames[p.cur].fp;
    std::uint8_t* mp = cage + vm.modlink(p.ml).mp;
    std::string v;
    switch (o.mode) {
      case AddrMode::Imm:
        v = "$" + std::to_string(o.a);
        break;
      case AddrMode::Fp:
        v = std::to_string(o.a) + "(fp)=" + std::to_string(ld<std::int32_t>(fp + o.a));
        break;
      case AddrMode::Mp:
        v = std::to_string(o.a) + "(mp)=" + std::to_string(ld<std::int32_t>(mp + o.a));
        break;
      case AddrMode::IndFp:
      case AddrMode::IndMp: {
        std::uint8_t* b = o.mode == AddrMode::IndFp ? fp : mp;
        Ptr q = ld<Ptr>(b + o.a);
        v = std::to_string(o.b) + "(" + std::to_string(o.a) +
            (o.mode == AddrMode::IndFp ? "(fp))" : "(mp))");
        if (q != H) v += "=" + std::to_string(ld<std::int32_t>(cage + static_cast<Ptr>(q + o.b)));
        break;
      }
      default:
        break;
    }
    line += std::string(" ") + tag + "=" + v;
  };
  opnd(in.src, "s");
  if (in.mid.mode != MidMode::None) {
    Operand mo;
    mo.mode = in.mid.mode == MidMode::Imm  ? AddrMode::Imm
              : in.mid.mode == MidMode::Fp ? AddrMode::Fp
                                           : AddrMode::Mp;
    mo.a = in.mid.a;
    opnd(mo, "m");
  }
  opnd(in.dst, "d");
  *vm.err << line << "\n";
}

}  // namespace dis::vm
