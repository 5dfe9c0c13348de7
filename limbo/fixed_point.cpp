// Fixed-point types (the 2005 addendum to the Limbo reference): a value of
// type fixed(s, m) is an int word x standing for x * unit, the unit being s
// divided by the largest power of two that keeps m / unit within 31 bits.
//
// Every operation multiplies integers by a ratio of units: a cast x -> z by
// u1/u2 (an int's unit is 1), a product Z = X*Y by u (z = u*x*y), a quotient
// Z = X/Y by 1/u (z = x/(u*y)). The ratio picks the instruction:
//   2^p                      the shift forms (cvtxx, mulx, divx): floor,
//   2^p / a, n * 2^p / a     cvtxx0, mulx0 (the divisor a at 20(fp)),
//   n * 2^p                  divx0 (the multiplier n at 20(fp)),
// with small integers n and a found from the ratio; each truncates or
// floors once, so |z - ratio*x*y| < 1, the addendum's accuracy law. Any
// other ratio goes through reals (cvtxf, mulf/divf, cvtfx rounding to
// nearest), within the law as well.
#include <cmath>

#include "compiler_impl.h"
#include "const_cast_fold.h"

namespace dis::limbo {

namespace {

// A ratio as n * 2^p / a (n, a > 0), or none (real_only).
struct Ratio {
  std::int32_t n = 1, a = 1, p = 0;
  bool real_only = false;
};

// n/a close to m (in [0.5, 1)) to the last bits of a double: the continued
// fraction's convergents up to 2^20.
bool small_fraction(double m, std::int64_t& n, std::int64_t& a) {
  std::int64_t h0 = 0, h1 = 1, k0 = 1, k1 = 0;
  double x = m;
  for (int i = 0; i < 40; ++i) {
    double f = std::floor(x);
    auto q = static_cast<std::int64_t>(f);
    std::int64_t h2 = q * h1 + h0, k2 = q * k1 + k0;
    if (h2 > (1 << 20) || k2 > (1 << 20)) return false;
    h0 = h1, h1 = h2, k0 = k1, k1 = k2;
    if (std::fabs(static_cast<double>(h1) / static_cast<double>(k1) - m) <= m * 0x1p-50) {
      n = h1, a = k1;
      return true;
    }
    if (x - f == 0) return false;
    x = 1 / (x - f);
  }
  return false;
}

Ratio ratio_of(double r) {
  Ratio out;
  int e = 0;
  double m = std::frexp(r, &e);  // r = m * 2^e, m in [0.5, 1)
  std::int64_t n = 1, a = 1;
  if (m != 0.5 && !small_fraction(m, n, a)) {
    out.real_only = true;
    return out;
  }
  if (m == 0.5) e -= 1;
  std::int32_t p = e;
  while (n % 2 == 0) n /= 2, ++p;
  while (a % 2 == 0) a /= 2, --p;
  out.n = static_cast<std::int32_t>(n);
  out.a = static_cast<std::int32_t>(a);
  out.p = p;
  out.real_only = p < -62 || p > 62;
  return out;
}

// The VM's fixed-point arithmetic on constants (vm/core/interp_loop.inc):
// 64-bit, shifts arithmetic, divisions truncating.
std::int64_t shifted(std::int64_t v, std::int32_t p) {
  return p >= 0 ? static_cast<std::int64_t>(static_cast<std::uint64_t>(v) << p) : v >> -p;
}

// real_to_int of the VM: to nearest, halves away from zero.
std::optional<std::int32_t> rounded(double x) {
  const double y = x < 0 ? x - .5 : x + .5;
  if (!(y > -2147483649.0 && y < 2147483648.0)) return std::nullopt;
  return static_cast<std::int32_t>(y);
}

}  // namespace

Type* Compiler::resolve_fixed(const TypeNode* tn) {
  auto arg = [&](std::size_t i, const char* what) {
    const Expr* x = tn->fixed_args[i].get();
    auto v = const_eval(x);
    if (!v) fail(x->pos, std::string("fixed-point ") + what + " must be a constant");
    if (v->k != TK::Real)
      fail(x->pos,
           std::string("fixed-point ") + what + " must be real, not " + type_name(const_type(*v)));
    if (!(v->r > 0) || std::isinf(v->r))
      fail(x->pos, std::string("fixed-point ") + what + " must be positive and finite");
    return v->r;
  };
  const double scale = arg(0, "scale");
  const bool given = tn->fixed_args.size() > 1;
  const double max = given ? arg(1, "maximum") : 2147483647.0 * scale;
  if (given && max / scale > 2147483647.0 * (1 + 0x1p-40))
    fail(tn->pos, "fixed-point maximum " + fixed_g(max) + " needs more than 31 bits at scale " +
                      fixed_g(scale));
  // The bits the maximum leaves spare make the unit finer (the addendum's
  // compiler "always chooses" accuracy over range).
  int k = 0;
  while (given && k < 62 && max / std::ldexp(scale, -(k + 1)) <= 2147483647.0) ++k;
  Type* t = mk(TK::Fixed);
  t->fx_scale = scale;
  t->fx_max = max;
  t->fx_unit = std::ldexp(scale, -k);
  return t;
}

Type* Compiler::fixed_call_type(const Expr* call) {
  if (call->kind != Expr::Call) return nullptr;
  const Expr* f = call->a.get();
  // A type name of a module: `Mod->fpt`, or imported (`fpt: import Mod;`).
  auto member_type = [](const ModInfo* m, const std::string& name) -> Type* {
    auto it = m->members.find(name);
    return it != m->members.end() && it->second.kind == ModMember::TypeName ? it->second.type
                                                                            : nullptr;
  };
  Type* t = nullptr;
  if (f->kind == Expr::Ident) {
    const Sym* s = lookup(f->op);
    if (s && s->kind == Sym::TypeAlias) t = s->type;
    if (s && s->kind == Sym::Imported && s->mod) t = member_type(s->mod, s->member);
  } else if (f->kind == Expr::ModField && f->a->kind == Expr::Ident) {
    const Sym* s = lookup(f->a->op);
    if (s && s->kind == Sym::ModType) t = member_type(s->mod, f->op);
  }
  if (!t || t->k != TK::Fixed) return nullptr;
  if (call->args.size() != 1)
    fail(call->pos, "conversion to " + type_name(t) + " takes one value, not " +
                        std::to_string(call->args.size()));
  return t;
}

namespace {

// The int of unit u1 (1: an int) as one of unit u2, as the code the
// compiler makes for it computes it.
std::optional<std::int64_t> rescale_const(std::int64_t x, double u1, double u2) {
  const double r = u1 / u2;
  Ratio q = ratio_of(r);
  if (q.real_only) return rounded(static_cast<double>(x) * r);
  std::int64_t v = q.n == 1 ? shifted(x, q.p) : shifted(x * q.n, q.p);
  v /= q.a;
  if (v < INT32_MIN || v > INT32_MAX) return std::nullopt;
  return v;
}

}  // namespace

std::optional<ConstVal> Compiler::const_fixed(const ConstVal& v, Type* to, const Pos& pos) {
  std::optional<std::int64_t> x;
  switch (v.k) {
    case TK::Real:
      x = rounded(v.r * (1 / to->fx_unit));
      break;
    case TK::String:
      x = rounded(fold_string_to_real(v.s) * (1 / to->fx_unit));
      break;
    case TK::Big:
      x = rounded(static_cast<double>(v.i) * (1 / to->fx_unit));
      break;
    case TK::Int:
    case TK::Byte:
      x = rescale_const(static_cast<std::int32_t>(v.i), 1, to->fx_unit);
      break;
    case TK::Fixed:
      x = rescale_const(v.i, v.ft->fx_unit, to->fx_unit);
      break;
    default:
      return std::nullopt;
  }
  if (!x) fail(pos, "constant out of range of " + type_name(to));
  return ConstVal{TK::Fixed, *x, 0, "", to};
}

// z = ratio * x for the int word x, into d.
void Compiler::rescale(const Operand& x, double ratio, const Operand& d) {
  Ratio q = ratio_of(ratio);
  if (q.real_only) {
    Loc f = temp(t_real_);
    emit(Op::cvtxf_, x, as_mid(Loc{real_const(ratio), t_real_}), f.op);
    emit(Op::cvtfx_, f.op, as_mid(Loc{real_const(1.0), t_real_}), d);
    free_temp(f);
  } else if (q.n == 1 && q.a == 1 && q.p == 0) {
    emit(Op::movw_, x, Middle{}, d);
  } else if (q.n == 1 && q.a == 1) {
    emit(Op::cvtxx_, x, Middle{MidMode::Imm, q.p}, d);
  } else if (q.n == 1) {
    emit(Op::movw_, word_const(q.a), Middle{}, fp(kFixedFactor));
    emit(Op::cvtxx0_, x, Middle{MidMode::Imm, q.p}, d);
  } else {
    emit(Op::movw_, imm(q.p), Middle{}, fp(kFixedShift));
    emit(Op::movw_, word_const(q.a), Middle{}, fp(kFixedFactor));
    emit(Op::mulx0_, x, as_mid(Loc{word_const(q.n), t_int_}), d);
  }
}

Loc Compiler::gen_fixed_convert(const Loc& v, Type* to, const Pos& pos, const Loc* dest) {
  Type* from = v.t;
  Loc r = result_loc(to, dest);
  auto through = [&](Op op, Type* t) {  // v converted by op into a temporary of type t
    Loc l = temp(t);
    emit(op, v.op, Middle{}, l.op);
    return l;
  };
  auto fixed_to_real = [&](const Operand& d) {
    emit(Op::cvtxf_, v.op, as_mid(Loc{real_const(from->fx_unit), t_real_}), d);
  };
  auto real_to_fixed = [&](const Operand& f) {
    emit(Op::cvtfx_, f, as_mid(Loc{real_const(1 / to->fx_unit), t_real_}), r.op);
  };
  if (from->k == TK::Fixed && to->k == TK::Fixed) {
    rescale(v.op, from->fx_unit / to->fx_unit, r.op);
  } else if (from->k == TK::Fixed && (to->k == TK::Int || to->k == TK::Byte)) {
    if (to->k == TK::Int) {
      rescale(v.op, from->fx_unit, r.op);
    } else {
      Loc w = temp(t_int_);
      rescale(v.op, from->fx_unit, w.op);
      emit(Op::cvtwb_, w.op, Middle{}, r.op);
      free_temp(w);
    }
  } else if (from->k == TK::Fixed && to->k == TK::Real) {
    fixed_to_real(r.op);
  } else if (from->k == TK::Fixed && (to->k == TK::Big || to->k == TK::String)) {
    Loc f = temp(t_real_);
    fixed_to_real(f.op);
    emit(to->k == TK::Big ? Op::cvtfl_ : Op::cvtfc_, f.op, Middle{}, r.op);
    free_temp(f);
  } else if (from->k == TK::Int) {
    rescale(v.op, 1 / to->fx_unit, r.op);
  } else if (from->k == TK::Byte) {
    Loc w = through(Op::cvtbw_, t_int_);
    rescale(w.op, 1 / to->fx_unit, r.op);
    free_temp(w);
  } else if (from->k == TK::Real) {
    real_to_fixed(v.op);
  } else if (from->k == TK::Big || from->k == TK::String) {
    Loc f = through(from->k == TK::Big ? Op::cvtlf_ : Op::cvtcf_, t_real_);
    real_to_fixed(f.op);
    free_temp(f);
  } else {
    fail(pos, "cannot convert " + type_name(from) + " to " + type_name(to));
  }
  free_temp(v, &r.op);
  return r;
}

// x*y or x/y of one fixed-point type t into d.
void Compiler::emit_fixed_muldiv(bool mul, Type* t, const Loc& x, const Loc& y, const Operand& d) {
  const double ratio = mul ? t->fx_unit : 1 / t->fx_unit;
  Ratio q = ratio_of(ratio);
  // mulx computes n*2^p/a only for n = 1; divx0 n*2^p only for a = 1.
  if (q.real_only || (mul ? q.n != 1 : q.a != 1)) {
    Loc fx = temp(t_real_), fy = temp(t_real_);
    Middle unit = as_mid(Loc{real_const(t->fx_unit), t_real_});
    if (mul) {
      emit(Op::cvtxf_, x.op, unit, fx.op);
      emit(Op::cvtwf_, y.op, Middle{}, fy.op);
      emit(Op::mulf_, fy.op, Middle{MidMode::Fp, fx.op.a}, fx.op);
    } else {
      emit(Op::cvtwf_, x.op, Middle{}, fx.op);
      emit(Op::cvtxf_, y.op, unit, fy.op);
      emit(Op::divf_, fy.op, Middle{MidMode::Fp, fx.op.a}, fx.op);
    }
    emit(Op::cvtfx_, fx.op, as_mid(Loc{real_const(1.0), t_real_}), d);
    free_temp(fx);
    free_temp(fy);
    return;
  }
  Middle m = as_mid(x);
  emit(Op::movw_, imm(q.p), Middle{}, fp(kFixedShift));
  Op op = mul ? Op::mulx_ : Op::divx_;
  if (mul && q.a != 1) {
    emit(Op::movw_, word_const(q.a), Middle{}, fp(kFixedFactor));
    op = Op::mulx0_;
  } else if (!mul && q.n != 1) {
    emit(Op::movw_, word_const(q.n), Middle{}, fp(kFixedFactor));
    op = Op::divx0_;
  }
  emit(op, y.op, m, d);
  if (m.mode == MidMode::Fp && !(x.op == fp(m.a))) free_temp(Loc{fp(m.a), t}, &d);
}

// X*Y and X/Y of one fixed-point type t.
Loc Compiler::gen_fixed_muldiv(const Expr* e, Type* t, const Loc* dest) {
  auto [x, y] = gen_operands(e, t, t);
  Loc r = dest && same_type(dest->t, t) ? *dest : temp(t);
  emit_fixed_muldiv(e->op == "*", t, x, y, r.op);
  free_temp(x, &r.op);
  free_temp(y, &r.op);
  return deliver(r, dest);
}

}  // namespace dis::limbo
