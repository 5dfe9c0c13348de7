// Calls of small functions compiled in place, as Inferno's compiler does:
// a function of this module whose body is `return e;` or
// `if (c) return e1; [else] return e2;` is expanded where it is called, its
// parameters naming the arguments' values.
#include <algorithm>
#include <functional>
#include <set>

#include "compiler_impl.h"
#include "expr_walk.h"

namespace dis::limbo {

namespace {

// The one statement of s, through braces: `{ return e; }` is `return e;`.
const Stmt* single(const Stmt* s) {
  while (s && s->kind == Stmt::Block && s->stmts.size() == 1 && s->label.empty())
    s = s->stmts[0].get();
  return s;
}

const Expr* returned(const Stmt* s) {
  s = single(s);
  return s && s->kind == Stmt::Return ? s->e.get() : nullptr;
}

// How a use names a function: `f` a function of the module, `.f` one of an
// adt (x.f, Adt.f), so that a field `r.min` names no function min.
std::string use_key(const Expr* e) { return e->kind == Expr::Field ? "." + e->op : e->op; }

// Names used other than as the function of a call: a function named so
// is needed as a function (a reference to it, a spawn), not only inlined.
void other_uses(const Expr* e, bool callee, std::set<std::string>& out) {
  if (!e) return;
  if ((e->kind == Expr::Ident || e->kind == Expr::Field) && !callee) out.insert(use_key(e));
  if (e->kind == Expr::Call) {
    other_uses(e->a.get(), true, out);
  } else if (e->kind == Expr::Field) {
    other_uses(e->a.get(), false, out);
  } else {
    other_uses(e->a.get(), false, out);
    other_uses(e->b.get(), false, out);
  }
  other_uses(e->c.get(), false, out);
  for (auto& x : e->args) other_uses(x.get(), false, out);
  for (auto& in : e->inits) {
    for (auto& k : in.keys) other_uses(k.get(), false, out);
    other_uses(in.value.get(), false, out);
  }
}

void other_uses(const Stmt* s, std::set<std::string>& out) {
  if (!s) return;
  if (s->kind == Stmt::Spawn && s->e && s->e->kind == Expr::Call) {
    const Expr* f = s->e->a.get();
    if (f->kind == Expr::Ident || f->kind == Expr::Field) out.insert(use_key(f));
  }
  for (const Expr* e : {s->e.get(), s->init.get(), s->step.get()}) other_uses(e, false, out);
  other_uses(s->body.get(), out);
  other_uses(s->else_body.get(), out);
  for (auto& x : s->stmts) other_uses(x.get(), out);
  for (auto& arm : s->arms) {
    for (auto& l : arm.labels) {
      other_uses(l.lo.get(), false, out);
      other_uses(l.hi.get(), false, out);
    }
    other_uses(arm.body.get(), out);
  }
  for (auto& alt : s->alts) {
    for (auto& g : alt.guards) other_uses(g.get(), false, out);
    other_uses(alt.body.get(), out);
  }
}

// Whether e calls a function named name (by its bare name).
bool calls(const Expr* e, const std::string& name) {
  if (!e) return false;
  if (e->kind == Expr::Call && (e->a->kind == Expr::Ident || e->a->kind == Expr::Field) &&
      e->a->op == name)
    return true;
  if (calls(e->a.get(), name) || calls(e->b.get(), name) || calls(e->c.get(), name)) return true;
  for (auto& x : e->args)
    if (calls(x.get(), name)) return true;
  return false;
}

// The names of the functions e calls.
void callees(const Expr* e, std::set<std::string>& out) {
  if (!e) return;
  if (e->kind == Expr::Call && (e->a->kind == Expr::Ident || e->a->kind == Expr::Field))
    out.insert(use_key(e->a.get()));
  callees(e->a.get(), out);
  callees(e->b.get(), out);
  callees(e->c.get(), out);
  for (auto& x : e->args) callees(x.get(), out);
  for (auto& in : e->inits) {
    for (auto& k : in.keys) callees(k.get(), out);
    callees(in.value.get(), out);
  }
}

// The names of the functions the statements in s call.
void all_calls(const Stmt* s, std::set<std::string>& out) {
  if (!s) return;
  for (const Expr* e : {s->e.get(), s->init.get(), s->step.get()}) callees(e, out);
  all_calls(s->body.get(), out);
  all_calls(s->else_body.get(), out);
  for (auto& x : s->stmts) all_calls(x.get(), out);
  for (auto& arm : s->arms) all_calls(arm.body.get(), out);
  for (auto& alt : s->alts) {
    for (auto& g : alt.guards) callees(g.get(), out);
    all_calls(alt.body.get(), out);
  }
}

}  // namespace

// Functions Inferno's compiler does not emit: not exported, inlined where
// they are called, never used as values or spawned.
std::set<const FuncInfo*> Compiler::inlined_only() {
  std::set<std::string> used;
  for (auto& f : funcs_)
    if (f.decl) other_uses(f.decl->body.get(), used);
  // Nor one no function names at all (never called, never a value).
  std::set<std::string> named = used;
  for (auto& f : funcs_)
    if (f.decl) all_calls(f.decl->body.get(), named);
  std::set<const FuncInfo*> out;
  for (auto& f : funcs_) {
    if (!f.type || f.exported || f.late_link >= 0) continue;
    auto dot = f.name.rfind('.');
    const std::string key = dot == std::string::npos ? f.name : f.name.substr(dot);
    if (inlinable(f) ? !used.count(key) : !named.count(key)) out.insert(&f);
  }
  return out;
}

std::optional<InlineBody> inline_body(const FuncInfo& f) {
  if (!f.decl || !f.decl->body || !f.type->elem || !f.type->tparams.empty() ||
      !f.decl->tparams.empty() || f.type->varargs)
    return std::nullopt;
  if (f.adt && !f.adt->tparams.empty()) return std::nullopt;
  const Stmt& body = *f.decl->body;
  if (body.kind != Stmt::Block || !body.label.empty()) return std::nullopt;
  InlineBody b;
  if (body.stmts.size() == 1) {
    b.value = returned(body.stmts[0].get());
  } else if (body.stmts.size() == 2) {
    const Stmt* s = body.stmts[0].get();
    if (s->kind != Stmt::If || s->else_body) return std::nullopt;
    b.cond = s->e.get();
    b.then_value = returned(s->body.get());
    b.value = returned(body.stmts[1].get());
    if (!b.then_value) return std::nullopt;
  } else {
    return std::nullopt;
  }
  if (body.stmts.size() == 1 && !b.value) {
    const Stmt* s = single(body.stmts[0].get());
    if (s && s->kind == Stmt::If && s->else_body) {
      b.cond = s->e.get();
      b.then_value = returned(s->body.get());
      b.value = returned(s->else_body.get());
      if (!b.then_value) return std::nullopt;
    }
  }
  if (!b.value || assigns(b.value, true) || assigns(b.cond, true) || assigns(b.then_value, true))
    return std::nullopt;
  // Inferno's compiler inlines no `if(c) return a; return b;` returning nil.
  if (b.cond && (b.value->kind == Expr::Nil || b.then_value->kind == Expr::Nil))
    return std::nullopt;
  // Not a recursive one.
  auto dot = f.name.rfind('.');
  const std::string bare = dot == std::string::npos ? f.name : f.name.substr(dot + 1);
  if (calls(b.value, bare) || calls(b.cond, bare) || calls(b.then_value, bare)) return std::nullopt;
  return b;
}

// f's body when calls of f are inlined: not when it calls a function declared
// after it, inlined too, that calls f back (iseven calling isodd, which calls
// iseven: Inferno's compiler inlines isodd and keeps iseven a function; it
// inlines cmd2in though Cmd.text, a larger function, calls it).
std::optional<InlineBody> Compiler::inlinable(const FuncInfo& f) {
  auto b = inline_body(f);
  if (!b) return b;
  std::set<std::string> called;
  for (const Expr* e : {b->cond, b->then_value, b->value}) callees(e, called);
  bool after = false;
  for (auto& g : funcs_) {
    if (&g == &f) {
      after = true;
      continue;
    }
    auto dot = g.name.rfind('.');
    if (!after || !called.count(dot == std::string::npos ? g.name : g.name.substr(dot))) continue;
    // ... that is inlined too and calls f back.
    std::set<std::string> back;
    if (g.decl && inline_body(g)) all_calls(g.decl->body.get(), back);
    auto fdot = f.name.rfind('.');
    if (back.count(fdot == std::string::npos ? f.name : f.name.substr(fdot))) return std::nullopt;
  }
  return b;
}

// A Subst parameter's argument, computed in the scopes of its call.
Loc Compiler::gen_subst(const Sym& s, const Loc* dest) {
  std::vector<Scope>& caller = inline_outer_[static_cast<std::size_t>(s.subst_depth)];
  std::swap(scopes_, caller);
  Loc r;
  try {
    r = gen_to(s.subst, s.type, dest);
  } catch (CompileError&) {
    std::swap(scopes_, caller);
    throw;
  }
  std::swap(scopes_, caller);
  return r;
}

// Runs body_gen with the call's parameters naming its arguments' values, the
// body seeing the module's names and the parameters, not the caller's. False
// (nothing generated) when the call is not inlined.
bool Compiler::inline_scope(const Expr* e, const CallTarget& c,
                            const std::function<void(const InlineBody&)>& body_gen) {
  // A call in an inlined body is inlined too (not one already being expanded).
  if (!c.local || c.fnref || c.poly_slot >= 0 || !c.bindings.empty() || !c.hidden.empty() ||
      std::find(inlining_.begin(), inlining_.end(), c.local) != inlining_.end())
    return false;
  auto body = inlinable(*c.local);
  if (!body) return false;
  std::vector<const Expr*> args;
  std::vector<Type*> ptypes;
  call_args(e, c, args, ptypes);
  const auto& params = c.local->type->params;
  if (args.size() != params.size()) return false;
  // The arguments' values, in order; a temporary holding one stays until
  // the body is done with it.
  Scope names;
  std::vector<std::int32_t> pinned;
  for (std::size_t i = 0; i < args.size(); ++i) {
    // An int constant names a constant in the body, which folds it
    // (get4(a, 0): a[0+3] is a[3]), as Inferno's compiler does.
    if (auto cv = const_eval(args[i]);
        cv && cv->k == TK::Int && ptypes[i]->k == TK::Int && !params[i].name.empty()) {
      Sym s;
      s.kind = Sym::Con;
      s.ival = cv->i;
      s.type = t_int_;
      names[params[i].name] = s;
      continue;
    }
    // A slice is taken again at each use, as Inferno's compiler expands
    // l32(a[4:]).
    // So is `hd tl l` of a name (server(hd tl flds)).
    auto list_path = [](const Expr* x) {
      bool walked = false;
      while (x->kind == Expr::Unary && (x->op == "hd" || x->op == "tl")) {
        x = x->a.get();
        walked = true;
      }
      return walked && x->kind == Expr::Ident;
    };
    if ((args[i]->kind == Expr::Slice || list_path(args[i])) && !has_call(args[i]) &&
        !assigns(args[i], true) && !params[i].name.empty()) {
      Sym s;
      s.kind = Sym::Subst;
      s.type = ptypes[i];
      s.subst = args[i];
      s.subst_depth = static_cast<int>(inline_outer_.size());
      names[params[i].name] = s;
      continue;
    }
    Loc v = gen_to(args[i], ptypes[i]);
    // Held in a temporary, or read through one (a[1].vec: 0(t)): every use
    // in the body reads it there, so nothing may reuse or reset it.
    if (v.op.mode == AddrMode::Fp || v.op.mode == AddrMode::IndFp)
      if (TempSlot* ts = busy_temp(v.op.a)) {
        ts->pinned = true;
        pinned.push_back(v.op.a);
      }
    if (params[i].name.empty()) continue;
    Sym s;
    s.kind = Sym::Var;
    s.type = ptypes[i];
    s.loc = v.op;
    names[params[i].name] = s;
  }
  inline_outer_.push_back(std::move(scopes_));
  const std::vector<Scope>& outer = inline_outer_.back();
  scopes_.clear();
  scopes_.push_back(outer.empty() ? Scope{} : outer[0]);
  scopes_.push_back(std::move(names));
  inlining_.push_back(c.local);
  // The body's constants and types depend on this call's arguments: the
  // caches (keyed by the body's nodes) start empty and are dropped after.
  auto consts = std::move(const_cache_);
  auto types = std::move(type_cache_);
  const_cache_.clear();
  type_cache_.clear();
  auto restore = [&] {
    inlining_.pop_back();
    scopes_ = std::move(inline_outer_.back());
    inline_outer_.pop_back();
    const_cache_ = std::move(consts);
    type_cache_ = std::move(types);
  };
  try {
    body_gen(*body);
  } catch (CompileError&) {
    restore();
    throw;
  }
  restore();
  for (std::int32_t off : pinned)
    if (TempSlot* ts = busy_temp(off)) ts->pinned = false;
  return true;
}

std::optional<Loc> Compiler::gen_inline_call(const Expr* e, const CallTarget& c, const Loc* dest) {
  Type* rt = c.local ? c.local->type->elem : nullptr;
  Loc r;
  bool done = inline_scope(e, c, [&](const InlineBody& body) {
    if (!body.cond) {
      r = gen_to(body.value, rt, dest);
      return;
    }
    // (A variant's ref goes straight into its adt's ref too.)
    const bool same =
        dest && (same_type(dest->t, rt) || (dest->t->k == TK::Ref && rt->k == TK::Ref));
    r = same ? Loc{dest->op, rt} : temp(rt);
    std::int32_t lelse = new_label(), lend = new_label();
    gen_cond(body.cond, false, lelse);
    gen_to(body.then_value, rt, &r);
    jump(Op::jmp_, Operand{}, Middle{}, lend);
    place(lelse);
    gen_to(body.value, rt, &r);
    place(lend);
  });
  if (!done) return std::nullopt;
  if (dest && !(dest->op == r.op)) move(r, *dest);
  return dest ? *dest : r;
}

// A call inlined as a condition: the returned expression is tested where
// the call is, as Inferno's compiler does (no value made and then tested).
bool Compiler::gen_inline_cond(const Expr* e, bool when, std::int32_t label) {
  CallTarget c = call_target(e);
  if (c.construct || !c.local) return false;
  auto body = inlinable(*c.local);
  if (!body || body->cond) return false;
  return inline_scope(e, c, [&](const InlineBody& b) { gen_cond(b.value, when, label); });
}

// Every function, in order, but those only ever inlined (Inferno's compiler
// leaves them out); one still called somewhere (a call that could not be
// inlined) is compiled after the others, and so is each wrapper
// (fn_refs.cpp) as the functions compiled before it made it. funcs_ grows
// meanwhile: it is walked by index.
void Compiler::compile_functions() {
  const auto skipped = inlined_only();
  for (std::size_t i = 0; i < funcs_.size(); ++i) {
    FuncInfo& f = funcs_[i];
    if (!f.type || skipped.count(&f)) continue;  // a declaration with an error; inlined
    try {
      compile_function(f);
    } catch (CompileError&) {
    }
  }
  for (bool more = true; more;) {
    more = false;
    for (std::size_t i = 0; i < funcs_.size(); ++i) {
      FuncInfo& f = funcs_[i];
      if (f.pc >= 0 || (!skipped.count(&f) && !f.wrapper)) continue;
      bool called = f.wrapper;
      for (auto& cf : call_fixes_) called |= cf.f == &f;
      for (auto& sf : self_fixes_) called |= sf.f == &f;
      if (!called) continue;
      try {
        compile_function(f);
      } catch (CompileError&) {
      }
      more = true;
    }
  }
  check_dropped(skipped);
}

// Functions left out that are more than one return are still compiled, for
// their errors, after all the others; their code is then dropped.
void Compiler::check_dropped(const std::set<const FuncInfo*>& skipped) {
  const std::size_t code = m_.code.size(), calls = call_fixes_.size(), selfs = self_fixes_.size(),
                    imports = import_fixes_.size(), tables = table_fixes_.size(),
                    handlers = m_.handlers.size();
  const auto tables_used = imports_;
  // Wrappers their references make are compiled and dropped with them.
  const std::size_t funcs = funcs_.size(), wrappers = poly_wrappers_.size();
  std::vector<FuncInfo*> dropped;
  for (std::size_t i = 0; i < funcs_.size(); ++i) {
    FuncInfo& f = funcs_[i];
    if (i < funcs) {
      if (f.pc >= 0 || !skipped.count(&f) || inlinable(f)) continue;
      dropped.push_back(&f);
    }
    try {
      compile_function(f);
    } catch (CompileError&) {
    }
  }
  funcs_.resize(funcs);
  poly_wrappers_.resize(wrappers);
  m_.code.resize(code);
  call_fixes_.resize(calls);
  self_fixes_.resize(selfs);
  import_fixes_.resize(imports);
  table_fixes_.resize(tables);
  m_.handlers.resize(handlers);
  imports_ = tables_used;
  for (FuncInfo* f : dropped) f->pc = -1;
}

bool Compiler::calls(const Expr* e) {
  if (!e) return false;
  if (e->kind == Expr::Call) {
    if (!inert_call(e)) return true;
    for (auto& x : e->args)
      if (calls(x.get())) return true;
    return false;
  }
  if (e->kind == Expr::Load || (e->kind == Expr::Unary && e->op == "<-")) return true;
  if (calls(e->a.get()) || calls(e->b.get()) || calls(e->c.get())) return true;
  for (auto& x : e->args)
    if (calls(x.get())) return true;
  for (auto& in : e->inits)
    if (calls(in.value.get())) return true;
  return false;
}

// A call of a constructor, or of a function expanded in place whose body
// calls nothing. Asked ahead of compiling the call: an error found here is
// reported when the call is compiled, not now.
bool Compiler::inert_call(const Expr* call) {
  if (calls_depth_ > 4) return false;
  const std::size_t errors = errs_.size();
  ++calls_depth_;
  bool inert = false;
  try {
    CallTarget c = call_target(call);
    if (c.construct) {
      inert = true;
    } else if (c.local) {
      auto b = inline_body(*c.local);
      inert = b && !calls(b->cond) && !calls(b->then_value) && !calls(b->value);
    }
  } catch (CompileError&) {
    errs_.resize(errors);
  }
  --calls_depth_;
  return inert;
}

}  // namespace dis::limbo
