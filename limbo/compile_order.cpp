// Code whose order of evaluation follows Inferno's compiler (eval_order.h).
#include "compiler_impl.h"
#include "eval_order.h"

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
  if (!right_first(e->a.get(), e->b.get(), order)) {
    Loc a = gen_to(e->a.get(), ta);
    Loc b = gen_to(e->b.get(), tb);
    return {a, b};
  }
  Loc b = gen_to(e->b.get(), tb);
  // An element or field address would not survive a call that frees what
  // holds it: keep the value instead.
  if (is_ind(b.op) && has_call(e->a.get())) {
    Loc v = temp(b.t);
    move(b, v);
    b = v;
  }
  Loc a = gen_to(e->a.get(), ta);
  return {a, b};
}

// The array and index are computed before the value, as Inferno does; the
// array is held in a temporary so that a call in the value replacing it
// leaves the element's address valid (Inferno stores into the old array too).
void Compiler::assign_index(const Expr* lhs, const Expr* rhs) {
  Type* at = type_of(lhs->a.get());
  if (at->k != TK::Array) fail(lhs->pos, "cannot index " + type_name(at));
  Loc arr = temp(at);
  Loc i = temp(t_int_);
  if (right_first(lhs->a.get(), lhs->b.get())) {
    gen_to(lhs->b.get(), t_int_, &i);
    gen_to(lhs->a.get(), at, &arr);
  } else {
    gen_to(lhs->a.get(), at, &arr);
    gen_to(lhs->b.get(), t_int_, &i);
  }
  Type* et = at->elem;
  Loc addr = temp(t_int_);
  emit(index_op(et), arr.op, Middle{MidMode::Fp, addr.op.a}, i.op);
  Loc elem{Operand{AddrMode::IndFp, addr.op.a, 0}, et};
  gen_to(rhs, et, &elem);
}

}  // namespace dis::limbo
