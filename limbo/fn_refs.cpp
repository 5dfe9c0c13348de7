// Function references (`ref fn(...)`), as Inferno's compiler makes them: a
// heap object of two words, a module value and a link index, made from a
// function of this module (reached through "$self", poly.cpp) or of a
// loaded module; a call through one is mframe/mcall with the module from
// the object's first word and the index, copied to the frame, from its
// second.
#include <algorithm>
#include <string>

#include "compiler_impl.h"

namespace dis::limbo {

// `f` or `m->f` as a value: a new reference to the function. A polymorphic
// one is named with its type arguments (`rev[string]`) or takes them from
// the reference it is stored in; one with a `for` clause is refused, as its
// required functions would have no hidden arguments to arrive in.
Loc Compiler::gen_fn_value(const Expr* e, const Loc* dest) {
  std::vector<Type*> targs;
  e = inst_base(e, &targs);
  FuncInfo* local = nullptr;
  ModInfo* mod = nullptr;
  std::string mname;
  const Expr* modexpr = nullptr;
  Type* ft = nullptr;
  if (e->kind == Expr::Ident) {
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
  if (!targs.empty() && ft->tparams.empty()) fail(e->pos, e->op + " has no type parameters");
  if (!ft->tparams.empty()) {
    if (targs.size() > ft->tparams.size())
      fail(e->pos, "too many type arguments: " + std::to_string(targs.size()) + " given, " +
                       std::to_string(ft->tparams.size()) + " expected");
    Bindings b;
    for (std::size_t i = 0; i < targs.size(); ++i) {
      check_type_arg(targs[i], e->pos);
      b[ft->tparams[i]] = targs[i];
    }
    for (auto* p : ft->tparams)
      if (!p->cfuncs.empty())
        unsupported(e->pos, "a reference to a polymorphic function with a for clause is");
    if (dest && dest->t && dest->t->k == TK::Ref && dest->t->elem && dest->t->elem->k == TK::Fn)
      unify(ft, dest->t->elem, b);
    for (auto* p : ft->tparams)
      if (!b.count(p)) fail(e->pos, "cannot tell " + p->name + " here: give it in [...]");
    Type* inst = mk(TK::Fn);
    *inst = *subst(ft, b);
    inst->tparams.clear();
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
