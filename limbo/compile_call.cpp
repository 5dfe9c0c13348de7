// Calls: what a call calls (a function of this module or of a loaded
// module, an adt's function, or an adt's construction), its arguments laid
// out in the callee's frame, and the frame, call and result instructions.
#include <algorithm>

#include "compiler_impl.h"

namespace dis::limbo {

Loc Compiler::gen_call(const Expr* e, const Loc* dest) {
  check_format(e);
  return gen_call_full(e, dest, false);
}

Loc Compiler::gen_call_full(const Expr* e, const Loc* dest, bool spawn) {
  if (Type* ft = fixed_call_type(e)) {  // `fpt(x)`: a conversion, not a call
    if (spawn) fail(e->pos, "spawn needs a function call");
    Loc v = gen(e->args[0].get());
    return same_type(v.t, ft) ? deliver(v, dest) : gen_fixed_convert(v, ft, e->pos, dest);
  }
  CallTarget c = call_target(e);
  if (c.construct) {
    if (spawn) fail(e->pos, "spawn needs a function call");
    return gen_construct(c.construct_type ? c.construct_type : c.construct->type, e->args, e->pos,
                         dest);
  }
  if (!spawn)
    if (auto r = gen_inline_call(e, c, dest)) return *r;
  std::vector<const Expr*> args;
  std::vector<Type*> ptypes;
  call_args(e, c, args, ptypes);
  // Self adt values are passed by value; a ref self gets the pointer.
  std::vector<std::int32_t> offs;
  std::vector<std::int32_t> ptrs;
  std::int32_t off = 32;
  for (auto* t : ptypes) {
    off = round_up(off, std::max(type_align(t), 1));
    offs.push_back(off);
    pointer_offsets(t, off, ptrs);
    off += type_size(t);
  }
  // Arguments containing calls are computed before the frame exists.
  std::int32_t hidden_off = round_up(off, 4);
  off = hidden_off + poly_hidden_size(c);
  std::vector<std::optional<Loc>> pre(args.size());
  for (std::size_t i = 0; i < args.size(); ++i)
    if (calls_in(args[i])) {
      // Computed where it lands (a call's result in its own temporary, an
      // operation in its operand's), as Inferno's compiler computes it.
      Loc v = gen_to(args[i], ptypes[i]);
      // (A ref to a pick variant passed as its adt's ref is the same pointer.)
      bool same = same_type(v.t, ptypes[i]) || (v.t->k == TK::Ref && ptypes[i]->k == TK::Ref);
      if (!reusable_temp(v, ptypes[i]) || !same) {
        Loc t = temp(ptypes[i]);
        move(v, t);
        free_temp(v, &t.op);
        v = t;
      }
      pre[i] = v;
    }
  Operand modop;
  int table = -1;
  if (c.mod) {
    modop = direct(gen(c.modexpr));
    table = import_table(c.mod);
    auto& names = imports_[static_cast<std::size_t>(table)].names;
    if (std::find(names.begin(), names.end(), c.mname) == names.end()) names.push_back(c.mname);
  }
  Loc ref_idx;
  if (c.fnref) modop = fn_ref_module(c.fnref, ref_idx);
  Loc fr = temp(t_int_);
  if (c.fnref) {
    emit(Op::mframe_, modop, Middle{MidMode::Fp, ref_idx.op.a}, fr.op);
  } else if (c.poly_slot >= 0) {
    modop = fp(c.poly_slot);
    emit(Op::mframe_, modop, Middle{MidMode::Fp, c.poly_slot + 4}, fr.op);
  } else if (c.local) {
    emit(Op::frame_, imm(c.local->desc), fr.op);
  } else if (c.ft->varargs) {
    emit(Op::frame_, imm(desc_for(round_up(off, 8), ptrs)), fr.op);
  } else {
    std::int32_t at = emit(Op::mframe_, modop, Middle{MidMode::Imm, 0}, fr.op);
    import_fixes_.push_back(ImportFix{at, table, c.mname});
  }
  {
    Pushed filling(open_frames_, fr.op.a);
    for (std::size_t i = 0; i < args.size(); ++i) {
      Loc slot{Operand{AddrMode::IndFp, fr.op.a, offs[i]}, ptypes[i]};
      if (pre[i]) {
        move(*pre[i], slot);
        free_temp(*pre[i]);
      } else {
        gen_to(args[i], ptypes[i], &slot);
      }
    }
  }
  gen_hidden_args(c, fr.op, hidden_off, e->pos);
  Type* rt = c.ft->elem ? c.ft->elem : t_none_;
  Loc r{imm(0), t_none_};
  if (rt->k != TK::None && !spawn) {
    // The result goes straight where it is wanted, as Inferno's compiler
    // does, unless that is reached through module data: the callee could
    // replace the object holding it. (What a frame slot points to stays
    // alive: the slot holds it, and an element's array is held too.)
    const bool direct_ok =
        dest && dest->op.mode != AddrMode::IndMp &&
        (dest->op.mode != AddrMode::IndFp || is_result_slot(dest->op) || is_arg_slot(dest->op) ||
         !busy_temp(dest->op.a) ||
         std::find(new_objects_.begin(), new_objects_.end(), dest->op.a) != new_objects_.end());
    // (A ref to a pick variant returned for its adt's ref is the same pointer.)
    const bool same =
        dest && (same_type(dest->t, rt) || (dest->t->k == TK::Ref && rt->k == TK::Ref));
    r = direct_ok && same ? *dest : temp(rt);
    emit(Op::lea_, r.op, Operand{AddrMode::IndFp, fr.op.a, 16});
  }
  if (c.fnref) {
    emit(spawn ? Op::mspawn_ : Op::mcall_, fr.op, Middle{MidMode::Fp, ref_idx.op.a}, modop);
  } else if (c.poly_slot >= 0) {
    emit(spawn ? Op::mspawn_ : Op::mcall_, fr.op, Middle{MidMode::Fp, c.poly_slot + 4}, modop);
  } else if (c.local) {
    std::int32_t at = emit(spawn ? Op::spawn_ : Op::call_, fr.op, imm(0));
    call_fixes_.push_back(CallFix{at, c.local});
  } else {
    std::int32_t at = emit(spawn ? Op::mspawn_ : Op::mcall_, fr.op, Middle{MidMode::Imm, 0}, modop);
    import_fixes_.push_back(ImportFix{at, table, c.mname});
  }
  if (dest && rt->k != TK::None) return deliver(r, dest);
  return r;
}

// Whether computing e calls a function: `ref Adt(...)` builds the value
// without one (Inferno's compiler builds it after the frame is made).
bool Compiler::calls_in(const Expr* e) {
  // A receive uses no frame: `f(<-c)` receives into the argument's slot.
  if (e->kind == Expr::Unary && e->op == "<-" && !has_call(e->a.get())) return false;
  // `Adt(...)` as well, a value built in the argument's slot.
  const bool ref = e->kind == Expr::Unary && e->op == "ref" && e->a->kind == Expr::Call;
  if (ref || e->kind == Expr::Call) {
    const Expr* call = ref ? e->a.get() : e;
    const Expr* callee = call->a.get();
    if (ref && callee->kind == Expr::Field) callee = callee->a.get();  // ref Adt.Tag(...)
    Sym* s = callee->kind == Expr::Ident ? lookup(callee->op) : nullptr;
    const bool adt = s && (s->kind == Sym::AdtName || (s->kind == Sym::Imported && s->adt) ||
                           (s->kind == Sym::TypeAlias && s->type->k == TK::Adt));
    if (adt) {
      for (auto& x : call->args)
        if (has_call(x.get())) return true;
      return false;
    }
  }
  return has_call(e);
}

// What a call calls: a function of this module or another's, an adt's
// function (with its self value), or an adt's construction.
CallTarget Compiler::call_target(const Expr* e) {
  CallTarget c;
  if (poly_call_target(e, c)) return c;
  std::vector<Type*> targs;
  const Expr* callee = inst_base(e->a.get(), &targs);
  AdtInfo* adt = nullptr;
  if (callee->kind == Expr::Field) {  // Tab[ref T].f(...)
    const Expr* base = inst_base(callee->a.get(), &targs);
    if (base != callee->a.get()) {
      Sym* s = base->kind == Expr::Ident ? lookup(base->op) : nullptr;
      if (!s || !s->adt) fail(callee->pos, "type arguments need a polymorphic adt");
      adt_call_target(e, s->adt, callee->op, nullptr, c);
      instantiate(e, c, s->adt, targs);
      return c;
    }
  }
  if (callee->kind == Expr::Ident) {
    Sym* s = lookup(callee->op);
    if (!s) fail(callee->pos, "undefined function " + callee->op);
    if (s->kind == Sym::Func) {
      c.local = s->func;
      c.ft = s->type;
    } else if (s->kind == Sym::AdtName || (s->kind == Sym::Imported && s->adt)) {
      c.construct = s->adt;
      c.construct_type = instance(s->adt->type, targs, callee->pos);
    } else if (s->kind == Sym::TypeAlias && s->type->k == TK::Adt && targs.empty()) {
      c.construct = s->type->adt;
      c.construct_type = s->type;
    } else if (s->kind == Sym::Imported && s->type && s->type->k == TK::Fn) {
      if (!s->modexpr)
        fail(callee->pos, callee->op + " was imported from module type " + s->mod->name +
                              ", not a module value: it cannot be called");
      c.mod = s->mod;
      c.mname = s->member;
      c.modexpr = s->modexpr;
      c.ft = s->type;
    } else if (fn_ref_target(callee, c)) {
    } else {
      fail(callee->pos, callee->op + " is not a function");
    }
  } else if (callee->kind == Expr::ModField && callee->b) {
    // `draw->(img.origin)(...)`: the function of img's adt, through draw
    if (callee->b->kind != Expr::Field)
      fail(callee->pos, "->( ) needs an adt function: m->(v.f) or m->(v).f");
    adt = qualified_call_target(e, callee->a.get(), callee->b->a.get(), callee->b->op, c);
  } else if (callee->kind == Expr::ModField) {
    if (Type* at = adt_type_named(callee); at && at->k == TK::Adt) {
      c.construct = at->adt;  // `Sys->Qid(...)`: an adt of a module, named through it
      return c;
    }
    Type* mt = type_of(callee->a.get());
    if (mt->k != TK::Module) fail(callee->pos, "-> needs a module value, not " + type_name(mt));
    auto it = mt->mod->members.find(callee->op);
    if (it == mt->mod->members.end() || it->second.kind != ModMember::Func)
      fail(callee->pos, "module " + mt->mod->name + " has no function " + callee->op);
    c.mod = mt->mod;
    c.mname = callee->op;
    c.modexpr = callee->a.get();
    c.ft = it->second.type;
  } else if (callee->kind == Expr::Field) {
    Sym* s = callee->a->kind == Expr::Ident ? lookup(callee->a->op) : nullptr;
    Type* mt = callee->a->kind == Expr::ModField ? type_of(callee->a->a.get()) : nullptr;
    Type* madt = mt && mt->k == TK::Module ? adt_type_named(callee->a.get()) : nullptr;
    if (s && (s->kind == Sym::AdtName || (s->kind == Sym::Imported && s->adt))) {
      adt_call_target(e, s->adt, callee->op, nullptr, c);
      adt = s->adt;
    } else if (callee->a->kind == Expr::ModField && callee->a->b) {
      // `lin->(Linear->Vector).make(a)`, `spki->(k).sexp()`: through lin, spki
      adt = qualified_call_target(e, callee->a->a.get(), callee->a->b.get(), callee->op, c);
    } else if (madt && madt->k == TK::Adt) {  // `draw->Font.open(...)`: through the module value
      adt_call_target(e, madt->adt, callee->op, nullptr, c, callee->a->a.get());
      adt = madt->adt;
    } else if (auto [self, mexpr] = module_self(callee->a.get()); self) {
      // `bufio->f.gets(...)`: f's adt function called through the module value bufio
      Type* t = type_of(self);
      Type* at = t->k == TK::Ref ? t->elem : t;
      if (at->k != TK::Adt && at->k != TK::Pick)
        fail(callee->pos, "cannot call ." + callee->op + " on " + type_name(t));
      adt_call_target(e, at->adt, callee->op, self, c, mexpr);
      adt = at->adt;
    } else {
      Type* t = type_of(callee->a.get());
      if (t->k == TK::Error) gen(callee->a.get());  // reports why
      Type* at = t->k == TK::Ref ? t->elem : t;
      if (at->k != TK::Adt && at->k != TK::Pick)
        fail(callee->pos, "cannot call ." + callee->op + " on " + type_name(t));
      if (!at->adt->func_types.count(callee->op) && fn_ref_target(callee, c)) return c;
      adt_call_target(e, at->adt, callee->op, callee->a.get(), c);
      adt = at->adt;
    }
  } else if (!fn_ref_target(callee, c)) {
    unsupported(e->pos, "this kind of call is");
  }
  if (!targs.empty() && c.ft && c.ft->tparams.empty())
    fail(callee->pos, "type arguments given to a function that has no type parameters");
  if (c.ft) instantiate(e, c, adt, targs);
  return c;
}

// `m->(inner).name(...)` (limbo.txt 8.1.4): inner names an adt of module m
// (a type: no self) or is a value of one (the self argument); the function
// is called through the module value m. Returns the adt.
AdtInfo* Compiler::qualified_call_target(const Expr* call, const Expr* modexpr, const Expr* inner,
                                         const std::string& name, CallTarget& c) {
  Type* mt = type_of(modexpr);
  if (mt->k != TK::Module) fail(modexpr->pos, "-> needs a module value, not " + type_name(mt));
  const Expr* self = nullptr;
  Type* at = adt_type_named(inner);
  if (!at) {
    self = inner;
    at = type_of(inner);
    if (at->k == TK::Ref) at = at->elem;
  }
  if ((at->k != TK::Adt && at->k != TK::Pick) || at->adt->owner != mt->mod)
    fail(inner->pos, "." + name + " is not a function of an adt of module " + mt->mod->name);
  adt_call_target(call, at->adt, name, self, c, modexpr);
  return at->adt;
}

// In `m->v.f(...)`, v when it is not a member of module value m but a
// name in scope, or a selection from one (`g.bufio->g.bout.flush()` reads
// g.bout): the self argument and m; else nulls.
std::pair<const Expr*, const Expr*> Compiler::module_self(const Expr* e) {
  std::vector<const Expr*> fields;  // the selections after the name, outermost first
  while (e->kind == Expr::Field) {
    fields.push_back(e);
    e = e->a.get();
  }
  if (e->kind != Expr::ModField) return {};
  Type* mt = type_of(e->a.get());
  if (mt->k != TK::Module || mt->mod->members.count(e->op)) return {};
  Sym* s = lookup(e->op);
  if (!s || s->kind != Sym::Var) return {};
  auto self = std::make_shared<Expr>();
  self->kind = Expr::Ident;
  self->op = e->op;
  self->pos = e->pos;
  synthetic_.push_back(self);
  for (auto f = fields.rbegin(); f != fields.rend(); ++f) {
    auto sel = std::make_shared<Expr>(**f);
    sel->a = self;
    synthetic_.push_back(sel);
    self = sel;
  }
  return {self.get(), e->a.get()};
}

// `Adt.f(...)` or `v.f(...)` (self the adt value): ad's function `name`.
void Compiler::adt_call_target(const Expr* e, AdtInfo* ad, const std::string& name,
                               const Expr* self, CallTarget& c, const Expr* modexpr) {
  auto it = ad->func_types.find(name);
  if (it == ad->func_types.end()) fail(e->pos, "adt " + ad->name + " has no function " + name);
  c.ft = it->second;
  c.self_arg = self;
  if (ad->owner && (!implements(ad->owner) || modexpr)) {
    if (!modexpr) {
      Sym* imp = lookup(ad->name);
      if (!imp || imp->kind != Sym::Imported || !imp->modexpr)
        fail(e->pos, "adt " + ad->name + " must be imported from a module value to call " + name);
      modexpr = imp->modexpr;
    }
    c.mod = ad->owner;
    c.mname = ad->name + "." + name;
    c.modexpr = modexpr;
  } else {
    auto f = ad->funcs.find(name);
    if (f == ad->funcs.end()) fail(e->pos, "function " + ad->name + "." + name + " is not defined");
    c.local = f->second;
  }
}

// The call's arguments, the self value first, and the type each is passed as.
void Compiler::call_args(const Expr* e, const CallTarget& c, std::vector<const Expr*>& args,
                         std::vector<Type*>& ptypes) {
  const Expr* callee = e->a.get();
  if (c.self_arg) args.push_back(c.self_arg);
  for (auto& a : e->args) args.push_back(a.get());
  std::size_t nfixed = c.ft->params.size();
  if (c.ft->varargs ? args.size() < nfixed : args.size() != nfixed)
    fail(e->pos,
         "wrong number of arguments: " + std::to_string(args.size() - (c.self_arg ? 1 : 0)) +
             " given, " + std::to_string(nfixed - (c.self_arg ? 1 : 0)) + " expected");
  if (c.self_arg && !c.ft->params.empty() && !c.ft->params[0].self)
    fail(e->pos, "function " + callee->op + " has no self argument");
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (i < nfixed) {
      ptypes.push_back(c.ft->params[i].type);
    } else {
      Type* t = type_of(args[i]);
      if (t->k == TK::Nil) fail(args[i]->pos, "nil passed as a variable argument");
      if (t->k == TK::None) fail(args[i]->pos, "expression has no value");
      ptypes.push_back(t);
    }
  }
}

}  // namespace dis::limbo
