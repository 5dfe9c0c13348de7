// The type a name declared with `:=` takes from its value where that differs
// from the value's type elsewhere.
//
// `ref Adt.Tag(...)` has the variant's type where a variable takes it
// (`n := ref E.Num(42)` reaches n.v). Elsewhere the expression stays a
// `ref Adt`, so that array and list literals mixing variants keep the adt as
// their element type.
//
// A decimal literal beyond the int range (`x := 2147483649`) declares a big,
// as in Inferno's compiler (r_big_literal's module); in an expression, and
// written with a radix (`16rffffffff`), it still wraps into an int.
#include "compiler_impl.h"

namespace dis::limbo {

Type* Compiler::variant_ref_type(const Expr* e) {
  if (e->kind != Expr::Unary || e->op != "ref") return nullptr;
  const Expr* a = e->a.get();
  Type* t = adt_type_named(a->kind == Expr::Call ? a->a.get() : a);
  if (!t || t->k != TK::Pick) return nullptr;
  return mk(TK::Ref, t);
}

Type* Compiler::declared_type(const Expr* rhs, Type* t) {
  if (Type* vt = variant_ref_type(rhs)) return vt;
  const Expr* lit = rhs->kind == Expr::Unary && rhs->op == "-" ? rhs->a.get() : rhs;
  if (t->k == TK::Int && lit->kind == Expr::IntLit && !lit->radix && lit->ival > 0x7fffffff &&
      !(rhs != lit && lit->ival == 0x80000000LL))
    return t_big_;
  return t;
}

std::optional<Loc> Compiler::gen_variant_to(const Expr* e, Type* want, const Loc* dest) {
  if (!want || want->k != TK::Ref || want->elem->k != TK::Pick) return std::nullopt;
  Type* vt = variant_ref_type(e);
  if (!vt) return std::nullopt;
  check_assignable(want, vt, e->pos, "assignment");
  Loc l = gen(e, dest);
  return dest ? *dest : Loc{l.op, want};
}

}  // namespace dis::limbo
