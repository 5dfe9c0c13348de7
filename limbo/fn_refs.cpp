// Function references (`ref fn(...)`), as Inferno's compiler makes them: a
// heap object of two words, a module value and a link index, made from a
// function (or an adt's function without self) of this module (reached
// through "$self", poly.cpp) or of a loaded module; a call through one is mframe/mcall with the
// module from the object's first word and the index, copied to the frame, from its second. A
// polymorphic function with a `for` clause is reached through a wrapper of its binding, which
// passes the hidden arguments such a call cannot.
#include <algorithm>
#include <memory>
#include <set>
#include <string>

#include "compiler_impl.h"

namespace dis::limbo {

// `f`, `m->f` or `Adt.f` as a value: a new reference to the function. A
// polymorphic one (or a polymorphic adt's) is named with its type arguments
// (`rev[string]`, `Tab[string].f`) or takes them from the reference it is
// stored in (dest's type, else want); one with a `for` clause is a
// reference to its wrapper for that binding.
Loc Compiler::gen_fn_value(const Expr* e, const Loc* dest, Type* want) {
  std::vector<Type*> targs;
  e = inst_base(e, &targs);
  FuncInfo* local = nullptr;
  ModInfo* mod = nullptr;
  std::string mname;
  const Expr* modexpr = nullptr;
  Type* ft = nullptr;
  AdtInfo* adt = nullptr;
  if (e->kind == Expr::Field) {
    CallTarget c;
    adt = adt_fn_ref(e, &modexpr, &targs, true);
    if (!adt) fail(e->pos, "not a function");
    adt_call_target(e, adt, e->op, nullptr, c, modexpr);
    refuse_self_ref(e, adt, c.ft);
    local = c.local;
    mod = c.mod;
    mname = c.mname;
    modexpr = c.modexpr;
    ft = c.ft;
  } else if (e->kind == Expr::Ident) {
    Sym* s = lookup(e->op);
    if (s && s->kind == Sym::Func) {
      local = s->func;
      ft = s->type;
    } else if (s && s->kind == Sym::Imported && s->modexpr && s->type && s->type->k == TK::Fn) {
      mod = s->mod;
      mname = s->member;
      modexpr = s->modexpr;
      ft = s->type;
    }
  } else if (e->kind == Expr::ModField) {
    Type* mt = type_of(e->a.get());
    auto it =
        mt->k == TK::Module ? mt->mod->members.find(e->op) : decltype(mt->mod->members.end()){};
    if (mt->k == TK::Module && it != mt->mod->members.end() && it->second.kind == ModMember::Func) {
      mod = mt->mod;
      mname = e->op;
      modexpr = e->a.get();
      ft = it->second.type;
    }
  }
  if (!ft) fail(e->pos, "not a function");
  // A polymorphic adt's function is bound by the adt's parameters.
  const std::vector<Type*>& tps = !ft->tparams.empty() || !adt ? ft->tparams : adt->tparams;
  if (!targs.empty() && tps.empty()) fail(e->pos, e->op + " has no type parameters");
  if (!tps.empty()) {
    if (targs.size() > tps.size())
      fail(e->pos, "too many type arguments: " + std::to_string(targs.size()) + " given, " +
                       std::to_string(tps.size()) + " expected");
    Bindings b;
    for (std::size_t i = 0; i < targs.size(); ++i) {
      check_type_arg(targs[i], e->pos);
      b[tps[i]] = targs[i];
    }
    if (dest && dest->t) want = dest->t;
    if (want && want->k == TK::Ref && want->elem && want->elem->k == TK::Fn)
      unify(ft, want->elem, b);
    for (auto* p : tps)
      if (!b.count(p)) fail(e->pos, "cannot tell " + p->name + " here: give it in [...]");
    Type* inst = mk(TK::Fn);
    *inst = *subst(ft, b);
    inst->tparams.clear();
    if (std::any_of(tps.begin(), tps.end(), [](Type* p) { return !p->cfuncs.empty(); })) {
      local = poly_wrapper(e, tps, b, inst, e->pos);
      mod = nullptr;
    }
    ft = inst;
  }
  Type* rt = mk(TK::Ref, ft);
  Loc r = temp(rt);  // not into dest: loading $self may come first
  emit(Op::new_, imm(desc_for(8, {0})), r.op);
  Operand mslot{AddrMode::IndFp, r.op.a, 0};
  Operand islot{AddrMode::IndFp, r.op.a, 4};
  if (local) {
    export_late(local);
    emit(Op::movp_, self_module(), mslot);
    std::int32_t at = emit(Op::movw_, imm(0), islot);
    self_fixes_.push_back(SelfFix{at, local});
  } else {
    Operand m = direct(gen(modexpr));
    int table = import_table(mod);
    auto& names = imports_[static_cast<std::size_t>(table)].names;
    if (std::find(names.begin(), names.end(), mname) == names.end()) names.push_back(mname);
    emit(Op::movp_, m, mslot);
    std::int32_t at = emit(Op::movw_, imm(0), islot);
    import_fixes_.push_back(ImportFix{at, table, mname, true});
  }
  return deliver(r, dest);
}

// `Adt.f`, `Mod->Adt.f` / `m->Adt.f`, `Tab[ref T].f`, with f a function of
// the adt: the adt, its module value (else null) in *modexpr and the type
// arguments given in *targs; else null (a data member, a pick tag, a con).
// A name that is no member of the adt is refused here.
AdtInfo* Compiler::adt_fn_ref(const Expr* e, const Expr** modexpr, std::vector<Type*>* targs,
                              bool report) {
  if (e->kind != Expr::Field) return nullptr;
  const Expr* base = inst_base(e->a.get(), targs);
  AdtInfo* ad = nullptr;
  const Expr* m = nullptr;
  if (base->kind == Expr::Ident) {
    Sym* s = lookup(base->op);
    if (s && (s->kind == Sym::AdtName || (s->kind == Sym::Imported && s->adt))) ad = s->adt;
  } else if (base->kind == Expr::ModField && !base->b && base->a->kind == Expr::Ident) {
    Sym* s = lookup(base->a->op);
    Type* at =
        s && s->kind == Sym::Var && s->type->k == TK::Module ? adt_type_named(base) : nullptr;
    if (at && at->k == TK::Adt) {
      ad = at->adt;
      m = base->a.get();
    }
  }
  if (!ad) return nullptr;
  if (!ad->func_types.count(e->op)) {
    bool member = ad->cons.count(e->op) ||
                  std::find(ad->tags.begin(), ad->tags.end(), e->op) != ad->tags.end();
    for (auto& f : ad->fields) member |= f.name == e->op;
    for (auto& v : ad->variants)
      for (auto& f : v.fields) member |= f.name == e->op;
    if (!member && report) fail(e->pos, "adt " + ad->name + " has no member " + e->op);
    return nullptr;
  }
  if (modexpr) *modexpr = m;
  return ad;
}

// A function whose first argument is `self` has that `self` in its type
// (limbo.txt 4.3: function types are equal only if their self attributes
// match), which no `ref fn` type may say (4.3: `self` marks only the first
// argument of a function declared in an adt), and which does not convert to
// the type without it (Inferno's mpexpr.b works around this with functions
// of its own): a reference to it is refused.
void Compiler::refuse_self_ref(const Expr* e, AdtInfo* ad, Type* ft) {
  if (ft->params.empty() || !ft->params[0].self) return;
  Type* without = mk(TK::Fn);
  *without = *ft;
  without->params[0].self = false;
  without->tparams.clear();
  fail(e->pos, "a reference to " + ad->name + "." + e->op +
                   " cannot be made: its type keeps the self of its first argument (self " +
                   type_name(ft->params[0].type) +
                   "), which no ref fn type may declare (limbo.txt 4.3), and does not convert to " +
                   type_name(mk(TK::Ref, without)) + "; refer to a function that calls it");
}

// Whether e names a polymorphic function (`rev`, `m->sort`, with or
// without type arguments) or a polymorphic adt's function (`Tab.add`),
// whose value takes its binding from where it goes.
bool Compiler::names_poly_fn(const Expr* e) {
  if (e->kind == Expr::Field) {
    AdtInfo* ad = adt_fn_ref(e, nullptr, nullptr, false);
    return ad && (!ad->tparams.empty() || !ad->func_types[e->op]->tparams.empty());
  }
  e = inst_base(e, nullptr);
  Type* ft = nullptr;
  if (e->kind == Expr::Ident) {
    Sym* s = lookup(e->op);
    if (s && (s->kind == Sym::Func || s->kind == Sym::Imported)) ft = s->type;
  } else if (e->kind == Expr::ModField && !e->b && e->a->kind == Expr::Ident) {
    Sym* s = lookup(e->a->op);
    if (s && s->kind == Sym::Var && s->type && s->type->k == TK::Module) {
      auto it = s->type->mod->members.find(e->op);
      if (it != s->type->mod->members.end() && it->second.kind == ModMember::Func)
        ft = it->second.type;
    }
  }
  return ft && ft->k == TK::Fn && !ft->tparams.empty();
}

namespace {

bool mentions_tparam(const Type* t) {
  if (!t) return false;
  if (t->k == TK::Poly) return true;
  if (mentions_tparam(t->elem)) return true;
  for (auto* e : t->elems)
    if (mentions_tparam(e)) return true;
  for (auto& p : t->params)
    if (mentions_tparam(p.type)) return true;
  for (auto* a : t->targs)
    if (mentions_tparam(a)) return true;
  return false;
}

}  // namespace

bool Compiler::top_level_name(const std::string& name) const {
  for (auto& s : scopes_)
    if (s.count(name)) return false;
  return globals_.count(name) > 0;
}

// The wrapper of callee (`f` or `m->f`, of type ft) for binding b, made on
// first use: a function of inst's signature whose body is `return
// f(args...)` with b's types given, so that the call passes the hidden
// arguments b determines. Its body is compiled in its own frame, where only
// top-level names are seen: the function (or its module value) must be
// one. Its code has the reference's line.
FuncInfo* Compiler::poly_wrapper(const Expr* callee, const std::vector<Type*>& tps,
                                 const Bindings& b, Type* inst, const Pos& pos) {
  const bool named = callee->kind == Expr::Ident;
  // `Tab.f`, `Tab[ref T].f`, `m->Tab.f`: the adt's name or its module value.
  const Expr* outer = named ? callee : callee->a.get();
  if (callee->kind == Expr::Field) {
    outer = inst_base(outer, nullptr);
    if (outer->kind == Expr::ModField) outer = outer->a.get();
  }
  const std::string top = outer->kind == Expr::Ident ? outer->op : std::string();
  if (!top_level_name(top))
    fail(pos, "a reference to " + callee->op +
                  ", which has a for clause, must name it (or its module value) at top level: "
                  "the function made for the reference sees only top-level names");
  std::vector<Type*> binding;
  std::string key = named ? callee->op : top + "->" + callee->op, types;
  if (callee->kind == Expr::Field) {
    const Expr* adt = inst_base(callee->a.get(), nullptr);
    key = (adt->kind == Expr::ModField ? top + "->" + adt->op : top) + "." + callee->op;
  }
  for (auto* p : tps) {
    Type* a = b.at(p);
    if (!p->cfuncs.empty() && mentions_tparam(a))
      fail(pos, "a reference to " + callee->op + " cannot bind " + p->name +
                    ", which has a for clause, to " + type_name(a) +
                    ": its functions are known only when called");
    binding.push_back(a);
    types += (types.empty() ? "" : ", ") + type_name(a);
  }
  for (auto& w : poly_wrappers_) {
    if (w.callee != key) continue;
    bool same = true;
    for (std::size_t i = 0; i < binding.size(); ++i) same &= same_type(w.binding[i], binding[i]);
    if (same) return &funcs_[w.index];
  }
  funcs_.emplace_back();
  FuncInfo& f = funcs_.back();
  f.wrapper = true;
  const std::string name = key + "[" + types + "]";
  f.name = name;
  for (int n = 2; std::any_of(funcs_.begin(), funcs_.end() - 1,
                              [&](const FuncInfo& g) { return g.name == f.name; });
       ++n)
    f.name = name + "#" + std::to_string(n);  // distinct types of one name (Mod->T and T)
  f.type = mk(TK::Fn);
  *f.type = *inst;
  f.desc = static_cast<std::int32_t>(m_.types.size());
  m_.types.push_back(TypeDesc{f.desc, 0, {}});
  poly_wrappers_.push_back(PolyWrapper{key, binding, funcs_.size() - 1});
  auto call = std::make_shared<Expr>();
  call->kind = Expr::Call;
  call->pos = pos;
  call->a = std::make_shared<Expr>(*callee);
  // The arguments by their declared names where no top-level name (the
  // function's, its module value's) would be hidden.
  std::set<std::string> taken;
  for (std::size_t i = 0; i < f.type->params.size(); ++i) {
    std::string& n = f.type->params[i].name;
    if (n.empty() || globals_.count(n) || taken.count(n)) n = "a" + std::to_string(i);
    while (globals_.count(n) || taken.count(n)) n += "_";
    taken.insert(n);
    auto arg = std::make_shared<Expr>();
    arg->kind = Expr::Ident;
    arg->op = n;
    arg->pos = pos;
    call->args.push_back(arg);
  }
  bound_calls_[call.get()] = b;
  auto stmt = std::make_shared<Stmt>();
  stmt->kind = f.type->elem && f.type->elem->k != TK::None ? Stmt::Return : Stmt::ExprS;
  stmt->e = call;
  stmt->pos = pos;
  Decl& d = wrapper_decls_.emplace_back();
  d.kind = Decl::Func;
  d.name = f.name;
  d.pos = pos;
  d.pos.end_line = pos.line;
  d.body = std::make_shared<Stmt>();
  d.body->kind = Stmt::Block;
  d.body->pos = d.pos;
  d.body->stmts.push_back(stmt);
  f.decl = &d;
  return &f;
}

// Whether callee is a function reference to call through (its type `ref fn`).
bool Compiler::fn_ref_target(const Expr* callee, CallTarget& c) {
  if (callee->kind == Expr::Ident) {
    Sym* s = lookup(callee->op);
    if (!s || s->kind != Sym::Var) return false;
  }
  Type* t = type_of(callee);
  if (t->k != TK::Ref || !t->elem || t->elem->k != TK::Fn) return false;
  c.fnref = callee;
  c.ft = t->elem;
  return true;
}

// The module operand of a call through a function reference, its link index
// copied into the frame word idx.
Operand Compiler::fn_ref_module(const Expr* ref, Loc& idx) {
  Operand p = direct(gen(ref));
  AddrMode ind = p.mode == AddrMode::Mp ? AddrMode::IndMp : AddrMode::IndFp;
  idx = temp(t_int_);
  emit(Op::movw_, Operand{ind, p.a, 4}, idx.op);
  return Operand{ind, p.a, 0};
}

}  // namespace dis::limbo
