// Updates of a string's character in place: `s[i] op= v`, `s[i]++` and
// `--s[i]`. A string element has no address (Dis reads it with indc and
// writes it with insc), so the character is read, changed and stored back.
#include "compiler_impl.h"

namespace dis::limbo {

bool Compiler::is_str_elem(const Expr* e) {
  return e->kind == Expr::Index && type_of(e->a.get())->k == TK::String;
}

Loc Compiler::str_elem_update(const Expr* ix, const std::string& op, const Expr* rhs, bool post,
                              const Loc* dest) {
  Op aop = arith_op(op, TK::Int);
  if (aop == Op::nop_) fail(ix->pos, "operator " + op + " not defined on int");
  Loc s = lvalue(ix->a.get());
  Loc i = gen_to(ix->b.get(), t_int_);
  Loc c = temp(t_int_);
  emit(Op::indc_, s.op, as_mid(i), c.op);
  Loc old;
  if (post) {
    old = dest ? *dest : temp(t_int_);
    move(c, old);
  }
  Operand v = rhs ? gen_to(rhs, t_int_).op : imm(1);
  emit(aop, v, Middle{}, c.op);
  emit(Op::insc_, c.op, as_mid(i), s.op);
  if (post) return old;
  if (dest) move(c, *dest);
  return dest ? *dest : c;
}

std::optional<Loc> Compiler::gen_str_step(const Expr* e, const Loc* dest) {
  bool post = e->kind == Expr::PostInc || e->kind == Expr::PostDec;
  bool pre = e->kind == Expr::Unary && (e->op == "++" || e->op == "--");
  if ((!post && !pre) || !is_str_elem(e->a.get())) return std::nullopt;
  bool inc = e->kind == Expr::PostInc || e->op == "++";
  return str_elem_update(e->a.get(), inc ? "+" : "-", nullptr, post, dest);
}

}  // namespace dis::limbo
