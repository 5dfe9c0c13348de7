// `ref Adt.Tag(...)` has the variant's type where a variable takes it (Limbo
// reference 8.x: `n := ref E.Num(42)` reaches n.v). Elsewhere the expression
// stays a `ref Adt`, so that array and list literals mixing variants keep the
// adt as their element type.
#include "compiler_impl.h"

namespace dis::limbo {

Type* Compiler::variant_ref_type(const Expr* e) {
  if (e->kind != Expr::Unary || e->op != "ref") return nullptr;
  const Expr* a = e->a.get();
  Type* t = adt_type_named(a->kind == Expr::Call ? a->a.get() : a);
  if (!t || t->k != TK::Pick) return nullptr;
  return mk(TK::Ref, t);
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
