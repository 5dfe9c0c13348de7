// Declarations, types, module data and the final assembly of the Module.
#include <algorithm>
#include <bit>
#include <cstring>
#include <fstream>
#include <functional>
#include <sstream>

#include "compiler_impl.h"
#include "parser.h"
#include "signature.h"

namespace dis::limbo {

std::int32_t round_up(std::int32_t v, std::int32_t a) { return (v + a - 1) / a * a; }

Op mov_op(const Type* t) {
  switch (t->k) {
    case TK::Int:
    case TK::Fixed:
      return Op::movw_;
    case TK::Byte:
      return Op::movb_;
    case TK::Big:
      return Op::movl_;
    case TK::Real:
      return Op::movf_;
    case TK::Tuple:
    case TK::Adt:
      return has_pointers(t) ? Op::movmp_ : Op::movm_;
    default:
      return Op::movp_;
  }
}

void Compiler::error(const Pos& p, const std::string& msg) {
  std::string file = p.file >= 0 && static_cast<std::size_t>(p.file) < prog_.files.size()
                         ? prog_.files[p.file]
                         : "?";
  for (auto& d : errs_)
    if (d.line == p.line && d.file == file && d.message == msg) return;
  errs_.push_back(Diagnostic{file, p.line, p.col + 1, -1, msg});
}

void Compiler::fail(const Pos& p, const std::string& msg) {
  error(p, msg);
  throw CompileError{};
}

void Compiler::unsupported(const Pos& p, const std::string& what) {
  fail(p, what + " not supported");
}

Type* Compiler::mk(TK k, Type* elem) {
  types_.emplace_back();
  Type* t = &types_.back();
  t->k = k;
  t->elem = elem;
  return t;
}

Sym* Compiler::lookup(const std::string& name) {
  for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it) {
    auto f = it->find(name);
    if (f != it->end()) return &f->second;
  }
  auto g = globals_.find(name);
  return g != globals_.end() ? &g->second : nullptr;
}

Type* Compiler::resolve(const TypeNode* tn, ModInfo* scope) {
  switch (tn->kind) {
    case TypeNode::Fixed:
      return resolve_fixed(tn);
    case TypeNode::Basic:
      if (tn->name == "int") return t_int_;
      if (tn->name == "big") return t_big_;
      if (tn->name == "byte") return t_byte_;
      if (tn->name == "real") return t_real_;
      return t_string_;
    case TypeNode::Ref:
    case TypeNode::Array:
    case TypeNode::List:
    case TypeNode::Chan: {
      TK k = tn->kind == TypeNode::Ref     ? TK::Ref
             : tn->kind == TypeNode::Array ? TK::Array
             : tn->kind == TypeNode::List  ? TK::List
                                           : TK::Chan;
      Type* e = resolve(tn->elem.get(), scope);
      if (k == TK::Ref && e->k != TK::Adt && e->k != TK::Pick && e->k != TK::Fn &&
          e->k != TK::Error)
        fail(tn->pos, "ref of non-adt type " + type_name(e) + " not supported");
      if (k == TK::Ref && e->k == TK::Fn &&
          std::any_of(e->params.begin(), e->params.end(), [](auto& p) { return p.self; }))
        fail(tn->pos,
             "self marks only the first argument of a function declared in an adt "
             "(limbo.txt 4.3), not an argument of a ref fn type");
      return mk(k, e);
    }
    case TypeNode::Tuple: {
      Type* t = mk(TK::Tuple);
      for (auto& e : tn->elems) t->elems.push_back(resolve(e.get(), scope));
      return t;
    }
    case TypeNode::Fn: {
      if (!tn->tparams.empty()) return resolve_poly_fn(tn, scope);
      if (!tn->constraints.empty()) fail(tn->pos, "a for clause needs type parameters");
      Type* t = mk(TK::Fn);
      t->varargs = tn->varargs;
      for (auto& p : tn->params)
        t->params.push_back(FnParam{p.name, resolve(p.type.get(), scope), p.self});
      t->elem = tn->elem ? resolve(tn->elem.get(), scope) : t_none_;
      for (auto& r : tn->raises) t->raises.push_back(r.first);
      return t;
    }
    case TypeNode::Name: {
      if (Type* p = tparam_named(tn->name)) {
        if (!tn->targs.empty()) fail(tn->pos, "type parameter " + tn->name + " takes no arguments");
        return p;
      }
      if (scope) {
        auto it = scope->members.find(tn->name);
        if (it != scope->members.end() && it->second.kind == ModMember::TypeName)
          return resolve_instance(it->second.type, tn, scope);
      }
      Sym* s = lookup(tn->name);
      if (s && s->kind == Sym::AdtName) return resolve_instance(s->adt->type, tn, scope);
      if (s && s->kind == Sym::TypeAlias) return resolve_instance(s->type, tn, scope);
      if (s && s->kind == Sym::ModType) return s->mod->type;
      if (s && s->kind == Sym::Imported) {
        auto it = s->mod->members.find(s->member);
        if (it != s->mod->members.end() && it->second.kind == ModMember::TypeName)
          return resolve_instance(it->second.type, tn, scope);
      }
      fail(tn->pos, "unknown type '" + tn->name + "'");
    }
    case TypeNode::Dot: {
      Type* base = nullptr;
      TypeNode n;
      n.kind = TypeNode::Name;
      n.name = tn->name;
      n.pos = tn->pos;
      n.targs = tn->targs;
      base = resolve(&n, scope);
      if (base->k == TK::Adt && base->adt->is_pick) {
        auto& tags = base->adt->tags;
        auto f = std::find(tags.begin(), tags.end(), tn->member);
        if (f != tags.end()) {
          Type* t = mk(TK::Pick);
          t->adt = base->adt;
          t->tag = static_cast<int>(f - tags.begin());
          t->targs = base->targs;
          return t;
        }
      }
      if (base->k == TK::Module) {
        auto it = base->mod->members.find(tn->member);
        if (it != base->mod->members.end() && it->second.kind == ModMember::TypeName)
          return it->second.type;
      }
      fail(tn->pos, "unknown type '" + tn->name + "." + tn->member + "'");
    }
    case TypeNode::Arrow: {
      std::string modname = tn->name;
      std::string tag;
      auto arrow = modname.find("->");
      std::string member = tn->member;
      if (arrow != std::string::npos) {  // Mod->Adt.Tag
        tag = member;
        member = modname.substr(arrow + 2);
        modname = modname.substr(0, arrow);
      }
      Sym* s = lookup(modname);
      ModInfo* mod = s && s->kind == Sym::ModType ? s->mod : nullptr;
      if (!mod && s && s->kind == Sym::Var && s->type->k == TK::Module) mod = s->type->mod;
      if (!mod && !s) mod = declared_module_var(modname, scope);
      if (!mod) fail(tn->pos, "unknown module '" + modname + "'");
      auto it = mod->members.find(member);
      if (it == mod->members.end() || it->second.kind != ModMember::TypeName)
        fail(tn->pos, "module " + modname + " has no type '" + member + "'");
      Type* t = it->second.type;
      if (!tag.empty()) {
        if (t->k != TK::Adt || !t->adt->is_pick) fail(tn->pos, "unknown pick tag " + tag);
        auto& tags = t->adt->tags;
        auto f = std::find(tags.begin(), tags.end(), tag);
        if (f == tags.end()) fail(tn->pos, "unknown pick tag " + tag);
        Type* p = mk(TK::Pick);
        p->adt = t->adt;
        p->tag = static_cast<int>(f - tags.begin());
        return resolve_instance(p, tn, scope);
      }
      return resolve_instance(t, tn, scope);
    }
  }
  fail(tn->pos, "bad type");
}

// `ref sys->FD` before `sys: Sys` is declared (later at top level, or as a
// member of the module being declared): the module type sys is declared
// with, else null.
ModInfo* Compiler::declared_module_var(const std::string& name, ModInfo* scope) {
  auto search = [&](const std::vector<DeclP>& decls) -> ModInfo* {
    for (auto& d : decls) {
      if (d->kind != Decl::Var || !d->type || d->type->kind != TypeNode::Name) continue;
      if (std::find(d->names.begin(), d->names.end(), name) == d->names.end()) continue;
      Sym* t = lookup(d->type->name);
      if (t && t->kind == Sym::ModType) return t->mod;
    }
    return nullptr;
  };
  if (scope && scope->decl)
    if (ModInfo* m = search(scope->decl->mod_members)) return m;
  return search(prog_.decls);
}

std::int32_t Compiler::mp_alloc(Type* t) {
  std::int32_t off = round_up(mp_size_, type_align(t));
  mp_size_ = off + type_size(t);
  pointer_offsets(t, off, mp_ptrs_);
  return off;
}

std::int32_t Compiler::desc_for(std::int32_t size, const std::vector<std::int32_t>& ptrs) {
  auto map = make_map(ptrs);
  std::string key = std::to_string(size) + ":" + std::string(map.begin(), map.end());
  auto it = desc_cache_.find(key);
  if (it != desc_cache_.end()) return it->second;
  auto id = static_cast<std::int32_t>(m_.types.size());
  m_.types.push_back(TypeDesc{id, size, map});
  desc_cache_[key] = id;
  return id;
}

std::int32_t Compiler::desc_for_type(Type* t) {
  std::vector<std::int32_t> ptrs;
  pointer_offsets(t, 0, ptrs);
  return desc_for(type_size(t), ptrs);
}

std::int32_t Compiler::adt_desc(AdtInfo& a, int variant) {
  layout_adt(a);
  std::vector<std::int32_t> ptrs;
  for (auto& f : a.fields) pointer_offsets(f.type, f.offset, ptrs);
  if (variant < 0) return desc_for(std::max(a.size, 1), ptrs);
  Variant& v = a.variants[variant];
  for (auto& f : v.fields) pointer_offsets(f.type, f.offset, ptrs);
  return desc_for(v.size, ptrs);
}

int Compiler::import_table(ModInfo* mod) {
  for (std::size_t i = 0; i < imports_.size(); ++i)
    if (imports_[i].mod == mod) return static_cast<int>(i);
  imports_.push_back(ImportUse{mod, {}});
  return static_cast<int>(imports_.size() - 1);
}

// ---- declarations ----

void Compiler::declare_adt(AdtInfo& a, const Decl& d, ModInfo* scope) {
  a.name = d.name;
  a.decl = &d;
  a.owner = scope;
  a.is_pick = !d.variants.empty();
  a.type = mk(TK::Adt);
  a.type->adt = &a;
  a.tparams = make_tparams(d.tparams, d.pos);
  for (auto& v : d.variants)
    for (auto& tag : v.tags) a.tags.push_back(tag);
}

void Compiler::resolve_adt(AdtInfo& a, const Decl& d, ModInfo* scope) {
  // Names declared together (`A, B: con 1 << iota;`) share one value
  // expression: iota counts along them.
  const Expr* group = nullptr;
  std::int64_t iota = 0;
  TparamScope ts(*this, d.tparams, a.tparams);
  try {
    constrain(d.constraints, a.tparams, scope);
  } catch (CompileError&) {
  }
  for (auto& mbr : d.members) {
    try {
      if (mbr.kind == AdtMember::Field) {
        a.fields.push_back(Field{mbr.name, resolve(mbr.type.get(), scope), mbr.cyclic, 0});
      } else if (mbr.kind == AdtMember::Func) {
        Type* ft = resolve(mbr.type.get(), scope);
        a.func_types[mbr.name] = ft;
      } else {
        iota = mbr.value.get() == group ? iota + 1 : 0;
        group = mbr.value.get();
        iota_ = iota;
        const_mod_ = scope;
        auto v = const_eval(mbr.value.get());
        iota_ = -1;
        const_mod_ = nullptr;
        if (!v || v->k != TK::Int) fail(mbr.pos, "adt constant must be an int constant");
        a.cons[mbr.name] = v->i;
      }
    } catch (CompileError&) {
      iota_ = -1;
      const_mod_ = nullptr;
    }
  }
  for (auto& pv : d.variants) {
    Variant v;
    v.tags = pv.tags;
    for (auto& f : pv.fields) {
      try {
        v.fields.push_back(Field{f.name, resolve(f.type.get(), scope), f.cyclic, 0});
      } catch (CompileError&) {
      }
    }
    a.variants.push_back(v);
    for (std::size_t i = 0; i < pv.tags.size(); ++i)
      a.tag_variant.push_back(static_cast<int>(a.variants.size() - 1));
  }
}

void Compiler::declare_module_types(bool modules) {
  struct Pending {
    ModInfo* mod;
    const Decl* decl;
  };
  std::vector<Pending> pending;
  for (auto& dp : prog_.decls) {
    // Top-level aliases too (mod null), so that adts may use them (`bool: type
    // int;`); one that needs an import waits for pass 3, which reports it.
    if (dp->kind == Decl::Type && !globals_.count(dp->name))
      pending.push_back(Pending{nullptr, dp.get()});
    if (dp->kind != Decl::Module || !modules) continue;
    ModInfo* mod = lookup(dp->name)->mod;
    for (auto& mm : dp->mod_members)
      if (mm->kind == Decl::Type) pending.push_back(Pending{mod, mm.get()});
  }
  // An alias may name one declared after it: resolve in rounds while some
  // succeed, then once more reporting what is still unknown.
  for (bool quiet = true;;) {
    std::vector<Pending> left;
    for (auto& p : pending) {
      if (!quiet && !p.mod) continue;
      auto errs = errs_.size();
      try {
        ModMember mem;
        mem.kind = ModMember::TypeName;
        mem.type = resolve(p.decl->type.get(), p.mod);
        if (p.mod)
          p.mod->members[p.decl->name] = mem;
        else
          globals_[p.decl->name] =
              Sym{Sym::TypeAlias, mem.type, {}, 0, 0, "", nullptr, nullptr, nullptr, "", nullptr};
      } catch (CompileError&) {
        if (quiet) errs_.resize(errs);
        left.push_back(p);
      }
    }
    if (!quiet || left.empty()) break;
    if (left.size() == pending.size()) quiet = false;
    pending = std::move(left);
  }
}

void Compiler::import_type_names() {
  // `Iobuf: import bufio;` at top level makes the type name visible to adt
  // and module declarations, which are resolved before the globals exist:
  // find the module through a global's declared type (the full import, with
  // the module value, is made with the globals).
  for (auto& dp : prog_.decls) {
    const Decl& d = *dp;
    if (d.kind != Decl::Import || d.value->kind != Expr::Ident) continue;
    ModInfo* mod = nullptr;
    Sym* ms = lookup(d.value->op);
    if (ms && ms->kind == Sym::ModType) mod = ms->mod;
    for (auto& vp : prog_.decls) {
      if (mod) break;
      if (vp->kind != Decl::Var || !vp->type || vp->type->kind != TypeNode::Name) continue;
      if (std::find(vp->names.begin(), vp->names.end(), d.value->op) == vp->names.end()) continue;
      Sym* ts = lookup(vp->type->name);
      if (ts && ts->kind == Sym::ModType) mod = ts->mod;
    }
    if (!mod) continue;
    for (auto& n : d.names) {
      auto it = mod->members.find(n);
      if (it == mod->members.end() || it->second.kind != ModMember::TypeName || lookup(n)) continue;
      Sym s{Sym::Imported, it->second.type, {}, 0, 0, "", nullptr, nullptr, mod, n, nullptr};
      if (it->second.type->k == TK::Adt) s.adt = it->second.type->adt;
      globals_[n] = s;
    }
  }
}

void Compiler::declare_globals() {
  // Pass 1: names of modules, adts and types.
  std::vector<PendingAdt> adts = declare_names();
  // Pass 2: module members (types may name other modules' types). Type
  // names first, so members may use those declared after them (sh.m's Cmd),
  // and the type names imported at top level, so declarations may use them.
  declare_module_types(true);
  import_implemented_members();  // its type names, for the program's adts (regex.b's refRex)
  import_type_names();
  declare_module_types(false);  // top-level aliases naming imported types
  for (auto& dp : prog_.decls)
    if (dp->kind == Decl::Module) declare_module_members(*dp);
  for (auto& pa : adts) resolve_adt(*pa.adt, *pa.decl, pa.scope);
  for (auto& pa : adts) {
    if (!pa.scope) continue;
    for (auto& [fname, ft] : pa.adt->func_types) {
      ModMember mem;
      mem.kind = ModMember::Func;
      mem.type = ft;
      pa.scope->members[pa.adt->name + "." + fname] = mem;
    }
  }
  import_implemented_members();
  declare_implemented_data();
  // Pass 3: cons, types, globals, imports, functions in order.
  for (auto& dp : prog_.decls) {
    const Decl& d = *dp;
    try {
      switch (d.kind) {
        case Decl::Con:
          declare_global_cons(d);
          break;
        case Decl::Type:
          if (globals_.count(d.name) && globals_[d.name].kind == Sym::TypeAlias) break;
          globals_[d.name] = Sym{Sym::TypeAlias,
                                 resolve(d.type.get(), nullptr),
                                 {},
                                 0,
                                 0,
                                 "",
                                 nullptr,
                                 nullptr,
                                 nullptr,
                                 "",
                                 nullptr};
          break;
        case Decl::Var:
          declare_global_var(d);
          break;
        case Decl::Import:
          declare_import(d);
          break;
        case Decl::Init:
          init_global(d);
          break;
        case Decl::Func:
          declare_function(d);
          break;
        default:
          break;
      }
    } catch (CompileError&) {
      iota_ = -1;
    }
  }
}

// Pass 1: the modules, the adts (their members come later) and the
// implemented module.
std::vector<PendingAdt> Compiler::declare_names() {
  std::vector<PendingAdt> adts;
  for (auto& dp : prog_.decls) {
    const Decl& d = *dp;
    if (d.kind == Decl::Implement) {
      if (!impl_name_.empty()) error(d.pos, "a second 'implement' declaration");
      impl_name_ = d.names[0];
      impl_names_ = d.names;
    } else if (d.kind == Decl::Module) {
      mods_.emplace_back();
      ModInfo* mod = &mods_.back();
      mod->name = d.name;
      mod->decl = &d;
      mod->type = mk(TK::Module);
      mod->type->mod = mod;
      globals_[d.name] =
          Sym{Sym::ModType, mod->type, {}, 0, 0, "", nullptr, nullptr, mod, "", nullptr};
      for (auto& mm : d.mod_members) {
        if (mm->kind == Decl::Adt) {
          adts_.emplace_back();
          declare_adt(adts_.back(), *mm, mod);
          adts.push_back(PendingAdt{&adts_.back(), mm.get(), mod});
          ModMember mem;
          mem.kind = ModMember::TypeName;
          mem.type = adts_.back().type;
          mod->members[mm->name] = mem;
          mod->order.push_back(mm->name);
        }
      }
    } else if (d.kind == Decl::Adt) {
      adts_.emplace_back();
      declare_adt(adts_.back(), d, nullptr);
      adts.push_back(PendingAdt{&adts_.back(), &d, nullptr});
      globals_[d.name] = Sym{Sym::AdtName, adts_.back().type, {},      0,  0,      "",
                             nullptr,      &adts_.back(),     nullptr, "", nullptr};
    }
  }
  if (impl_name_.empty()) error(Pos{0, 1, 0, 1, 0}, "missing 'implement' declaration");
  for (auto& name : impl_names_) {
    auto m = std::find_if(mods_.begin(), mods_.end(), [&](auto& mod) { return mod.name == name; });
    if (m == mods_.end()) {
      error(Pos{0, 1, 0, 1, 0}, "no module declaration for implemented module " + name);
    } else if (implements(&*m)) {
      error(Pos{0, 1, 0, 1, 0}, "module " + name + " implemented twice");
    } else {
      impls_.push_back(&*m);
    }
  }
  if (!impls_.empty() && impls_[0]->name == impl_name_) impl_ = impls_[0];
  // The implemented modules' adts are visible by their bare names.
  for (auto& pa : adts)
    if (implements(pa.scope))
      globals_[pa.adt->name] =
          Sym{Sym::AdtName, pa.adt->type, {}, 0, 0, "", nullptr, pa.adt, nullptr, "", nullptr};
  return adts;
}

// Pass 2 for one module declaration: its constants, variables and
// function types.
void Compiler::declare_module_members(const Decl& d) {
  ModInfo* mod = lookup(d.name)->mod;
  for (auto& mmp : d.mod_members) {
    const Decl& mm = *mmp;
    try {
      if (mm.kind == Decl::Con) {
        declare_module_cons(mm, mod);
      } else if (mm.kind == Decl::Var) {
        if (!mm.type) fail(mm.pos, "module member needs a type");
        Type* t = resolve(mm.type.get(), mod);
        for (auto& n : mm.names) {
          ModMember mem;
          mem.kind = t->k == TK::Fn ? ModMember::Func : ModMember::Var;
          mem.type = t;
          mod->members[n] = mem;
          mod->order.push_back(n);
        }
      }
    } catch (CompileError&) {
      iota_ = -1;
      const_mod_ = nullptr;
    }
  }
}

// `a, b: con e` in a module declaration: iota counts the names; an
// adt-valued con is built at each use.
void Compiler::declare_module_cons(const Decl& mm, ModInfo* mod) {
  for (std::size_t i = 0; i < mm.names.size(); ++i) {
    iota_ = static_cast<std::int64_t>(i);
    const_mod_ = mod;
    auto v = const_eval(mm.value.get());
    const_mod_ = nullptr;
    // Adt- or tuple-valued (`Nilentry: con (nil, nil, 0)`): built at each use.
    if (!v && (mm.value->kind == Expr::Call || mm.value->kind == Expr::TupleLit)) {
      ModMember mem;
      mem.kind = ModMember::AdtCon;
      mem.value = mm.value.get();
      mod->members[mm.names[i]] = mem;
      continue;
    }
    if (!v) fail(mm.pos, "con value is not constant");
    ModMember mem;
    mem.kind = ModMember::Con;
    mem.con_kind = v->k;
    mem.type = v->ft;
    mem.ival = v->i;
    mem.rval = v->r;
    mem.sval = v->s;
    mod->members[mm.names[i]] = mem;
    mod->order.push_back(mm.names[i]);
  }
  iota_ = -1;
}

// The implemented module's cons and type names are visible unqualified.
void Compiler::import_implemented_members() {
  for (ModInfo* impl : impls_)
    for (auto& [name, mem] : impl->members) {
      if (mem.kind == ModMember::Con)
        globals_[name] = Sym{Sym::Con, nullptr, {},      mem.ival, mem.rval, mem.sval,
                             nullptr,  nullptr, nullptr, "",       nullptr},
        globals_[name].type = mem.con_kind == TK::Fixed ? mem.type : con_type(mem.con_kind);
      // A tuple- or adt-valued con (`Nilentry: con (nil, nil, 0)`) is named as
      // if imported from the module: built where it is used.
      if (mem.kind == ModMember::AdtCon && !lookup(name))
        globals_[name] =
            Sym{Sym::Imported, mem.type, {}, 0, 0, "", nullptr, nullptr, impl, name, nullptr};
      if (mem.kind == ModMember::TypeName && !lookup(name))
        globals_[name] =
            Sym{Sym::TypeAlias, mem.type, {}, 0, 0, "", nullptr, nullptr, nullptr, "", nullptr};
    }
}

Type* Compiler::const_type(const ConstVal& v) const {
  return v.k == TK::Fixed ? v.ft : con_type(v.k);
}

Type* Compiler::con_type(TK k) const {
  // `K: con byte 16r31` is a byte: `x := K` declares one and `array[] of {K}`
  // is an array of byte, as in Inferno's compiler (a con has its value's type).
  if (k == TK::Byte) return t_byte_;
  return k == TK::String ? t_string_ : k == TK::Real ? t_real_ : k == TK::Big ? t_big_ : t_int_;
}

// `a, b: con e` at top level: iota counts the names.
void Compiler::declare_global_cons(const Decl& d) {
  for (std::size_t i = 0; i < d.names.size(); ++i) {
    iota_ = static_cast<std::int64_t>(i);
    auto v = const_eval(d.value.get());
    iota_ = -1;
    if (auto a = v ? std::nullopt : adt_con_sym(d.value.get())) {
      globals_[d.names[i]] = *a;
      continue;
    }
    if (!v) fail(d.pos, "con value is not constant");
    Sym s{Sym::Con, nullptr, {}, v->i, v->r, v->s, nullptr, nullptr, nullptr, "", nullptr};
    s.type = const_type(*v);
    globals_[d.names[i]] = s;
  }
}

// A global variable: its type from the declaration or its initializer,
// its place in module data. An initializer is a constant (of a basic type,
// a tuple or adt of constants, or an array of them), written into the data
// section as Inferno's compiler writes it; the language allows no other.
void Compiler::declare_global_var(const Decl& d) {
  Type* t = d.type ? resolve(d.type.get(), nullptr) : global_init_type(d.value.get());
  if (!t) fail(d.pos, "global initializer is not a constant");
  for (auto& n : d.names) {
    if (globals_.count(n) && globals_[n].kind == Sym::Var) error(d.pos, "redeclaration of " + n);
    std::int32_t off = mp_alloc(t);
    globals_dbg_.push_back(DebugVar{n, t, off, d.pos});
    Sym s{Sym::Var, t,      Operand{AddrMode::Mp, off, 0}, 0, 0, "", nullptr, nullptr, nullptr,
          "",       nullptr};
    globals_[n] = s;
    std::size_t first = m_.data.size();
    if (d.value && !const_elem_data(d.value.get(), t, off)) {
      m_.data.resize(first);
      fail(d.pos, "global initializer is not a constant of type " + type_name(t));
    }
  }
}

// `name = constant;` at top level: the initial value of module data (or of
// another global), written into the data section.
void Compiler::init_global(const Decl& d) {
  auto it = globals_.find(d.names[0]);
  if (it == globals_.end() || it->second.kind != Sym::Var || it->second.loc.mode != AddrMode::Mp)
    fail(d.pos, "top-level assignment to " + d.names[0] + ", which is not a global variable");
  Sym& s = it->second;
  std::size_t first = m_.data.size();
  if (!const_elem_data(d.value.get(), s.type, s.loc.a)) {
    m_.data.resize(first);
    fail(d.pos, "top-level assignment needs a constant of type " + type_name(s.type));
  }
}

// `a, b: import m` at top level.
void Compiler::declare_import(const Decl& d) {
  for (auto& [n, sym] : imported_syms(d.names, d.value.get(), d.pos)) globals_[n] = sym;
}

// The names `a, b: import m` declares, at top level or in a block.
std::vector<std::pair<std::string, Sym>> Compiler::imported_syms(
    const std::vector<std::string>& names, const Expr* from, const Pos& pos) {
  // From a module type name only its types and constants are usable
  // (there is no module value to call through): modexpr stays null.
  const Expr* value = from;
  ModInfo* mod = nullptr;
  if (from->kind == Expr::Ident) {
    Sym* ms = lookup(from->op);
    if (ms && ms->kind == Sym::ModType) {
      mod = ms->mod;
      from = nullptr;
    }
  }
  if (!mod) {
    Type* mt = type_of(value);
    if (mt->k != TK::Module)
      fail(pos, "import from a value of type " + type_name(mt) + ", not a module");
    mod = mt->mod;
  }
  std::vector<std::pair<std::string, Sym>> out;
  for (auto& n : names) {
    auto it = mod->members.find(n);
    if (it == mod->members.end()) fail(pos, "module " + mod->name + " has no member " + n);
    Sym s{Sym::Imported, it->second.type, {}, 0, 0, "", nullptr, nullptr, mod, n, from};
    if (it->second.kind == ModMember::TypeName && it->second.type->k == TK::Adt)
      s.adt = it->second.type->adt;
    out.emplace_back(n, s);
  }
  return out;
}

// A function definition: its frame descriptor, and its place as a global
// name or an adt's function, exported when the implemented module declares it.
void Compiler::declare_function(const Decl& d) {
  funcs_.emplace_back();
  FuncInfo& f = funcs_.back();
  f.decl = &d;
  f.name = d.adt.empty() ? d.name : d.adt + "." + d.name;
  if (!d.adt.empty()) {
    Sym* as = lookup(d.adt);
    if (!as || as->kind != Sym::AdtName) fail(d.pos, "unknown adt '" + d.adt + "'");
    f.adt = as->adt;
    if (d.tparams.size() != f.adt->tparams.size())
      fail(d.pos, "adt " + d.adt + " has " + std::to_string(f.adt->tparams.size()) +
                      " type parameters, " + std::to_string(d.tparams.size()) + " given");
  }
  {
    TparamScope ts(*this, d.tparams, f.adt ? f.adt->tparams : std::vector<Type*>{});
    f.type = resolve(d.type.get(), nullptr);
  }
  f.desc = static_cast<std::int32_t>(m_.types.size());
  m_.types.push_back(TypeDesc{f.desc, 0, {}});
  if (f.adt) {
    auto ft = f.adt->func_types.find(d.name);
    if (ft == f.adt->func_types.end()) fail(d.pos, "adt " + d.adt + " has no function " + d.name);
    if (!same_type(ft->second, f.type))
      error(d.pos, "function " + f.name + " defined as " + type_name(f.type) + " but declared " +
                       type_name(ft->second));
    check_raises_match(f.type, ft->second, f.name, d.pos);
    if (f.adt->funcs.count(d.name)) fail(d.pos, "function " + f.name + " defined twice");
    f.adt->funcs[d.name] = &f;
    f.exported = implements(f.adt->owner);
  } else {
    if (globals_.count(d.name) && globals_[d.name].kind == Sym::Func)
      fail(d.pos, "function " + d.name + " defined twice");
    Sym s{Sym::Func, f.type, {}, 0, 0, "", &f, nullptr, nullptr, "", nullptr};
    globals_[d.name] = s;
    for (ModInfo* impl : impls_) {  // a function two of them declare must agree with both
      auto it = impl->members.find(d.name);
      if (it != impl->members.end() && it->second.kind == ModMember::Func) {
        f.exported = true;
        if (!same_type(it->second.type, f.type))
          error(d.pos, "function " + d.name + " defined as " + type_name(f.type) +
                           " but declared " + type_name(it->second.type) + " in " + impl->name);
        check_raises_match(f.type, it->second.type, f.name, d.pos);
      }
    }
  }
}

void Compiler::run_declarations() {
  m_.types.push_back(TypeDesc{0, 0, {}});  // MP, filled in at the end
  types_.emplace_back();
  auto basic = [&](TK k) {
    types_.emplace_back();
    types_.back().k = k;
    return &types_.back();
  };
  t_int_ = basic(TK::Int);
  t_big_ = basic(TK::Big);
  t_byte_ = basic(TK::Byte);
  t_real_ = basic(TK::Real);
  t_string_ = basic(TK::String);
  t_none_ = basic(TK::None);
  t_nil_ = basic(TK::Nil);
  t_error_ = basic(TK::Error);
  scopes_.emplace_back();
  declare_globals();
  declare_exceptions();
}

Module Compiler::run() {
  run_declarations();
  // Files by their base names, as Inferno's compiler records them.
  for (auto& f : prog_.files) {
    auto slash = f.rfind('/');
    m_.source_files.push_back(slash == std::string::npos ? f : f.substr(slash + 1));
  }
  compile_functions();
  for (ModInfo* impl : impls_) {
    for (auto& [name, mem] : impl->members) {
      if (mem.kind != ModMember::Func) continue;
      bool found = false;
      for (auto& f : funcs_) found |= f.name == name;
      if (!found)
        error(Pos{0, 1, 0, 1, 0},
              "function " + name + " of module " + impl->name + " is not defined");
    }
  }
  if (!errs_.empty()) throw InputError(errs_);
  finish_module();
  std::vector<const FuncInfo*> order;
  for (auto& f : funcs_)
    if (f.type && f.pc >= 0) order.push_back(&f);
  std::stable_sort(order.begin(), order.end(), [](auto* a, auto* b) { return a->pc < b->pc; });
  for (auto* f : order) m_.functions.push_back(FunctionInfo{f->name, f->pc});
  return std::move(m_);
}

void Compiler::finish_module() {
  for (auto& cf : call_fixes_)
    m_.code[static_cast<std::size_t>(cf.pc)].dst = Operand{AddrMode::Imm, cf.f->pc, 0};
  // Import tables: functions sorted by bare name (the compiler's order).
  std::vector<std::vector<std::string>> sorted(imports_.size());
  for (std::size_t i = 0; i < imports_.size(); ++i) {
    auto names = imports_[i].names;
    auto bare = [](const std::string& n) {
      auto d = n.find('.');
      return d == 0 ? "" : d == std::string::npos ? n : n.substr(d + 1);  // ".mp" first
    };
    std::stable_sort(names.begin(), names.end(),
                     [&](auto& a, auto& b) { return bare(a) < bare(b); });
    sorted[i] = names;
    ImportTable tab;
    if (!imports_[i].mod) {  // "$self": every link of this module, in link order
      names = self_links();
      for (auto* f : exported_in_order())
        tab.push_back(Import{f->name, type_sig(sig_string(f->type)), sig_string(f->type)});
      sorted[i] = names;
      m_.imports.push_back(tab);
      continue;
    }
    for (auto& n : names) {
      std::string type = n != ".mp" ? sig_string(imports_[i].mod->members[n].type)
                         : implements(imports_[i].mod) ? data_sig_string(implemented_data())
                                                       : data_sig_string(*imports_[i].mod);
      tab.push_back(Import{n, type_sig(type), type});
    }
    m_.imports.push_back(tab);
  }
  for (auto& fx : import_fixes_) {
    auto& names = sorted[static_cast<std::size_t>(fx.table)];
    auto idx =
        static_cast<std::int32_t>(std::find(names.begin(), names.end(), fx.name) - names.begin());
    if (fx.in_src)
      m_.code[static_cast<std::size_t>(fx.pc)].src = imm(idx);
    else
      m_.code[static_cast<std::size_t>(fx.pc)].mid = Middle{MidMode::Imm, idx};
  }
  {
    auto links = exported_in_order();
    for (auto& sf : self_fixes_) {
      auto idx =
          static_cast<std::int32_t>(std::find(links.begin(), links.end(), sf.f) - links.begin());
      m_.code[static_cast<std::size_t>(sf.pc)].src = imm(idx);
    }
  }
  for (auto& tf : table_fixes_)
    m_.data[tf.item].values[tf.index] = label_pc_[static_cast<std::size_t>(tf.label)];
  if (!m_.imports.empty()) m_.flags |= kHasLdt;
  if (!m_.handlers.empty()) m_.flags |= kHasExcept;
  m_.data_size = round_up(mp_size_, 4);
  m_.types[0] = TypeDesc{0, m_.data_size, make_map(mp_ptrs_)};
  m_.name.clear();  // `implement A, B;` is "A+B", as Inferno names it
  for (auto& n : impl_names_) m_.name += (m_.name.empty() ? "" : "+") + n;
  // Module data first (".mp" sorts before every name), then the functions.
  if (auto data = implemented_data(); !data.empty())
    m_.links.push_back(Link{".mp", -1, -1, type_sig(data_sig_string(data))});
  for (FuncInfo* f : exported_in_order())
    m_.links.push_back(Link{f->name, f->pc, f->desc, type_sig(sig_string(f->type))});
  for (auto& f : funcs_)
    if (f.name == "init" && f.exported) {
      m_.entry_pc = f.pc;
      m_.entry_type = f.desc;
    }
  std::string base = prog_.files[0];
  auto slash = base.rfind('/');
  m_.source_path = slash == std::string::npos ? base : base.substr(slash + 1);
  m_.stack_extent = 0;
}

// Links: the declared ones sorted by bare name, then those made for $self
// in the order they were needed (as Inferno's compiler appends them).
std::vector<FuncInfo*> Compiler::exported_in_order() {
  std::vector<FuncInfo*> ex;
  for (auto& f : funcs_)
    if (f.exported) ex.push_back(&f);
  auto bare = [](const std::string& n) {
    auto d = n.find('.');
    return d == std::string::npos ? n : n.substr(d + 1);
  };
  std::stable_sort(ex.begin(), ex.end(), [&](FuncInfo* a, FuncInfo* b) {
    if (a->late_link != b->late_link) return a->late_link < b->late_link;
    return bare(a->name) < bare(b->name);
  });
  return ex;
}

std::vector<std::string> Compiler::self_links() {
  std::vector<std::string> out;
  for (auto* f : exported_in_order()) out.push_back(f->name);
  return out;
}

// f applied to a compiler of prog; again to a second one when a break or
// continue came before some declarations of a block it leaves, so that it
// resets their pointers too (the second compiler knows them from the first).
template <class F>
static auto compiled(Program& prog, const CompileOptions& opts, F f) {
  Compiler c(prog, opts);
  auto out = f(c);
  if (!c.rerun_) return out;
  Compiler again(prog, opts);
  again.block_memo_ = std::move(c.block_memo_);
  return f(again);
}

Module compile_source(const std::string& path, const std::string& source,
                      const CompileOptions& opts) {
  Program prog = parse_program(path, source, opts.include_dirs);
  return compiled(prog, opts, [](Compiler& c) { return c.run(); });
}

std::vector<std::pair<std::string, std::string>> Compiler::declared(
    const std::string& module_name) {
  run_declarations();
  if (!errs_.empty()) throw InputError(errs_);
  std::vector<std::pair<std::string, std::string>> out;
  for (auto& mod : mods_) {
    if (mod.name != module_name) continue;
    for (auto& [name, mem] : mod.members)
      if (mem.kind == ModMember::Func) out.emplace_back(name, sig_string(mem.type));
    return out;
  }
  throw InputError(Diagnostic{prog_.files[0], 0, 0, -1, "no module " + module_name});
}

std::vector<std::pair<std::string, std::string>> declared_signatures(const std::string& m_path,
                                                                     const std::string& module_name,
                                                                     const CompileOptions& opts) {
  std::string src = "implement Declared_;\ninclude \"" + m_path + "\";\nDeclared_: module {};\n";
  Program prog = parse_program("declared.b", src, opts.include_dirs);
  Compiler c(prog, opts);
  return c.declared(module_name);
}

static std::string read_source(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(Diagnostic{path, 0, 0, -1, "cannot open file"});
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

Module compile_file(const std::string& path, const CompileOptions& opts) {
  return compile_source(path, read_source(path), opts);
}

CompiledModule compile_source_with_symbols(const std::string& path, const std::string& source,
                                           const CompileOptions& opts) {
  Program prog = parse_program(path, source, opts.include_dirs);
  return compiled(prog, opts, [](Compiler& c) {
    CompiledModule out;
    out.module = c.run();
    out.symbols = c.symbols(out.module);
    return out;
  });
}

CompiledModule compile_file_with_symbols(const std::string& path, const CompileOptions& opts) {
  return compile_source_with_symbols(path, read_source(path), opts);
}

}  // namespace dis::limbo
