// Tuples laid out in place: `(a, b) := f()` declares its names where the
// tuple's members are and the value goes straight there, and `(a, b) = g()`
// writes those names whole, as Inferno's compiler does (no temporary, no
// copy).
#include "compiler_impl.h"

namespace dis::limbo {

// `(a, b) := f(...)` (or `hd l`, `<-c`) with names only: the names are laid
// out as the tuple is and the value goes straight into them, as Inferno's
// compiler does (no temporary, no copy). False if the form does not fit.
bool Compiler::declare_tuple_in_place(const Expr* lhs, const Expr* rhs) {
  bool head_or_recv = rhs->kind == Expr::Unary && (rhs->op == "hd" || rhs->op == "<-");
  const bool literal = rhs->kind == Expr::TupleLit;
  if (rhs->kind != Expr::Call && !head_or_recv && !literal) return false;
  Type* t = type_of(rhs);
  if (t->k != TK::Tuple || t->elems.size() != lhs->args.size()) return false;
  for (auto& x : lhs->args)
    if (x->kind != Expr::Ident) return false;
  // Inside a nested block Inferno's compiler does so only when the call
  // reads no variable of that same block; else it unpacks a temporary.
  // A for loop's init part counts as a block of its own (sort's `for((i,
  // j, k) := (0, m, 0); ...)` in place beside m).
  if (block_depth_ > 1 && !(for_init_ && literal) && reads_scope_var(rhs, scopes_.back()))
    return false;
  Loc whole{fp(frame_alloc(t)), t};
  if (literal) {
    // `(i, j, k) := (0, n, 0)`: each value straight into its name.
    Pushed built(building_, whole.op.a, whole.op.a + type_size(t));
    gen_to(rhs, t, &whole);
  } else {
    gen_to(rhs, t, &whole);
  }
  declare_tuple_names(lhs, whole, !literal);
  return true;
}

// The names of lhs (all identifiers) declared at the members of the tuple
// whole; twice: the pointers of its last name holding any are reset twice
// when the block is left.
void Compiler::declare_tuple_names(const Expr* lhs, const Loc& whole, bool twice) {
  auto slots = value_slots(whole.t);
  std::size_t last_ptr = slots.size();
  for (std::size_t i = 0; i < slots.size(); ++i) {
    std::vector<std::int32_t> ptrs;
    pointer_offsets(slots[i].second, 0, ptrs);
    if (!ptrs.empty()) last_ptr = i;
  }
  for (std::size_t i = 0; i < slots.size(); ++i) {
    const Expr* x = lhs->args[i].get();
    Sym s;
    s.kind = Sym::Var;
    s.type = slots[i].second;
    s.loc = fp(whole.op.a + slots[i].first);
    s.nil_twice = twice && i == last_ptr;
    s.tuple_at = whole.op.a;
    scopes_.back()[x->op] = s;
    note_local(x->op, s.type, s.loc.a, x->pos);
  }
}

// The tuple lhs names when they are, in order, all the names of one tuple
// declared in place with t's layout.
std::optional<Loc> Compiler::names_tuple(const Expr* lhs, Type* t) {
  if (t->k != TK::Tuple || t->elems.size() != lhs->args.size()) return std::nullopt;
  auto slots = value_slots(t);
  std::int32_t at = -1;
  for (std::size_t i = 0; i < slots.size(); ++i) {
    const Expr* x = lhs->args[i].get();
    Sym* s = x->kind == Expr::Ident ? lookup(x->op) : nullptr;
    if (!s || s->kind != Sym::Var || s->tuple_at < 0 || s->loc.mode != AddrMode::Fp)
      return std::nullopt;
    if (i == 0) at = s->tuple_at;
    if (s->tuple_at != at || s->loc.a != at + slots[i].first ||
        !same_type(s->type, slots[i].second))
      return std::nullopt;
  }
  return Loc{fp(at), t};
}

// Whether e reads a variable of scope (an identifier it resolves to).
bool Compiler::reads_scope_var(const Expr* e, const Scope& scope) const {
  if (!e) return false;
  if (e->kind == Expr::Ident) {
    auto it = scope.find(e->op);
    return it != scope.end() && it->second.kind == Sym::Var;
  }
  if (reads_scope_var(e->a.get(), scope) || reads_scope_var(e->b.get(), scope) ||
      reads_scope_var(e->c.get(), scope))
    return true;
  for (auto& x : e->args)
    if (reads_scope_var(x.get(), scope)) return true;
  for (auto& in : e->inits) {
    if (reads_scope_var(in.value.get(), scope)) return true;
    for (auto& k : in.keys)
      if (reads_scope_var(k.get(), scope)) return true;
  }
  return false;
}

// `(a, b) = f(...)` (or `hd l`, `<-c`) into the names of one tuple declared
// in place: the value goes there whole. False if the form does not fit.
bool Compiler::assign_tuple_in_place(const Expr* lhs, const Expr* rhs, Type* t) {
  const bool call_like =
      rhs->kind == Expr::Call || (rhs->kind == Expr::Unary && (rhs->op == "hd" || rhs->op == "<-"));
  Scope named;
  bool here = true;  // all declared in this block
  for (auto& x : lhs->args)
    if (x->kind == Expr::Ident) {
      named[x->op] = Sym{};
      here = here && scopes_.back().count(x->op);
    }
  // (An inlined body writes the names as it goes: never when it reads them.)
  auto reads_ok = [&] {
    if (!reads_scope_var(rhs, named)) return true;
    if (!here || rhs->kind != Expr::Call) return false;
    CallTarget c = call_target(rhs);
    return !c.local || !inline_body(*c.local);
  };
  if (auto whole = call_like && reads_ok() ? names_tuple(lhs, t) : std::nullopt) {
    // The names of a tuple declared in place take the value whole, as
    // Inferno's compiler writes `(ok, d) = gen->dirgen(...)` (in a
    // nested block not when the value reads them: `(c, next) =
    // qword(req, next)` in a case arm).
    gen_to(rhs, t, &*whole);
    return true;
  }
  return false;
}

// `(a, b)` naming such a tuple: copied whole to dest, or into a temporary
// (`movmp 44(fp),$2,64(fp); send 64(fp),c`), as Inferno's compiler copies it.
Loc Compiler::tuple_copy(const Loc& whole, const Loc* dest) {
  if (dest) return deliver(whole, dest);
  Loc t = temp(whole.t);
  move(whole, t);
  return t;
}

}  // namespace dis::limbo
