// Internal: questions asked of every node of an expression tree (its
// operands, arguments and initialiser values), answered by one walk.
#pragma once

#include "ast.h"

namespace dis::limbo {

// Whether some node of e (e included) satisfies pred.
template <class Pred>
bool any_node(const Expr* e, const Pred& pred) {
  if (!e) return false;
  if (pred(e)) return true;
  if (any_node(e->a.get(), pred) || any_node(e->b.get(), pred) || any_node(e->c.get(), pred))
    return true;
  for (auto& x : e->args)
    if (any_node(x.get(), pred)) return true;
  for (auto& in : e->inits)
    if (any_node(in.value.get(), pred)) return true;
  return false;
}

// Whether e contains an assignment; with_incdec, also a ++ or -- (which
// change a variable too: what matters when a name stands for a value).
inline bool assigns(const Expr* e, bool with_incdec) {
  return any_node(e, [with_incdec](const Expr* n) {
    if (n->kind == Expr::Assign) return true;
    if (!with_incdec) return false;
    return n->kind == Expr::PostInc || n->kind == Expr::PostDec ||
           (n->kind == Expr::Unary && (n->op == "++" || n->op == "--"));
  });
}

}  // namespace dis::limbo
