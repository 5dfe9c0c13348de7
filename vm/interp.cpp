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

[[gnu::noinline]] std::int32_t find_frame_below(Prog& p, Ptr f) {
  for (auto i = static_cast<std::int32_t>(p.frames.size()) - 1; i > p.cur; --i)
    if (p.frames[i].fp == f) return i;
  raise_error("dereference of nil");
}

// The frame made for a call: nearly always the newest one.
[[gnu::always_inline]] inline std::int32_t find_frame(Prog& p, Ptr f) {
  const auto top = static_cast<std::int32_t>(p.frames.size()) - 1;
  if (top > p.cur && p.frames[top].fp == f) [[likely]]
    return top;
  return find_frame_below(p, f);
}

// The host address b(a(fp)) of a doubly indirect frame operand.
[[gnu::always_inline]] inline std::uint8_t* fp_ind(std::uint8_t* fp, std::uint8_t* cage,
                                                   const DOpnd& o) {
  const Ptr q = ld<Ptr>(fp + o.a);
  if (q == H) [[unlikely]]
    raise_error("dereference of nil");
  return cage + static_cast<std::uint32_t>(q + static_cast<std::uint32_t>(o.b));
}

// The cage address of element i of array a (indw, indb, indf, indl): the
// block check inline, anything unusual (nil, a bad header) through array_ref,
// which raises. The address is 32-bit arithmetic, so it stays in the cage.
[[gnu::noinline]] Ptr index_slow(Heap& heap, Ptr a, std::int32_t i, std::uint32_t es) {
  ArrayRef r = array_ref(heap, a);
  if (i < 0 || i >= r.len) raise_error("array bounds error");
  return r.data + static_cast<std::uint32_t>(i) * es;
}

[[gnu::always_inline]] inline Ptr index_elem(Heap& heap, Ptr a, std::int32_t i, std::uint32_t es) {
  if (heap.is_array(a)) [[likely]] {
    const std::uint8_t* d = heap.cage().at(a);
    const auto len = ld<std::int32_t>(d);
    const Ptr data = ld<Ptr>(d + 12);
    if (static_cast<std::uint32_t>(i) < static_cast<std::uint32_t>(len) &&
        std::uint64_t{data} + std::uint64_t(static_cast<std::uint32_t>(len)) * es <= Cage::kSize)
        [[likely]]
      return data + static_cast<std::uint32_t>(i) * es;
  }
  return index_slow(heap, a, i, es);
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

// A policy with per-pc slots (the cost tool's, cost_probe.h) has its step
// inlined into every handler's dispatch, its slots and hot state in locals;
// another active policy (ProbeTrace) gets before() through the shared `next:`.
template <class Probe>
struct InlineProbe {
  static constexpr bool value = false;
  using Slots = char*;
  struct Hot {};
};
template <class Probe>
requires requires { typename Probe::Slots; }
struct InlineProbe<Probe> {
  static constexpr bool value = true;
  using Slots = typename Probe::Slots;
  using Hot = typename Probe::Hot;
};

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
  // The budget lives in a register; LEAVE writes it back on every exit (an
  // exception leaving the loop too).
  std::uint32_t budget = left;
  // An inlined probe: the running program's per-pc slots (refreshed with the
  // module registers), its hot state, the frame index it last saw (a change
  // takes the out-of-line path), and the instructions executed so far in
  // this call, which the budget already counts.
  using Inline = InlineProbe<Probe>;
  constexpr bool kInlineProbe = Inline::value;
  [[maybe_unused]] typename Inline::Slots slots{};
  [[maybe_unused]] typename Inline::Hot hot{};
  std::int32_t probe_frame = 0;
  [[maybe_unused]] const std::uint32_t budget0 = left;
  if constexpr (kInlineProbe) {
    hot = probe.enter();
    probe_frame = probe.seen_frame();
  }
#define LEAVE                                     \
  do {                                            \
    if constexpr (kInlineProbe) probe.leave(hot); \
    left = budget;                                \
    return;                                       \
  } while (0)

  // Forced inline: an out-of-line closure would take the addresses of ip,
  // code and base, keeping them in memory in every handler.
  auto load_module_regs = [&]() __attribute__((always_inline)) {
    ml = &vm.modlink(mli);
    prog = ml->prog;
    code = prog->code.data();
    base[kMp] = cage + ml->mp;
    base[kConst] = reinterpret_cast<std::uint8_t*>(prog->consts.data());
    if constexpr (kInlineProbe) slots = probe.slots(*prog, code);
  };
  auto load_regs = [&]() __attribute__((always_inline)) {
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
#define LW(x) ld<std::int32_t>(x)
#define LB(x) ld<std::uint8_t>(x)
#define LL(x) ld<std::int64_t>(x)
#define LF(x) ld<double>(x)
#define LP(x) ld<Ptr>(x)
#define SAVE_PC() (p.pc = static_cast<std::int32_t>(ip - code), p.ml = mli)
#define BRANCH(cond)             \
  if (cond) ip = code + in->aux; \
  NEXT

// An inlined probe's step: count or time the instruction `in` into its
// slot; a changed frame (call, return, exception) goes out of line.
#define PROBE_STEP()                                              \
  do {                                                            \
    if constexpr (kInlineProbe) probe.step(in, code, slots, hot); \
    if (kInlineProbe && p.cur != probe_frame) [[unlikely]]        \
      goto probe_frame_changed;                                   \
  } while (0)
// Each handler ends with its own copy of the dispatch (threaded code: one
// indirect jump per handler, each predicted on its own), an inlined probe's
// step included; only ProbeTrace goes through the shared `next:`.
#ifdef DIS_SWITCH_DISPATCH
#define NEXT goto next
#else
#define NEXT                                                 \
  do {                                                       \
    if constexpr (Probe::active && !kInlineProbe) goto next; \
    if (budget == 0) [[unlikely]]                            \
      goto next;                                             \
    --budget;                                                \
    in = ip++;                                               \
    PROBE_STEP();                                            \
    goto* labels[in->h];                                     \
  } while (0)
#endif

#ifndef DIS_SWITCH_DISPATCH
      // Indexed by DInst::h: the general handlers, then the direct ones.
      static const void* const labels[] = {
#define DIS_OP(code, name, S_, M_, D_) &&L_##name,
#include "opcodes.def"
#undef DIS_OP
#define DIS_OP(code, name, S_, M_, D_) &&LD_##name,
#include "opcodes.def"
#undef DIS_OP
#define DIS_SPECIAL(name) &&LS_##name,
          DIS_SPECIAL_HANDLERS(DIS_SPECIAL)
#undef DIS_SPECIAL
#define DIS_SHAPED(op, shape) &&LS_##op##_##shape,
              DIS_SHAPED_HANDLERS(DIS_SHAPED)
#undef DIS_SHAPED
      };
      static_assert(sizeof labels / sizeof labels[0] == kNumHandlers);
#endif

    next:
      if (budget == 0) {
        SAVE_PC();
        LEAVE;
      }
      --budget;
      in = ip++;
      if constexpr (Probe::active && !kInlineProbe) {
        SAVE_PC();
        probe.before(vm, p, *prog, static_cast<std::int32_t>(in - code));
        if (vm.halted) {
          p.pc = static_cast<std::int32_t>(in - code);
          LEAVE;
        }
      }
      // (Outside any `if constexpr`, so the label below is used in every
      // instantiation; without an inlined probe it is no code.)
      PROBE_STEP();
#ifdef DIS_SWITCH_DISPATCH
    dispatch:
      switch (in->h) {
#define DIS_OP(code, name, S_, M_, D_)               \
  case static_cast<unsigned>(Op::name##_):           \
    goto L_##name;                                   \
  case kDirect + static_cast<unsigned>(Op::name##_): \
    goto LD_##name;
#include "opcodes.def"
#undef DIS_OP
#define DIS_SPECIAL(name) \
  case kH_##name:         \
    goto LS_##name;
        DIS_SPECIAL_HANDLERS(DIS_SPECIAL)
#undef DIS_SPECIAL
#define DIS_SHAPED(op, shape) \
  case kH_##op##_##shape:     \
    goto LS_##op##_##shape;
        DIS_SHAPED_HANDLERS(DIS_SHAPED)
#undef DIS_SHAPED
        default:
          raise_error("illegal dis instruction");
      }
#else
      goto* labels[in->h];
#endif

      // Out of line: the frame changed since the probe last looked. The
      // instruction `in` is already counted; then it is dispatched.
    probe_frame_changed:
      if constexpr (kInlineProbe) {
        probe.frame(vm, p, static_cast<std::int32_t>(in - code), budget0 - budget);
        probe_frame = p.cur;
      }
#ifdef DIS_SWITCH_DISPATCH
      goto dispatch;
#else
      goto* labels[in->h];
#endif

      // General operands: any addressing mode, double indirection tested.
#define LBL(name) L_##name
#define S addr_of(base, cage, in->s)
#define M addr_of(base, cage, in->m)
#define D addr_of(base, cage, in->d)
#include "interp_handlers.inc"
#undef LBL
#undef S
#undef M
#undef D
      // Direct operands only (decode chose this variant): base plus offset.
#define LBL(name) LD_##name
#define S (base[in->s.base] + in->s.a)
#define M (base[in->m.base] + in->m.a)
#define D (base[in->d.base] + in->d.a)
#include "interp_handlers.inc"
#undef LBL
#undef S
#undef M
#undef D

      // ---- special handlers (decode.h) ----
    LS_modw_pow2 : {
      // m % 2^k truncates toward zero: a negative m with a remainder keeps
      // its sign bits.
      const auto mask = static_cast<std::uint32_t>(in->aux) - 1;
      const auto m_ = static_cast<std::uint32_t>(LW(addr_of(base, cage, in->m)));
      std::uint32_t r = m_ & mask;
      if (static_cast<std::int32_t>(m_) < 0 && r != 0) r |= ~mask;
      st<std::int32_t>(addr_of(base, cage, in->d), static_cast<std::int32_t>(r));
      NEXT;
    }
    LS_divw_pow2 : {
      const std::int32_t m_ = LW(addr_of(base, cage, in->m));
      const std::int32_t k = in->aux;
      // Rounding toward zero: a negative m is biased by 2^k - 1 first.
      const std::uint32_t bias = k == 0 ? 0 : static_cast<std::uint32_t>(m_ >> 31) >> (32 - k);
      const std::int32_t q = (m_ + static_cast<std::int32_t>(bias)) >> k;
      st<std::int32_t>(addr_of(base, cage, in->d), q);
      NEXT;
    }

    // ---- shape-specialised handlers (DIS_SHAPED_HANDLERS in decode.h) ----
#define OF(o) (base[kFp] + in->o.a)           // F: a frame word
#define OI(o) (in->o.b)                       // I: the immediate itself
#define OX(o) fp_ind(base[kFp], cage, in->o)  // X: b(a(fp)), nil checked
#define WBIN(name, expr)                                      \
  LS_##name##_IFF : {                                         \
    const std::int32_t s_ = OI(s), m_ = LW(OF(m));            \
    st<std::int32_t>(OF(d), static_cast<std::int32_t>(expr)); \
    NEXT;                                                     \
  }
#define WBIN_FFF(name, expr)                                  \
  LS_##name##_FFF : {                                         \
    const std::int32_t s_ = LW(OF(s)), m_ = LW(OF(m));        \
    st<std::int32_t>(OF(d), static_cast<std::int32_t>(expr)); \
    NEXT;                                                     \
  }
#define U32(x) static_cast<std::uint32_t>(x)
      WBIN(addw, U32(m_) + U32(s_))
      WBIN(subw, U32(m_) - U32(s_))
      WBIN(mulw, U32(m_) * U32(s_))
      WBIN(andw, m_ & s_)
      WBIN(orw, m_ | s_)
      WBIN(xorw, m_ ^ s_)
      WBIN(shlw, U32(m_) << (s_ & 31))
      WBIN(shrw, m_ >> (s_ & 31))
      WBIN(lsrw, U32(m_) >> (s_ & 31))
      WBIN_FFF(addw, U32(m_) + U32(s_))
      WBIN_FFF(subw, U32(m_) - U32(s_))
      WBIN_FFF(mulw, U32(m_) * U32(s_))
    LS_addw_FFX : {
      const std::int32_t s_ = LW(OF(s)), m_ = LW(OF(m));
      st<std::int32_t>(OX(d), static_cast<std::int32_t>(U32(m_) + U32(s_)));
      NEXT;
    }
    LS_addw_IFX : {
      const std::int32_t s_ = OI(s), m_ = LW(OF(m));
      st<std::int32_t>(OX(d), static_cast<std::int32_t>(U32(m_) + U32(s_)));
      NEXT;
    }
    LS_subw_IFX : {
      const std::int32_t s_ = OI(s), m_ = LW(OF(m));
      st<std::int32_t>(OX(d), static_cast<std::int32_t>(U32(m_) - U32(s_)));
      NEXT;
    }
#undef U32
    LS_movw_FIF:
      st<std::int32_t>(OF(d), LW(OF(s)));
      NEXT;
    LS_movw_IIF:
      st<std::int32_t>(OF(d), OI(s));
      NEXT;
    LS_movw_XIF:
      st<std::int32_t>(OF(d), LW(OX(s)));
      NEXT;
    LS_movw_FIX : {
      const std::int32_t v = LW(OF(s));
      st<std::int32_t>(OX(d), v);
      NEXT;
    }
    LS_movw_IIX:
      st<std::int32_t>(OX(d), OI(s));
      NEXT;
    LS_lea_FIX : {
      const auto v = static_cast<Ptr>(OF(s) - cage);
      st<Ptr>(OX(d), v);
      NEXT;
    }
#define INDW_FFF()                               \
  do {                                           \
    const Ptr a_ = LP(OF(s));                    \
    const std::int32_t i_ = LW(OF(d));           \
    st<Ptr>(OF(m), index_elem(heap, a_, i_, 4)); \
  } while (0)
    // The frame's address is stored after the push (a frame word cannot
    // fault), so nothing is held across it.
#define FRAME_IIF()                                                                        \
  do {                                                                                     \
    const Ptr f_ = vm.push_frame_sized(p, static_cast<std::uint32_t>(in->aux),             \
                                       static_cast<std::uint32_t>(in->s.b), in->m.b != 0); \
    st<Ptr>(OF(d), f_);                                                                    \
  } while (0)
    LS_frame_IIF:
      FRAME_IIF();
      NEXT;
    // A pointer move with its counts: the destination is found (and may
    // fault) before the new reference is taken.
    LS_movp_FIX : {
      std::uint8_t* d_ = OX(d);
      const Ptr v = LP(OF(s));
      heap.incref(v);
      put_ptr(d_, v);
      NEXT;
    }
    LS_movp_FIF : {
      const Ptr v = LP(OF(s));
      heap.incref(v);
      put_ptr(OF(d), v);
      NEXT;
    }
    LS_indw_FFF:
      INDW_FFF();
      NEXT;

      // ---- fused pairs (the _NEXTOP shapes): the second instruction is
      // dispatched by a direct jump. It is counted against the budget like
      // any other, and under a probe (which must see every instruction) or
      // at the budget's end it is left to the ordinary dispatch.
#define THEN(label)                       \
  if (Probe::active || budget == 0) NEXT; \
  --budget;                               \
  in = ip++;                              \
  goto label
    LS_lea_FIX_call : {
      const auto v = static_cast<Ptr>(OF(s) - cage);
      st<Ptr>(OX(d), v);
      THEN(LD_call);
    }
    LS_indw_FFF_movw:
      INDW_FFF();
      THEN(LS_movw_IIX);
    LS_indw_FFF_beqw:
      INDW_FFF();
      THEN(LS_beqw_XII);
    LS_addw_IFF_jmp:
      st<std::int32_t>(OF(d), static_cast<std::int32_t>(static_cast<std::uint32_t>(LW(OF(m))) +
                                                        static_cast<std::uint32_t>(OI(s))));
      THEN(LD_jmp);
    LS_addw_FFF_jmp:
      st<std::int32_t>(OF(d), static_cast<std::int32_t>(static_cast<std::uint32_t>(LW(OF(m))) +
                                                        static_cast<std::uint32_t>(LW(OF(s)))));
      THEN(LD_jmp);
#undef THEN
#undef INDW_FFF
#undef FRAME_IIF
#define WCMP(name, op)                                  \
  LS_##name##_FFI : { BRANCH(LW(OF(s)) op LW(OF(m))); } \
  LS_##name##_FII : { BRANCH(LW(OF(s)) op OI(m)); }
      WCMP(beqw, ==)
      WCMP(bnew, !=)
      WCMP(bltw, <)
      WCMP(blew, <=)
      WCMP(bgtw, >)
      WCMP(bgew, >=)
    LS_beqw_XII : { BRANCH(LW(OX(s)) == OI(m)); }
    LS_bltw_IFI : { BRANCH(OI(s) < LW(OF(m))); }
    LS_bgew_IFI : { BRANCH(OI(s) >= LW(OF(m))); }
#undef WCMP
#undef WBIN
#undef WBIN_FFF
#undef OF
#undef OI
#undef OX
#undef NEXT
#undef PROBE_STEP
    } catch (DisError& e) {
      // The faulting instruction is `in`.
      p.ml = mli;
      p.pc = in ? static_cast<std::int32_t>(in - code) : p.pc;
      if (vm.halted) LEAVE;
      if (!vm.handle_exception(p, e.msg, e.value)) LEAVE;
      load_regs();
    } catch (...) {
      if constexpr (kInlineProbe) probe.leave(hot);
      left = budget;
      throw;
    }
  }
#undef LEAVE
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
