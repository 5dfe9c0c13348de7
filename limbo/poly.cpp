// Polymorphic functions and adts (`fn[T]`, `adt[T]`, `for { T => ... }`),
// laid out as Inferno's compiler lays them out: a type parameter is one
// pointer word, so a polymorphic function's code is generated once. A call
// binds each parameter to its argument's type (which must be a reference
// type) and checks the arguments against the instance. Each function a
// `for` clause requires is passed as two hidden arguments after the
// declared ones, a module value and a link index, in clause order, and
// called with mframe/mcall through them. An actual adt of this module
// provides its functions through the module itself, loaded as "$self" with
// an import table of all its links.
#include <algorithm>

#include "compiler_impl.h"

namespace dis::limbo {

Compiler::TparamScope::TparamScope(Compiler& c, const std::vector<std::string>& names,
                                   const std::vector<Type*>& types)
    : c_(c) {
  std::map<std::string, Type*> m;
  for (std::size_t i = 0; i < names.size() && i < types.size(); ++i) m[names[i]] = types[i];
  c_.tparam_scopes_.push_back(std::move(m));
}

Compiler::TparamScope::~TparamScope() { c_.tparam_scopes_.pop_back(); }

Type* Compiler::tparam_named(const std::string& name) const {
  for (auto it = tparam_scopes_.rbegin(); it != tparam_scopes_.rend(); ++it) {
    auto f = it->find(name);
    if (f != it->end()) return f->second;
  }
  return nullptr;
}

std::vector<Type*> Compiler::make_tparams(const std::vector<std::string>& names, const Pos& pos) {
  std::vector<Type*> out;
  for (auto& n : names) {
    for (auto* t : out)
      if (t->name == n) fail(pos, "type parameter " + n + " declared twice");
    Type* t = mk(TK::Poly);
    t->name = n;
    out.push_back(t);
  }
  return out;
}

// The functions each parameter's `for` clause requires, resolved with the
// parameters in scope (`self T` names the parameter itself).
void Compiler::constrain(const std::vector<TypeConstraint>& clause, const std::vector<Type*>& tps,
                         ModInfo* scope) {
  for (auto& c : clause) {
    auto t = std::find_if(tps.begin(), tps.end(), [&](Type* p) { return p->name == c.tparam; });
    if (t == tps.end()) fail(c.pos, c.tparam + " in a for clause is not a type parameter");
    for (auto& f : c.funcs) (*t)->cfuncs.push_back(FnParam{f.name, resolve(f.type.get(), scope)});
  }
}

Type* Compiler::resolve_poly_fn(const TypeNode* tn, ModInfo* scope) {
  std::vector<Type*> tps = make_tparams(tn->tparams, tn->pos);
  TparamScope ts(*this, tn->tparams, tps);
  constrain(tn->constraints, tps, scope);
  Type* t = mk(TK::Fn);
  t->tparams = tps;
  t->varargs = tn->varargs;
  for (auto& p : tn->params)
    t->params.push_back(FnParam{p.name, resolve(p.type.get(), scope), p.self});
  t->elem = tn->elem ? resolve(tn->elem.get(), scope) : t_none_;
  for (auto& r : tn->raises) t->raises.push_back(r.first);
  return t;
}

// `Adt[args]`: the instance of a polymorphic adt (or of one of its pick
// variants); only reference types may be arguments.
Type* Compiler::instance(Type* base, const std::vector<Type*>& targs, const Pos& pos) {
  if (targs.empty()) return base;
  if (base->k != TK::Adt && base->k != TK::Pick)
    fail(pos, type_name(base) + " has no type parameters");
  // Inferno's compiler accepts and ignores arguments given to an adt without
  // parameters (prep.b's `Prepedit: type Edit[string]`).
  if (base->adt->tparams.empty()) return base;
  if (targs.size() != base->adt->tparams.size())
    fail(pos, base->adt->name + " takes " + std::to_string(base->adt->tparams.size()) +
                  " type arguments, " + std::to_string(targs.size()) + " given");
  for (auto* a : targs) check_type_arg(a, pos);
  Type* t = mk(base->k);
  *t = *base;
  t->targs = targs;
  return t;
}

Type* Compiler::resolve_instance(Type* base, const TypeNode* tn, ModInfo* scope) {
  if (tn->targs.empty()) return base;
  std::vector<Type*> targs;
  for (auto& a : tn->targs) targs.push_back(resolve(a.get(), scope));
  return instance(base, targs, tn->pos);
}

void Compiler::check_type_arg(Type* a, const Pos& pos) {
  if (a->k != TK::Error && (!is_pointer(a) || a->k == TK::Nil))
    fail(pos, "type parameter instantiated with " + type_name(a) + ", not a reference type");
}

// ---- unification and substitution ----

bool Compiler::unify(Type* p, Type* a, Bindings& b) {
  if (!p || !a || a->k == TK::Error) return true;
  if (p->k == TK::Poly) {
    auto it = b.find(p);
    if (it == b.end()) {
      if (a->k == TK::Nil) return true;  // nil binds nothing
      b[p] = a;
      return true;
    }
    if (a->k == TK::Nil) return is_pointer(it->second);
    return same_type(it->second, a) || assignable_type(it->second, a);
  }
  if (p->k != a->k) return true;  // a mismatch the argument check reports
  switch (p->k) {
    case TK::Ref:
    case TK::Array:
    case TK::List:
    case TK::Chan:
      return unify(p->elem, a->elem, b);
    case TK::Tuple:
      for (std::size_t i = 0; i < p->elems.size() && i < a->elems.size(); ++i)
        if (!unify(p->elems[i], a->elems[i], b)) return false;
      return true;
    case TK::Adt:
    case TK::Pick: {
      // `Table` written without arguments stands for `Table[T...]`.
      const auto& pa = p->targs.empty() ? p->adt->tparams : p->targs;
      for (std::size_t i = 0; i < pa.size() && i < a->targs.size(); ++i)
        if (!unify(pa[i], a->targs[i], b)) return false;
      return true;
    }
    case TK::Fn:
      for (std::size_t i = 0; i < p->params.size() && i < a->params.size(); ++i)
        if (!unify(p->params[i].type, a->params[i].type, b)) return false;
      return unify(p->elem, a->elem, b);
    default:
      return true;
  }
}

Type* Compiler::subst(Type* t, const Bindings& b) {
  if (!t || b.empty()) return t;
  switch (t->k) {
    case TK::Poly: {
      auto it = b.find(t);
      return it == b.end() ? t : it->second;
    }
    case TK::Ref:
    case TK::Array:
    case TK::List:
    case TK::Chan: {
      Type* e = subst(t->elem, b);
      return e == t->elem ? t : mk(t->k, e);
    }
    case TK::Tuple:
    case TK::Fn:
    case TK::Adt:
    case TK::Pick: {
      Type* r = mk(t->k);
      *r = *t;
      bool changed = false;
      auto one = [&](Type*& x) {
        Type* y = subst(x, b);
        changed |= y != x;
        x = y;
      };
      for (auto*& e : r->elems) one(e);
      for (auto& p : r->params) one(p.type);
      if (t->k == TK::Fn) one(r->elem);
      if ((t->k == TK::Adt || t->k == TK::Pick) && r->targs.empty() && !r->adt->tparams.empty())
        r->targs = r->adt->tparams;
      for (auto*& e : r->targs) one(e);
      return changed ? r : t;
    }
    default:
      return t;
  }
}

bool Compiler::mentions(const Type* t, const Type* p) {
  if (!t) return false;
  if (t == p) return true;
  if (mentions(t->elem, p)) return true;
  for (auto* e : t->elems)
    if (mentions(e, p)) return true;
  for (auto& fp : t->params)
    if (mentions(fp.type, p)) return true;
  for (auto* e : t->targs)
    if (mentions(e, p)) return true;
  return false;
}

// A member's type as seen through an instance `Adt[args]` of its adt.
Type* Compiler::member_type(const Type* inst, Type* t) {
  if (!inst || inst->targs.empty() || inst->targs.size() != inst->adt->tparams.size()) return t;
  Bindings b;
  for (std::size_t i = 0; i < inst->targs.size(); ++i) b[inst->adt->tparams[i]] = inst->targs[i];
  return subst(t, b);
}

// ---- instantiation at expressions ----

// `f[int]`, `Tab[ref T]` (an Inst), or `Tab[T]` read as an index of an adt
// or polymorphic function's name: the name, with the type arguments in
// targs. Anything else is returned as it is.
const Expr* Compiler::inst_base(const Expr* e, std::vector<Type*>* targs) {
  if (e->kind == Expr::Inst) {
    if (targs)
      for (auto& a : e->targs) targs->push_back(resolve(a.get(), nullptr));
    return e->a.get();
  }
  if (e->kind != Expr::Index || e->b->kind != Expr::Ident) return e;
  bool generic = false;
  if (e->a->kind == Expr::Ident) {
    Sym* s = lookup(e->a->op);
    generic = s && ((s->kind == Sym::AdtName && !s->adt->tparams.empty()) ||
                    (s->kind == Sym::Imported && s->adt && !s->adt->tparams.empty()) ||
                    (s->kind == Sym::Func && s->type && !s->type->tparams.empty()) ||
                    (s->kind == Sym::Imported && s->type && s->type->k == TK::Fn &&
                     !s->type->tparams.empty()));
  } else if (e->a->kind == Expr::ModField) {  // m->f[T]
    Type* mt = type_of(e->a->a.get());
    if (mt->k == TK::Module) {
      auto it = mt->mod->members.find(e->a->op);
      generic = it != mt->mod->members.end() && it->second.kind == ModMember::Func &&
                !it->second.type->tparams.empty();
    }
  }
  if (!generic) return e;
  if (targs) {
    TypeNode tn;
    tn.kind = TypeNode::Name;
    tn.name = e->b->op;
    tn.pos = e->b->pos;
    targs->push_back(resolve(&tn, nullptr));
  }
  return e->a.get();
}

// A call of a polymorphic function (or of a function of a polymorphic
// adt): the parameters bound by the explicit type arguments, the self value
// and the arguments; c.ft becomes the instance and c.hidden the parameters
// whose required functions are passed.
void Compiler::instantiate(const Expr* call, CallTarget& c, AdtInfo* adt,
                           const std::vector<Type*>& explicit_args) {
  Type* ft = c.ft;
  bool adt_poly = adt && !adt->tparams.empty();
  if (ft->tparams.empty() && !adt_poly) return;
  Bindings b;
  if (auto w = bound_calls_.find(call); w != bound_calls_.end()) b = w->second;  // a wrapper's
  const auto& seeded = !ft->tparams.empty() ? ft->tparams : adt->tparams;
  if (explicit_args.size() > seeded.size())
    fail(call->pos, "too many type arguments: " + std::to_string(explicit_args.size()) +
                        " given, " + std::to_string(seeded.size()) + " expected");
  for (std::size_t i = 0; i < explicit_args.size(); ++i) {
    check_type_arg(explicit_args[i], call->pos);
    b[seeded[i]] = explicit_args[i];
  }
  std::vector<const Expr*> args;
  if (c.self_arg) args.push_back(c.self_arg);
  for (auto& a : call->args) args.push_back(a.get());
  for (std::size_t i = 0; i < args.size() && i < ft->params.size(); ++i) {
    Type* at = type_of(args[i]);
    Type* pt = ft->params[i].type;
    // `self ref Table` stands for the instance the value has.
    if (i == 0 && c.self_arg && adt_poly) {
      Type* inner = at->k == TK::Ref ? at->elem : at;
      if ((inner->k == TK::Adt || inner->k == TK::Pick) && inner->adt == adt) {
        // Inside the adt's own functions a bare `ref Adt` is `ref Adt[T...]`.
        const auto& given =
            inner->targs.empty() && fn_ && fn_->adt == adt ? adt->tparams : inner->targs;
        for (std::size_t k = 0; k < given.size() && k < adt->tparams.size(); ++k)
          if (!b.count(adt->tparams[k])) b[adt->tparams[k]] = given[k];
      }
      continue;
    }
    if (!unify(pt, at, b))
      fail(args[i]->pos, "argument of type " + type_name(at) + " does not match " + type_name(pt) +
                             " (" + poly_names(b) + ")");
  }
  for (auto& [p, a] : b) check_type_arg(a, call->pos);
  if (adt_poly)
    for (auto* p : adt->tparams)
      if (!p->cfuncs.empty()) c.hidden.push_back(p);
  for (auto* p : ft->tparams)
    if (!p->cfuncs.empty()) c.hidden.push_back(p);
  c.bindings = b;
  // A result naming a parameter nothing bound would be a value of no type.
  auto unbound = [&](Type* p) {
    if (!b.count(p) && mentions(ft->elem, p))
      fail(call->pos, "cannot tell " + p->name + " from the arguments: give it in [...]");
  };
  if (adt_poly)
    for (auto* p : adt->tparams) unbound(p);
  for (auto* p : ft->tparams) unbound(p);
  c.ft = subst(ft, b);
  if (c.ft == ft && !ft->tparams.empty()) {  // nothing bound: still an instance
    c.ft = mk(TK::Fn);
    *c.ft = *ft;
  }
  c.ft->tparams.clear();
}

std::string Compiler::poly_names(const Bindings& b) {
  std::string s;
  for (auto& [p, a] : b) s += (s.empty() ? "" : ", ") + p->name + " is " + type_name(a);
  return s.empty() ? "nothing bound" : s;
}

// `v.f(...)` or `T.f(...)` where v's type is the type parameter T: a
// function T's `for` clause requires, called through the current
// function's hidden arguments.
bool Compiler::poly_call_target(const Expr* call, CallTarget& c) {
  const Expr* callee = call->a.get();
  if (callee->kind != Expr::Field) return false;
  Type* pt = nullptr;
  const Expr* self = nullptr;
  if (callee->a->kind == Expr::Ident && !lookup(callee->a->op)) {
    pt = tparam_named(callee->a->op);
  }
  if (!pt) {
    Sym* s = callee->a->kind == Expr::Ident ? lookup(callee->a->op) : nullptr;
    if (s && s->kind != Sym::Var) return false;
    Type* t = type_of(callee->a.get());
    if (t->k != TK::Poly) return false;
    pt = t;
    self = callee->a.get();
  }
  auto f = std::find_if(pt->cfuncs.begin(), pt->cfuncs.end(),
                        [&](const FnParam& p) { return p.name == callee->op; });
  if (f == pt->cfuncs.end())
    fail(callee->pos,
         "type parameter " + pt->name + " has no function " + callee->op + " in its for clause");
  auto slot = std::find_if(poly_slots_.begin(), poly_slots_.end(), [&](const PolySlot& s) {
    return s.tparam->name == pt->name && s.fn == callee->op;
  });
  if (slot == poly_slots_.end())
    fail(callee->pos, "function " + callee->op + " of " + pt->name + " is not available here");
  c.ft = f->type;
  c.poly_slot = slot->off;
  if (self && !f->type->params.empty() && f->type->params[0].self) c.self_arg = self;
  return true;
}

// The current function's hidden arguments: after its declared ones, a
// module value and a link index for each function its type parameters'
// `for` clauses require (the adt's parameters first).
void Compiler::alloc_poly_slots(FuncInfo& f) {
  poly_slots_.clear();
  std::vector<Type*> tps;
  if (f.adt)
    for (auto* p : f.adt->tparams) tps.push_back(p);
  for (auto* p : f.type->tparams) tps.push_back(p);
  for (auto* p : tps)
    for (auto& cf : p->cfuncs) {
      std::int32_t off = frame_alloc(t_string_);  // the module value, a pointer
      frame_alloc(t_int_);
      poly_slots_.push_back(PolySlot{p, cf.name, off});
    }
}

// The hidden arguments of a call c, from offset off of the frame fr: each
// required function of each bound parameter, from where the actual type
// provides it.
void Compiler::gen_hidden_args(const CallTarget& c, const Operand& fr, std::int32_t off,
                               const Pos& pos) {
  for (auto* p : c.hidden) {
    auto bound = c.bindings.find(p);
    Type* a = bound == c.bindings.end() ? nullptr : bound->second;
    for (auto& cf : p->cfuncs) {
      Operand mslot{AddrMode::IndFp, fr.a, off};
      Operand islot{AddrMode::IndFp, fr.a, off + 4};
      off += 8;
      if (!a)
        fail(pos, "type parameter " + p->name + " is not bound: its function " + cf.name +
                      " cannot be passed");
      if (a->k == TK::Poly) {
        auto slot = std::find_if(poly_slots_.begin(), poly_slots_.end(), [&](const PolySlot& s) {
          return s.tparam->name == a->name && s.fn == cf.name;
        });
        if (slot == poly_slots_.end())
          fail(pos,
               "type parameter " + a->name + " has no function " + cf.name + " in its for clause");
        emit(Op::movp_, fp(slot->off), mslot);
        emit(Op::movw_, fp(slot->off + 4), islot);
        continue;
      }
      Type* at = a->k == TK::Ref ? a->elem : a;
      if (at->k != TK::Adt && at->k != TK::Pick)
        fail(pos, type_name(a) + " has no function " + cf.name + " required by " + p->name);
      AdtInfo* ad = at->adt;
      auto ft = ad->func_types.find(cf.name);
      if (ft == ad->func_types.end())
        fail(pos, type_name(a) + " has no function " + cf.name + " required by " + p->name);
      if (!same_type(ft->second, subst(cf.type, c.bindings)))
        fail(pos, ad->name + "." + cf.name + " is " + type_name(ft->second) + ", but " + p->name +
                      " requires " + type_name(cf.type));
      if (ad->owner && !implements(ad->owner)) {
        Sym* imp = lookup(ad->name);
        if (!imp || imp->kind != Sym::Imported || !imp->modexpr)
          fail(pos, "adt " + ad->name + " must be imported from a module value to pass " + cf.name);
        Operand m = direct(gen(imp->modexpr));
        int table = import_table(ad->owner);
        std::string name = ad->name + "." + cf.name;
        auto& names = imports_[static_cast<std::size_t>(table)].names;
        if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
        emit(Op::movp_, m, mslot);
        std::int32_t at_pc = emit(Op::movw_, imm(0), islot);
        import_fixes_.push_back(ImportFix{at_pc, table, name, true});
        continue;
      }
      auto fn = ad->funcs.find(cf.name);
      if (fn == ad->funcs.end())
        fail(pos, "function " + ad->name + "." + cf.name + " is not defined");
      export_late(fn->second);
      emit(Op::movp_, self_module(), mslot);
      std::int32_t at_pc = emit(Op::movw_, imm(0), islot);
      self_fixes_.push_back(SelfFix{at_pc, fn->second});
    }
  }
}

// The running module as a module value of its own links, loaded once.
Operand Compiler::self_module() {
  if (self_slot_ < 0) {
    self_slot_ = mp_alloc(t_string_);
    self_table_ = static_cast<int>(imports_.size());
    imports_.push_back(ImportUse{nullptr, {}});
  }
  Operand slot{AddrMode::Mp, self_slot_, 0};
  std::int32_t done = new_label();
  jump(Op::bnew_, slot, Middle{MidMode::Imm, -1}, done);
  emit(Op::load_, str_const("$self"), Middle{MidMode::Imm, self_table_}, slot);
  place(done);
  return slot;
}

void Compiler::export_late(FuncInfo* f) {
  if (f->exported) return;
  f->exported = true;
  f->late_link = late_links_++;
}

int Compiler::poly_hidden_size(const CallTarget& c) {
  int n = 0;
  for (auto* p : c.hidden) n += static_cast<int>(p->cfuncs.size()) * 8;
  return n;
}

}  // namespace dis::limbo
