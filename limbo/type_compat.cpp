// Whether a value of one type may go where another is wanted (assignment,
// arguments, list construction), as Inferno's tcompat decides, and the
// pick-adt parent two variants share (its tparent).
#include <algorithm>

#include "compiler_impl.h"

namespace dis::limbo {

void Compiler::check_assignable(Type* to, Type* from, const Pos& pos, const char* what) {
  if (to->k == TK::Error || from->k == TK::Error) return;
  if (from->k == TK::Nil && is_pointer(to)) return;
  if (from->k == TK::Pick && to->k == TK::Ref) return;
  if (to->k == TK::Ref && from->k == TK::Ref && to->elem->k == TK::Adt &&
      from->elem->k == TK::Pick && from->elem->adt == to->elem->adt)
    return;
  if (pick_assignable(to, from)) return;
  if (!assignable_type(to, from))
    fail(pos, std::string("type mismatch in ") + what + ": " + type_name(to) + " and " +
                  type_name(from));
}

// Inferno's tcompat on pick adts, beyond `ref A = ref A.X`: two variants of
// one adt with the same fields (names and types) are one type (keyreps.m's
// `PK =>` and `SK =>`, both empty), and a list of ref A takes a list of
// ref A.X (not an array or channel: their elements are not converted).
bool Compiler::pick_assignable(Type* to, Type* from) {
  if (to->k == TK::List && from->k == TK::List && to->elem->k == TK::Ref &&
      from->elem->k == TK::Ref) {
    Type *a = to->elem->elem, *b = from->elem->elem;
    if (a->k == TK::Adt && a->adt->is_pick && b->k == TK::Pick && b->adt == a->adt) return true;
    return pick_assignable(to->elem, from->elem);
  }
  if (to->k != TK::Ref || from->k != TK::Ref) return false;
  Type *a = to->elem, *b = from->elem;
  if (a->k != TK::Pick || b->k != TK::Pick || a->adt != b->adt) return false;
  const auto& fa = a->adt->variants[static_cast<std::size_t>(a->adt->tag_variant[a->tag])].fields;
  const auto& fb = b->adt->variants[static_cast<std::size_t>(b->adt->tag_variant[b->tag])].fields;
  return std::equal(fa.begin(), fa.end(), fb.begin(), fb.end(),
                    [](auto& x, auto& y) { return x.name == y.name && same_type(x.type, y.type); });
}

// `ref A.X` and `ref A.Y` (or `ref A`), X and Y variants of the pick adt A:
// `ref A`; else null.
Type* Compiler::pick_parent(Type* a, Type* b) {
  if (a->k != TK::Ref || b->k != TK::Ref || same_type(a, b)) return nullptr;
  Type *x = a->elem, *y = b->elem;
  bool pick_x = x->k == TK::Pick || (x->k == TK::Adt && x->adt->is_pick);
  bool pick_y = y->k == TK::Pick || (y->k == TK::Adt && y->adt->is_pick);
  if (!pick_x || !pick_y || x->adt != y->adt) return nullptr;
  return mk(TK::Ref, x->adt->type);
}

}  // namespace dis::limbo
