// Evaluation order of operands, following the Sethi-Ullman numbers Inferno's
// compiler labels its expression trees with (DIS-FACTS; checked against the
// difftest corpus's r_eval_order: `a() + b()*c()` calls b, c, then a).
#include "eval_order.h"

#include <algorithm>

#include "expr_walk.h"

namespace dis::limbo {

bool has_call(const Expr* e) {
  return any_node(e, [](const Expr* n) {
    return n->kind == Expr::Call || n->kind == Expr::Load ||
           (n->kind == Expr::Unary && n->op == "<-");
  });
}

namespace {

// The number of a node with two operands: the larger, or one more on a tie
// (both results must be held at once).
int combine(int l, int r) { return l == r ? l + 1 : std::max(l, r); }

// At least one for a node that is computed (not directly addressed).
int computed(int n) { return std::max(n, 1); }

bool is_literal(const Expr* e) {
  switch (e->kind) {
    case Expr::IntLit:
    case Expr::RealLit:
    case Expr::StrLit:
    case Expr::Nil:
      return true;
    case Expr::Unary:
      return e->op == "-" && is_literal(e->a.get());
    case Expr::Binary:
      return is_literal(e->a.get()) && is_literal(e->b.get());
    default:
      return false;
  }
}

// A call's arguments form a list whose last cell holds one value.
int args_temps(const std::vector<ExprP>& args, std::size_t from) {
  if (from + 1 >= args.size()) return computed(su_temps(args[from].get()));
  return computed(combine(su_temps(args[from].get()), args_temps(args, from + 1)));
}

}  // namespace

int su_temps(const Expr* e) {
  if (!e || is_literal(e)) return 0;
  switch (e->kind) {
    case Expr::Ident:
    case Expr::Self:
    case Expr::TypeRef:
      return 0;
    case Expr::Field:
      // A field of a name is addressed through it; deeper, the base is computed.
      return e->a->kind == Expr::Ident ? 0 : computed(su_temps(e->a.get()));
    case Expr::Call:
      // A call counts as needing two at least: it is computed before an
      // operand needing one (`sys->read(fd, buf, len buf) != len buf`
      // calls, then takes len), as Inferno's compiler orders them.
      return std::max(e->args.empty() ? 1 : args_temps(e->args, 0), 2);
    case Expr::Binary:
    case Expr::Index:
    case Expr::Assign:
      return computed(combine(su_temps(e->a.get()), su_temps(e->b.get())));
    default: {
      int n = su_temps(e->a.get());
      for (const Expr* x : {e->b.get(), e->c.get()})
        if (x) n = combine(n, su_temps(x));
      for (auto& x : e->args) n = combine(n, su_temps(x.get()));
      return computed(n);
    }
  }
}

bool right_first(const Expr* left, const Expr* right, Order order) {
  int l = su_temps(left), r = su_temps(right);
  return order == Order::Arith ? r > l : r > 0 && r >= l;
}

}  // namespace dis::limbo
