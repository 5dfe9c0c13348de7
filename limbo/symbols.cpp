// The .sbl symbol tables for `limbo -g` (reference/man6-sbl.txt, DIS-FACTS.md
// section 9): Limbo types become the sbl type letters, adts go to the type
// table once each (referenced as `@index`), functions are listed in pc order
// with their arguments and locals at our frame offsets, globals at our MP
// offsets. Offsets follow our layout, which differs from Inferno's where
// temporaries are placed differently.
#include <algorithm>

#include "compiler_impl.h"

namespace dis::limbo {

namespace {

// A declaration's extent ends at its closing brace, before the `;`.
SblSrc decl_src(const Pos& p) {
  SblSrc s;
  s.start = SblPos{p.file, p.line, p.col};
  s.stop = p.end_line > 0 ? SblPos{p.file, p.end_line, std::max(p.end_col - 1, 0)} : s.start;
  return s;
}

SblSrc src_of(const Pos& p) {
  SblSrc s;
  s.start = SblPos{p.file, p.line, p.col};
  if (p.end_line > 0)
    s.stop = SblPos{p.file, p.end_line, p.end_col};
  else
    s.stop = s.start;
  return s;
}

// A declared name's extent: from its position to the end of the name.
SblSrc name_src(const Pos& p, const std::string& name) {
  SblSrc s;
  s.start = SblPos{p.file, p.line, p.col};
  s.stop = SblPos{p.file, p.line, p.col + static_cast<std::int32_t>(name.size())};
  return s;
}

class TypeTable {
 public:
  TypeTable(std::vector<SblType>& out, std::vector<ModInfo*> impls)
      : out_(out), impls_(std::move(impls)) {}

  SblType convert(const Type* t, const SblSrc& where) {
    SblType r;
    if (!t) return r;  // 'n'
    switch (t->k) {
      case TK::None:
      case TK::Error:
        r.kind = 'n';
        break;
      case TK::Nil:
        r.kind = 'N';
        break;
      case TK::Poly:
        r.kind = 'P';
        break;
      case TK::Int:
      case TK::Fixed:  // its int (the .sbl format has no fixed-point kind)
        r.kind = 'i';
        break;
      case TK::Big:
        r.kind = 'B';
        break;
      case TK::Byte:
        r.kind = 'b';
        break;
      case TK::Real:
        r.kind = 'f';
        break;
      case TK::String:
        r.kind = 's';
        break;
      case TK::Ref:
      case TK::Array:
      case TK::List:
      case TK::Chan:
        r.kind = t->k == TK::Ref ? 'R' : t->k == TK::Array ? 'A' : t->k == TK::List ? 'L' : 'C';
        r.sub.push_back(convert(t->elem, where));
        break;
      case TK::Tuple: {
        r.kind = 't';
        r.size = type_size(t);
        std::int32_t off = 0;
        for (std::size_t i = 0; i < t->elems.size(); ++i) {
          const Type* e = t->elems[i];
          off = round_up(off, type_align(e));
          r.ids.push_back(SblId{off, "t" + std::to_string(i), where, convert(e, where)});
          off += type_size(e);
        }
        break;
      }
      case TK::Adt:
      case TK::Pick:
        r.kind = '@';
        r.index = adt_index(t->adt);
        break;
      case TK::Module:
        r.kind = 'm';
        r.name = t->mod ? t->mod->name : "";
        if (t->mod && t->mod->decl) r.src = decl_src(t->mod->decl->pos);
        break;
      case TK::Fn: {
        r.kind = 'F';
        std::int32_t off = 32;
        for (const FnParam& p : t->params) {
          off = round_up(off, type_align(p.type));
          r.ids.push_back(
              SblId{off, p.name.empty() ? "nil" : p.name, where, convert(p.type, where)});
          off += type_size(p.type);
        }
        r.sub.push_back(convert(t->elem, where));
        break;
      }
    }
    return r;
  }

  std::int32_t adt_index(AdtInfo* a) {
    auto it = index_.find(a);
    if (it != index_.end()) return it->second;
    auto idx = static_cast<std::int32_t>(out_.size());
    index_[a] = idx;
    out_.emplace_back();  // reserved: the adt may refer to itself
    if (!a->laid_out) layout_adt(*a);
    SblType t;
    t.kind = a->is_pick ? 'p' : 'a';
    t.name = a->owner && !own(a->owner) ? a->owner->name + "->" + a->name : a->name;
    if (a->decl) t.src = decl_src(a->decl->pos);
    t.size = a->is_pick ? 0 : a->size;
    t.ids = fields(a, a->fields);
    if (a->is_pick) {
      int prev = -1;
      for (std::size_t i = 0; i < a->tags.size(); ++i) {
        SblTag g;
        g.name = a->tags[i];
        g.src = t.src;
        int v = i < a->tag_variant.size() ? a->tag_variant[i] : -1;
        if (v >= 0 && v == prev) {
          g.same_as_previous = true;
        } else if (v >= 0 && static_cast<std::size_t>(v) < a->variants.size()) {
          const Variant& var = a->variants[static_cast<std::size_t>(v)];
          g.size = var.size;
          g.fields = fields(a, var.fields);
        }
        prev = v;
        t.tags.push_back(std::move(g));
      }
    }
    out_[static_cast<std::size_t>(idx)] = std::move(t);
    return idx;
  }

 private:
  std::vector<SblId> fields(AdtInfo* a, const std::vector<Field>& fs) {
    std::vector<SblId> ids;
    for (const Field& f : fs) {
      SblSrc where;
      if (a->decl) {
        where = src_of(a->decl->pos);
        for (auto& m : a->decl->members)
          if (m.kind == AdtMember::Field && m.name == f.name) where = name_src(m.pos, f.name);
        for (auto& v : a->decl->variants)
          for (auto& m : v.fields)
            if (m.kind == AdtMember::Field && m.name == f.name) where = name_src(m.pos, f.name);
      }
      ids.push_back(SblId{f.offset, f.name, where, convert(f.type, where)});
    }
    return ids;
  }

  std::vector<SblType>& out_;
  bool own(const ModInfo* m) const {
    return std::find(impls_.begin(), impls_.end(), m) != impls_.end();
  }
  std::vector<ModInfo*> impls_;  // the implemented modules: their adts are named bare
  std::map<AdtInfo*, std::int32_t> index_;
};

}  // namespace

Sbl Compiler::symbols(const Module& m) {
  Sbl s = sbl_from_module(m);
  s.fns.clear();
  TypeTable types(s.types, impls_);
  auto ids = [&](std::vector<DebugVar> vars, bool by_offset) {
    if (by_offset)
      std::stable_sort(vars.begin(), vars.end(), [](auto& a, auto& b) { return a.off < b.off; });
    std::vector<SblId> out;
    for (const DebugVar& v : vars) {
      if (v.name == "nil") continue;  // unnamed arguments are not listed
      SblSrc where = name_src(v.pos, v.name);
      SblType t = types.convert(v.type, where);
      if (v.exception) {  // Inferno describes it as a ref to a one-word tuple
        SblType tuple;
        tuple.kind = 't';
        tuple.size = 4;
        t = SblType{};
        t.kind = 'R';
        t.sub.push_back(tuple);
      }
      out.push_back(SblId{v.off, v.name, where, t});
    }
    return out;
  };
  std::vector<const FuncInfo*> order;
  for (auto& f : funcs_)
    if (f.type && f.pc >= 0) order.push_back(&f);
  std::stable_sort(order.begin(), order.end(), [](auto* a, auto* b) { return a->pc < b->pc; });
  for (const FuncInfo* f : order) {
    SblFn fn;
    fn.pc = f->pc;
    fn.name = f->name;
    fn.args = ids(f->args, false);
    fn.locals = ids(f->locals, true);
    fn.ret = types.convert(f->type->elem, src_of(f->decl->pos));
    s.fns.push_back(std::move(fn));
  }
  s.globals = ids(globals_dbg_, true);
  // The implementation's own adts are described even where no id uses them.
  for (auto& a : adts_)
    if (!a.owner || implements(a.owner)) types.adt_index(&a);
  return s;
}

}  // namespace dis::limbo
