// Code whose order of evaluation follows Inferno's compiler (eval_order.h).
#include "compiler_impl.h"
#include "eval_order.h"
#include "expr_walk.h"

namespace dis::limbo {

// Inferno's compiler selects the index instruction by the element's size:
// a byte, a word (an int or a pointer), a real, another 8-byte value (a big,
// a small adt or tuple), anything else.
Op index_op(const Type* et) {
  if (et->k == TK::Byte) return Op::indb_;
  if (et->k == TK::Real) return Op::indf_;
  switch (type_size(et)) {
    case 4:
      return Op::indw_;
    case 8:
      return Op::indl_;
    default:
      return Op::indx_;
  }
}

std::pair<Loc, Loc> Compiler::gen_operands(const Expr* e, Type* ta, Type* tb, Order order) {
  // The operand computed first, when it is read through a temporary, is
  // copied out of it at once and the temporary freed, as Inferno's
  // compiler does before it computes the other.
  // (Not when a commutative operation can take it as its source.)
  const bool swaps = (e->op == "+" && ta && ta->k != TK::String) || e->op == "*" || e->op == "&" ||
                     e->op == "|" || e->op == "^";
  const int rb = addressing_rank(e->b.get());
  auto settle = [&](Loc l) {
    if (order != Order::Arith || (swaps && (rb <= 1 || rb == 6))) return l;
    return l.op.mode == AddrMode::IndFp && busy_temp(l.op.a) ? load_temp(l, true) : l;
  };
  if (!right_first(e->a.get(), e->b.get(), order)) {
    Loc a = settle(gen_to(e->a.get(), ta));
    Loc b = gen_to(e->b.get(), tb);
    return {a, b};
  }
  Loc b = gen_to(e->b.get(), tb);
  // A comparison's right operand is its middle one (unless the left is the
  // more directly addressed, gen_cond's right_src): read through a
  // temporary, it is copied out at once and the temporary freed for the
  // left one (`movb 0(t),x; indb a,t,i; beqb 0(t),x`), as Inferno's
  // compiler does.
  if (order == Order::Compare && b.op.mode == AddrMode::IndFp && busy_temp(b.op.a) &&
      addressing_rank(e->a.get()) >= rb) {
    b = load_temp(b, true);
  } else if (is_ind(b.op) && has_call(e->a.get())) {
    // An element or field address would not survive a call that frees
    // what holds it: keep the value instead.
    Loc v = temp(b.t);
    move(b, v);
    b = v;
  }
  Loc a = gen_to(e->a.get(), ta);
  return {a, b};
}

// The array and index are computed before the value, as Inferno does; an
// array that is not a local or temporary is held in a temporary so that a
// call in the value replacing it leaves the element's address valid
// (Inferno's compiler indexes a global directly and stores into the old
// array too; only a local goes uncopied here, as there).
void Compiler::assign_index(const Expr* lhs, const Expr* rhs) {
  Type* at = type_of(lhs->a.get());
  if (at->k != TK::Array) fail(lhs->pos, "cannot index " + type_name(at));
  // A local array needs no copy: no call can replace it. The index is
  // used before the value is computed.
  auto array = [&] {
    Loc a = gen_to(lhs->a.get(), at);
    if (a.op.mode == AddrMode::Fp) return a;
    // A global is indexed where it is when the value calls and assigns
    // nothing that could replace it (`buckets[h] = x :: buckets[h]`), as
    // Inferno's is.
    if (a.op.mode == AddrMode::Mp && !calls(rhs) && !assigns(rhs, false)) return a;
    Loc held = temp(at);
    move(a, held);
    return held;
  };
  Loc arr, i;
  if (right_first(lhs->a.get(), lhs->b.get())) {
    i = gen_to(lhs->b.get(), t_int_);
    arr = array();
  } else {
    arr = array();
    i = gen_to(lhs->b.get(), t_int_);
  }
  Type* et = at->elem;
  Loc addr = temp(t_int_);
  emit(index_op(et), arr.op, Middle{MidMode::Fp, addr.op.a}, i.op);
  Loc elem{Operand{AddrMode::IndFp, addr.op.a, 0}, et};
  // The array is held (a local, or the temporary above): a call's result
  // goes straight into the element (`lea 0(t),16(f)`), as Inferno's does.
  Pushed held(new_objects_, addr.op.a);
  gen_to(rhs, et, &elem);
  assigned_elem_ = elem;
}

// How directly e's value can be addressed, in the order of Inferno's
// compiler: a local, a global (nil is one), a constant, a field through a
// local or global reference, then anything computed (kNeedsCode).
int Compiler::addressing_rank(const Expr* e) {
  if (e->kind == Expr::Nil) return 1;
  if (const_eval(e)) return 6;
  if (e->kind == Expr::Ident) {
    Sym* s = lookup(e->op);
    if (!s || s->kind != Sym::Var) return kNeedsCode;
    return s->loc.mode == AddrMode::Fp ? 0 : s->loc.mode == AddrMode::Mp ? 1 : kNeedsCode;
  }
  if (e->kind == Expr::Field && e->a->kind == Expr::Ident) {
    int base = addressing_rank(e->a.get());
    if (base > 1) return kNeedsCode;
    Type* t = type_of(e->a.get());
    if (t->k == TK::Ref) return 8 + base;
    if (t->k == TK::Adt || t->k == TK::Tuple) return base;
  }
  // A field of an adt held in a field (`raw.r.max.y`) is addressed as that
  // field is.
  if (e->kind == Expr::Field && e->a->kind == Expr::Field) {
    Type* t = type_of(e->a.get());
    if (t->k == TK::Adt || t->k == TK::Tuple) return addressing_rank(e->a.get());
  }
  return kNeedsCode;
}

Loc Compiler::gen_slice(const Expr* e, const Loc* dest) {
  Type* at = type_of(e->a.get());
  if (at->k != TK::String && at->k != TK::Array) fail(e->pos, "cannot slice " + type_name(at));
  bool const_bounds = const_eval(e->b.get()) && (!e->c || const_eval(e->c.get()));
  // Sliced in place where it goes: an argument's slot (nothing else can
  // see it yet), or a variable when the bounds cannot read it.
  const bool in_place =
      dest && same_type(dest->t, at) &&
      (is_arg_slot(dest->op) || (!is_ind(dest->op) && (const_bounds || names(e->a.get(), *dest))));
  if (addressing_rank(e->a.get()) < kNeedsCode) return gen_slice_of_name(e, at, dest);
  Loc r = in_place ? *dest : temp(at);
  gen_to(e->a.get(), at, &r);
  Loc lo = gen_to(e->b.get(), t_int_);
  Loc hi;
  if (e->c) {
    hi = gen_to(e->c.get(), t_int_);
  } else {
    hi = temp(t_int_);
    emit(at->k == TK::String ? Op::lenc_ : Op::lena_, r.op, hi.op);
  }
  emit(at->k == TK::String ? Op::slicec_ : Op::slicea_, lo.op, as_mid(hi), r.op);
  return deliver(r, dest);
}

// A slice of what a name (or a field) holds: the bounds first, the upper
// one first unless the lower calls something, then the value is copied where
// it goes and sliced there, as Inferno's compiler orders it; no bound can
// see the destination change.
Loc Compiler::gen_slice_of_name(const Expr* e, Type* at, const Loc* dest) {
  const bool str = at->k == TK::String;
  Loc src = gen(e->a.get());
  Loc lo, hi;
  auto upper = [&] {
    if (e->c) {
      hi = gen_to(e->c.get(), t_int_);
    } else {
      hi = temp(t_int_);
      emit(str ? Op::lenc_ : Op::lena_, src.op, hi.op);
    }
  };
  if (has_call(e->b.get())) {
    lo = gen_to(e->b.get(), t_int_);
    upper();
  } else {
    upper();
    lo = gen_to(e->b.get(), t_int_);
  }
  const bool direct_ok = dest && same_type(dest->t, at) && dest->op.mode != AddrMode::IndMp;
  Loc r = direct_ok ? *dest : temp(at);
  move(src, r);
  emit(str ? Op::slicec_ : Op::slicea_, lo.op, as_mid(hi), r.op);
  return deliver(r, dest);
}

}  // namespace dis::limbo
