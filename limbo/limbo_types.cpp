#include "limbo_types.h"

#include <algorithm>
#include <cstdio>
#include <set>
#include <tuple>

#include "ast.h"

namespace dis::limbo {

std::string fixed_g(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

bool is_pointer(const Type* t) {
  switch (t->k) {
    case TK::String:
    case TK::Ref:
    case TK::Array:
    case TK::List:
    case TK::Chan:
    case TK::Module:
    case TK::Fn:
    case TK::Nil:
    case TK::Poly:
      return true;
    default:
      return false;
  }
}

std::int32_t type_align(const Type* t) {
  switch (t->k) {
    case TK::Byte:
      return 1;
    case TK::Big:
    case TK::Real:
      return 8;
    case TK::Tuple: {
      std::int32_t a = 1;
      for (auto* e : t->elems) a = std::max(a, type_align(e));
      return a;
    }
    case TK::Adt:
      layout_adt(*t->adt);
      return t->adt->align;
    case TK::None:
      return 1;
    default:
      return 4;
  }
}

static std::int32_t round_up(std::int32_t v, std::int32_t a) { return (v + a - 1) / a * a; }

std::int32_t type_size(const Type* t) {
  switch (t->k) {
    case TK::None:
      return 0;
    case TK::Byte:
      return 1;
    case TK::Big:
    case TK::Real:
      return 8;
    case TK::Tuple: {
      std::int32_t off = 0;
      for (auto* e : t->elems) off = round_up(off, type_align(e)) + type_size(e);
      return round_up(off, type_align(t));
    }
    case TK::Adt:
      layout_adt(*t->adt);
      return t->adt->size;
    default:
      return 4;
  }
}

std::vector<std::pair<std::int32_t, Type*>> value_slots(const Type* t) {
  std::vector<std::pair<std::int32_t, Type*>> slots;
  if (t->k == TK::Tuple) {
    std::int32_t off = 0;
    for (auto* et : t->elems) {
      off = (off + type_align(et) - 1) / type_align(et) * type_align(et);
      slots.emplace_back(off, et);
      off += type_size(et);
    }
  } else {
    layout_adt(*t->adt);
    for (auto& f : t->adt->fields) slots.emplace_back(f.offset, f.type);
  }
  return slots;
}

void layout_adt(AdtInfo& a) {
  if (a.laid_out) return;
  a.laid_out = true;
  std::int32_t off = a.is_pick ? 4 : 0;
  std::int32_t al = 4;
  for (auto& f : a.fields) {
    std::int32_t fa = type_align(f.type);
    off = round_up(off, fa);
    f.offset = off;
    off += type_size(f.type);
    al = std::max(al, fa);
  }
  if (!a.is_pick && a.fields.empty()) al = 1;
  std::int32_t common_end = off;
  for (auto& v : a.variants) {
    std::int32_t vo = common_end;
    std::int32_t va = al;
    for (auto& f : v.fields) {
      std::int32_t fa = type_align(f.type);
      vo = round_up(vo, fa);
      f.offset = vo;
      vo += type_size(f.type);
      va = std::max(va, fa);
    }
    v.size = round_up(std::max(vo, 4), va);
  }
  a.align = al;
  a.size = round_up(off, al);
  if (a.is_pick) a.size = std::max(a.size, 4);
}

void pointer_offsets(const Type* t, std::int32_t base, std::vector<std::int32_t>& out) {
  if (is_pointer(t)) {
    out.push_back(base);
    return;
  }
  if (t->k == TK::Tuple) {
    std::int32_t off = 0;
    for (auto* e : t->elems) {
      off = round_up(off, type_align(e));
      pointer_offsets(e, base + off, out);
      off += type_size(e);
    }
  } else if (t->k == TK::Adt) {
    layout_adt(*t->adt);
    for (auto& f : t->adt->fields) pointer_offsets(f.type, base + f.offset, out);
  }
}

bool has_pointers(const Type* t) {
  std::vector<std::int32_t> v;
  pointer_offsets(t, 0, v);
  return !v.empty();
}

std::vector<std::uint8_t> make_map(const std::vector<std::int32_t>& offs) {
  std::vector<std::uint8_t> m;
  for (auto o : offs) {
    std::size_t w = static_cast<std::size_t>(o / 4);
    if (m.size() <= w / 8) m.resize(w / 8 + 1, 0);
    m[w / 8] |= static_cast<std::uint8_t>(0x80 >> (w % 8));
  }
  while (!m.empty() && m.back() == 0) m.pop_back();
  return m;
}

// ---- type equality ----

namespace {

using AdtPairs = std::set<std::pair<const void*, const void*>>;

bool eq(const Type* a, const Type* b, AdtPairs& assumed, bool structural);

bool eq_fields(const std::vector<Field>& x, const std::vector<Field>& y, AdtPairs& as,
               bool structural) {
  if (x.size() != y.size()) return false;
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (x[i].name != y[i].name || x[i].cyclic != y[i].cyclic) return false;
    if (!eq(x[i].type, y[i].type, as, structural)) return false;
  }
  return true;
}

bool eq_adt(const AdtInfo* a, const AdtInfo* b, AdtPairs& as, bool structural) {
  if (a == b) return true;
  if (!structural) return false;
  if (as.count({a, b})) return true;
  as.insert({a, b});
  if (a->is_pick != b->is_pick || a->tags != b->tags) return false;
  if (!eq_fields(a->fields, b->fields, as, structural)) return false;
  for (std::size_t i = 0; i < a->tags.size(); ++i) {
    if (!eq_fields(a->variants[a->tag_variant[i]].fields, b->variants[b->tag_variant[i]].fields, as,
                   structural))
      return false;
  }
  return true;
}

bool eq(const Type* a, const Type* b, AdtPairs& as, bool structural) {
  if (a == b) return true;
  if (!a || !b) return false;
  if (a->k == TK::Error || b->k == TK::Error) return true;
  if (a->k != b->k) return false;
  switch (a->k) {
    case TK::Fixed:  // the same scale and maximum (the addendum's type equivalence)
      return a->fx_scale == b->fx_scale && a->fx_max == b->fx_max;
    case TK::Ref:
    case TK::Array:
    case TK::List:
    case TK::Chan:
      return eq(a->elem, b->elem, as, structural);
    case TK::Tuple:
      if (a->elems.size() != b->elems.size()) return false;
      for (std::size_t i = 0; i < a->elems.size(); ++i)
        if (!eq(a->elems[i], b->elems[i], as, structural)) return false;
      return true;
    case TK::Adt:
      // Instances differ by their arguments; a bare name (`self ref Tab`)
      // stands for any.
      if (a->targs.size() == b->targs.size())
        for (std::size_t i = 0; i < a->targs.size(); ++i)
          if (!eq(a->targs[i], b->targs[i], as, structural)) return false;
      return eq_adt(a->adt, b->adt, as, structural);
    case TK::Pick:
      if (!eq_adt(a->adt, b->adt, as, structural)) return false;
      if (a->adt == b->adt) return a->adt->tag_variant[a->tag] == b->adt->tag_variant[b->tag];
      return eq_fields(a->adt->variants[a->adt->tag_variant[a->tag]].fields,
                       b->adt->variants[b->adt->tag_variant[b->tag]].fields, as, structural);
    case TK::Module:
      return a->mod == b->mod || (structural && a->mod->name == b->mod->name);
    case TK::Poly:  // a declaration's `fn[T]` and its definition's `f[T]` name it alike
      return a->name == b->name;
    case TK::Fn:
      if (a->varargs != b->varargs || a->params.size() != b->params.size()) return false;
      for (std::size_t i = 0; i < a->params.size(); ++i)
        if (a->params[i].self != b->params[i].self ||
            !eq(a->params[i].type, b->params[i].type, as, structural))
          return false;
      return eq(a->elem, b->elem, as, structural) ||
             (!a->elem && b->elem && b->elem->k == TK::None) ||
             (!b->elem && a->elem && a->elem->k == TK::None);
    default:
      return true;
  }
}

// ---- signatures ----

struct Signer {
  struct Numbered {
    const Type* tuple = nullptr;
    const AdtInfo* adt = nullptr;
    int variant = -1;  // with adt: a pick variant
    const ModInfo* mod = nullptr;
  };
  std::vector<Numbered> nums;
  std::string out;

  int find(const Numbered& n) {
    for (std::size_t i = 0; i < nums.size(); ++i) {
      const Numbered& m = nums[i];
      AdtPairs as;
      if (n.tuple && m.tuple && eq(n.tuple, m.tuple, as, true)) return static_cast<int>(i) + 1;
      if (n.adt && m.adt && n.variant < 0 && m.variant < 0 && eq_adt(n.adt, m.adt, as, true))
        return static_cast<int>(i) + 1;
      if (n.adt && m.adt && n.variant >= 0 && m.variant >= 0 && eq_adt(n.adt, m.adt, as, true) &&
          eq_fields(n.adt->variants[n.variant].fields, m.adt->variants[m.variant].fields, as, true))
        return static_cast<int>(i) + 1;
      if (n.mod && m.mod && n.mod->name == m.mod->name) return static_cast<int>(i) + 1;
    }
    return 0;
  }

  bool backref(const Numbered& n) {
    int k = find(n);
    if (k) {
      out += "@" + std::to_string(k);
      return true;
    }
    nums.push_back(n);
    return false;
  }

  void fields(const std::vector<Field>& fs) {
    for (std::size_t i = 0; i < fs.size(); ++i) {
      if (i) out += ",";
      out += fs[i].name + ":";
      if (fs[i].cyclic) out += "y";
      sign(fs[i].type);
    }
  }

  void adt(const AdtInfo* a) {
    if (backref(Numbered{nullptr, a, -1, nullptr})) return;
    out += a->tparams.empty() ? "a(" : "a()(";
    fields(a->fields);
    if (a->is_pick) {
      out += ",";
      for (std::size_t i = 0; i < a->tags.size(); ++i) {
        if (i) out += ",";
        out += a->tags[i] + "=>";
        variant(a, a->tag_variant[i]);
      }
    }
    out += ")";
  }

  void variant(const AdtInfo* a, int v) {
    if (backref(Numbered{nullptr, a, v, nullptr})) return;
    out += "p(";
    fields(a->variants[v].fields);
    out += ")";
    adt(a);
  }

  void module(const ModInfo* m) {
    if (backref(Numbered{nullptr, nullptr, -1, m})) return;
    out += "m{";
    data(module_data(*m));
    // Functions by bare name; those sharing one (`PDB.read`, `PRC.read`,
    // sh.m's `run` and `Context.run`) in the order they (or their adts) are
    // declared, as Inferno's stable namesort leaves the interface list.
    auto declared_at = [m](const std::string& owner) {
      const auto& ds = m->decl ? m->decl->mod_members : std::vector<DeclP>{};
      for (std::size_t i = 0; i < ds.size(); ++i)
        if (ds[i]->name == owner ||
            std::find(ds[i]->names.begin(), ds[i]->names.end(), owner) != ds[i]->names.end())
          return i;
      return ds.size();
    };
    std::vector<std::tuple<std::string, std::size_t, const Type*>> fns;
    for (auto& [name, mem] : m->members) {
      if (mem.kind != ModMember::Func) continue;
      auto dot = name.find('.');
      fns.emplace_back(name.substr(dot == std::string::npos ? 0 : dot + 1),
                       declared_at(name.substr(0, dot)), mem.type);
    }
    std::sort(fns.begin(), fns.end(), [](auto& x, auto& y) {
      return std::tie(std::get<0>(x), std::get<1>(x)) < std::tie(std::get<0>(y), std::get<1>(y));
    });
    for (auto& [n, at, t] : fns) {
      out += n + ":";
      sign(t);
      out += ";";
    }
    out += "}";
  }

  // A module's data members, `name:type;` each, sorted by name.
  void data(const std::vector<std::pair<std::string, Type*>>& vars) {
    for (auto& [n, t] : vars) {
      out += n + ":";
      sign(t);
      out += ";";
    }
  }

  void sign(const Type* t) {
    if (!t) {
      out += "n";
      return;
    }
    switch (t->k) {
      case TK::None:
        out += "n";
        break;
      case TK::Int:
        out += "i";
        break;
      case TK::Big:
        out += "B";
        break;
      case TK::Byte:
        out += "b";
        break;
      case TK::Real:
        out += "r";
        break;
      case TK::String:
        out += "s";
        break;
      case TK::Nil:
      case TK::Error:
        out += "n";
        break;
      case TK::Ref:
        out += "R";
        sign(t->elem);
        break;
      case TK::List:
        out += "L";
        sign(t->elem);
        break;
      case TK::Array:
        out += "A";
        sign(t->elem);
        break;
      case TK::Chan:
        out += "C";
        sign(t->elem);
        break;
      case TK::Tuple:
        if (backref(Numbered{t, nullptr, -1, nullptr})) break;
        out += "t(";
        for (std::size_t i = 0; i < t->elems.size(); ++i) {
          if (i) out += ",";
          sign(t->elems[i]);
        }
        out += ")";
        break;
      case TK::Adt:
        adt(t->adt);
        break;
      case TK::Pick:
        variant(t->adt, t->adt->tag_variant[t->tag]);
        break;
      case TK::Module:
        module(t->mod);
        break;
      case TK::Poly:
        out += "P";
        break;
      case TK::Fixed:  // the unit a value's int counts, as C's %g prints it
        out += "x" + fixed_g(t->fx_unit);
        break;
      case TK::Fn:
        out += "f";
        if (t->varargs) out += "*";
        if (!t->tparams.empty()) out += "()";
        out += "(";
        for (std::size_t i = 0; i < t->params.size(); ++i) {
          if (i) out += ",";
          if (t->params[i].self) out += "S";
          sign(t->params[i].type);
        }
        out += ")";
        // A raises clause is part of the type: its names, before the result.
        if (!t->raises.empty()) {
          out += "(";
          for (std::size_t i = 0; i < t->raises.size(); ++i) out += (i ? "," : "") + t->raises[i];
          out += ")";
        }
        sign(t->elem);
        break;
    }
  }
};

}  // namespace

bool same_type(const Type* a, const Type* b) {
  AdtPairs as;
  return eq(a, b, as, false);
}

namespace {

// The data members of a tuple or non-pick adt, else null.
const std::vector<Type*>* members(const Type* t, std::vector<Type*>& store) {
  if (t->k == TK::Tuple) return &t->elems;
  if (t->k != TK::Adt || t->adt->is_pick) return nullptr;
  store.clear();
  for (auto& f : t->adt->fields) store.push_back(f.type);
  return &store;
}

// Types with the same values: equal, or tuples and adts whose members are
// (`array of (int, int)` holds what `array of Subexp` does, Subexp being an
// adt of two ints); element types of arrays, lists and channels likewise.
bool interchangeable(const Type* a, const Type* b) {
  AdtPairs as;
  if (eq(a, b, as, true)) return true;
  if (!a || !b) return false;
  if (a->k == b->k && (a->k == TK::Array || a->k == TK::List || a->k == TK::Chan))
    return interchangeable(a->elem, b->elem);
  std::vector<Type*> sa, sb;
  const auto* ma = members(a, sa);
  const auto* mb = members(b, sb);
  if (!ma || !mb || ma->size() != mb->size() || (a->k == TK::Adt && b->k == TK::Adt)) return false;
  for (std::size_t i = 0; i < ma->size(); ++i)
    if (!interchangeable((*ma)[i], (*mb)[i])) return false;
  return true;
}

}  // namespace

bool assignable_type(const Type* to, const Type* from) {
  AdtPairs as;
  if (eq(to, from, as, true)) return true;
  if (to && from && to->k == from->k &&
      (to->k == TK::Array || to->k == TK::List || to->k == TK::Chan))
    return interchangeable(to->elem, from->elem);
  if (to && from && to->k == TK::Tuple && from->k == TK::Adt) return interchangeable(to, from);
  if (!to || !from || from->k != TK::Tuple) return false;
  if (to->k == TK::Tuple) {
    if (to->elems.size() != from->elems.size()) return false;
    for (std::size_t i = 0; i < to->elems.size(); ++i)
      if (!assignable_type(to->elems[i], from->elems[i])) return false;
    return true;
  }
  if (to->k != TK::Adt || to->adt->is_pick) return false;
  const auto& fields = to->adt->fields;
  if (fields.size() != from->elems.size()) return false;
  for (std::size_t i = 0; i < fields.size(); ++i)
    if (!assignable_type(fields[i].type, from->elems[i])) return false;
  return true;
}

std::vector<std::pair<std::string, Type*>> module_data(const ModInfo& m) {
  std::vector<std::pair<std::string, Type*>> vars;
  for (auto& [name, mem] : m.members)  // a std::map: sorted by name already
    if (mem.kind == ModMember::Var) vars.emplace_back(name, mem.type);
  return vars;
}

std::string data_sig_string(const ModInfo& m) { return data_sig_string(module_data(m)); }

std::string data_sig_string(const std::vector<std::pair<std::string, Type*>>& vars) {
  Signer s;
  s.data(vars);
  return s.out;
}

std::string sig_string(const Type* t) {
  Signer s;
  s.sign(t);
  return s.out;
}

static std::string type_args_name(const std::vector<Type*>& targs) {
  if (targs.empty()) return "";
  std::string s = "[";
  for (std::size_t i = 0; i < targs.size(); ++i) s += (i ? ", " : "") + type_name(targs[i]);
  return s + "]";
}

std::string type_name(const Type* t) {
  if (!t) return "no type";
  switch (t->k) {
    case TK::None:
      return "no value";
    case TK::Int:
      return "int";
    case TK::Big:
      return "big";
    case TK::Byte:
      return "byte";
    case TK::Real:
      return "real";
    case TK::String:
      return "string";
    case TK::Nil:
      return "nil";
    case TK::Error:
      return "error";
    case TK::Ref:
      return "ref " + type_name(t->elem);
    case TK::Array:
      return "array of " + type_name(t->elem);
    case TK::List:
      return "list of " + type_name(t->elem);
    case TK::Chan:
      return "chan of " + type_name(t->elem);
    case TK::Tuple: {
      std::string s = "(";
      for (std::size_t i = 0; i < t->elems.size(); ++i)
        s += (i ? ", " : "") + type_name(t->elems[i]);
      return s + ")";
    }
    case TK::Adt:
      return t->adt->name + type_args_name(t->targs);
    case TK::Pick:
      return t->adt->name + type_args_name(t->targs) + "." + t->adt->tags[t->tag];
    case TK::Poly:
      return t->name;
    case TK::Fixed:  // the maximum when it is not the default (2^31-1 scales)
      return "fixed(" + fixed_g(t->fx_scale) +
             (t->fx_max == 2147483647.0 * t->fx_scale ? "" : ", " + fixed_g(t->fx_max)) + ")";
    case TK::Module:
      return t->mod->name;
    case TK::Fn: {
      std::string s = "fn(";
      for (std::size_t i = 0; i < t->params.size(); ++i)
        s += (i ? ", " : "") + std::string(t->params[i].self ? "self " : "") +
             type_name(t->params[i].type);
      s += ")";
      if (t->elem && t->elem->k != TK::None) s += ": " + type_name(t->elem);
      return s;
    }
  }
  return "?";
}

}  // namespace dis::limbo
