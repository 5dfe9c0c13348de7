// Initialized globals that live in the module's data section: constants,
// and arrays whose size and elements are constants. Inferno's compiler
// writes such an array as an `array` item for the pointer slot, then, when
// it has values, `indir` into its elements, the values, and `apop`.
#include <bit>
#include <functional>

#include "compiler_impl.h"

namespace dis::limbo {

// Constants the code names in module data, each written once.
Operand Compiler::str_const(const std::string& s) {
  auto it = str_consts_.find(s);
  if (it != str_consts_.end()) return Operand{AddrMode::Mp, it->second, 0};
  std::int32_t off = mp_alloc(t_string_);
  str_consts_[s] = off;
  DataItem d;
  d.kind = DataKind::String;
  d.offset = off;
  d.text = s;
  m_.data.push_back(d);
  return Operand{AddrMode::Mp, off, 0};
}

Operand Compiler::word_const(std::int64_t v) {
  auto w = static_cast<std::int32_t>(v);
  if (w >= -(1 << 29) && w < (1 << 29)) return Operand{AddrMode::Imm, w, 0};
  auto it = word_consts_.find(w);
  if (it != word_consts_.end()) return Operand{AddrMode::Mp, it->second, 0};
  std::int32_t off = mp_alloc(t_int_);
  word_consts_[w] = off;
  m_.data.push_back(DataItem{DataKind::Words, off, {w}, ""});
  return Operand{AddrMode::Mp, off, 0};
}

// Inferno's compiler keeps nil in module data too, to name it where an
// immediate cannot stand (a string's nil, a pointer value without a
// destination). Not in the pointer map: H is no object.
Operand Compiler::nil_slot() {
  if (nil_slot_ < 0) {
    nil_slot_ = mp_alloc(t_int_);
    m_.data.push_back(DataItem{DataKind::Words, nil_slot_, {-1}, ""});
  }
  return Operand{AddrMode::Mp, nil_slot_, 0};
}

Operand Compiler::big_const(std::int64_t v) {
  auto it = big_consts_.find(v);
  if (it != big_consts_.end()) return Operand{AddrMode::Mp, it->second, 0};
  std::int32_t off = mp_alloc(t_big_);
  big_consts_[v] = off;
  m_.data.push_back(DataItem{DataKind::Bigs, off, {v}, ""});
  return Operand{AddrMode::Mp, off, 0};
}

Operand Compiler::real_const(double v) {
  auto bits = std::bit_cast<std::uint64_t>(v);
  auto it = real_consts_.find(bits);
  if (it != real_consts_.end()) return Operand{AddrMode::Mp, it->second, 0};
  std::int32_t off = mp_alloc(t_real_);
  real_consts_[bits] = off;
  m_.data.push_back(DataItem{DataKind::Reals, off, {static_cast<std::int64_t>(bits)}, ""});
  return Operand{AddrMode::Mp, off, 0};
}

void Compiler::const_data(const ConstVal& v, Type* t, std::int32_t off) {
  if (t->k == TK::String)
    m_.data.push_back(DataItem{DataKind::String, off, {}, v.s});
  else if (t->k == TK::Int || t->k == TK::Fixed)
    m_.data.push_back(DataItem{DataKind::Words, off, {static_cast<std::int32_t>(v.i)}, ""});
  else if (t->k == TK::Byte)
    m_.data.push_back(DataItem{DataKind::Bytes, off, {v.i & 0xff}, ""});
  else if (t->k == TK::Big)
    m_.data.push_back(DataItem{DataKind::Bigs, off, {v.i}, ""});
  else if (t->k == TK::Real)
    m_.data.push_back(DataItem{DataKind::Reals,
                               off,
                               {static_cast<std::int64_t>(std::bit_cast<std::uint64_t>(
                                   v.k == TK::Real ? v.r : static_cast<double>(v.i)))},
                               ""});
}

// The members of a constant tuple or adt value: a tuple, `Adt(...)`,
// `(Adt)(...)` or an adt-valued con of a module (`Sys->nulldir`, whose
// values are read in that module's scope), else null.
const std::vector<ExprP>* Compiler::composite_values(const Expr* e, ModInfo*& scope) {
  scope = nullptr;
  if (e->kind == Expr::TupleLit) return &e->args;
  if (e->kind == Expr::Call) {
    Type* t = adt_type_named(e->a.get());
    return t && t->k == TK::Adt ? &e->args : nullptr;
  }
  if (e->kind == Expr::Ident) {
    Sym* s = lookup(e->op);
    if (s && s->kind == Sym::AdtCon) return &s->adtcon->args;
  }
  auto c = module_adt_con(e);
  scope = c.mod;
  return c.call ? &c.call->args : nullptr;
}

// Writes the constant value e of type t at off (relative to the array
// being filled, if any); false when e is not a constant of that type.
bool Compiler::const_elem_data(const Expr* e, Type* t, std::int32_t off) {
  if (e->kind == Expr::Nil) return is_pointer(t);  // `new` leaves pointers nil
  if (t->k == TK::Array)
    return (e->kind == Expr::ArrayLit || e->kind == Expr::ArrayNew) && array_data(e, t, off);
  if (t->k == TK::Tuple || (t->k == TK::Adt && !t->adt->is_pick)) {
    ModInfo* scope = nullptr;
    const std::vector<ExprP>* vals = composite_values(e, scope);
    auto slots = value_slots(t);
    if (!vals || vals->size() != slots.size()) return false;
    ModInfo* outer = const_mod_;
    if (scope) const_mod_ = scope;
    bool ok = true;
    for (std::size_t i = 0; ok && i < slots.size(); ++i)
      ok = const_elem_data((*vals)[i].get(), slots[i].second, off + slots[i].first);
    const_mod_ = outer;
    return ok;
  }
  auto v = const_eval(e);
  if (!v) return false;
  if (t->k == TK::Fixed || v->k == TK::Fixed) {
    if (v->k != TK::Fixed || !same_type(v->ft, t)) return false;
    const_data(*v, t, off);
    return true;
  }
  bool num = t->k == TK::Int || t->k == TK::Byte || t->k == TK::Big || t->k == TK::Real;
  if (t->k == TK::String ? v->k != TK::String : !num || v->k == TK::String) return false;
  if (v->k == TK::Real && t->k != TK::Real) return false;
  const_data(*v, t, off);
  return true;
}

// The type of a global declared by `name := e`: a constant's, the type of a
// constant tuple, adt or array made of them, else null.
Type* Compiler::global_init_type(const Expr* e) {
  if (auto v = const_eval(e)) return const_type(*v);
  switch (e->kind) {
    case Expr::ArrayNew:
      return mk(TK::Array, resolve(e->type.get(), nullptr));
    case Expr::ArrayLit: {
      Type* et = e->inits.empty() ? nullptr : global_init_type(e->inits[0].value.get());
      return et ? mk(TK::Array, et) : nullptr;
    }
    case Expr::TupleLit: {
      Type* t = mk(TK::Tuple);
      for (auto& a : e->args) {
        t->elems.push_back(global_init_type(a.get()));
        if (!t->elems.back()) return nullptr;
      }
      return t;
    }
    case Expr::Call: {
      Type* t = adt_type_named(e->a.get());
      return t && t->k == TK::Adt ? t : nullptr;
    }
    case Expr::Ident: {
      Sym* s = lookup(e->op);
      return s && s->kind == Sym::AdtCon ? s->type : module_adt_con(e).type;
    }
    default:
      return module_adt_con(e).type;
  }
}

// Element i's value expression for each index of a literal, or false when
// a key is not a constant in range.
bool Compiler::array_values(const Expr* e, std::vector<const Expr*>& out) {
  std::optional<std::int64_t> size;
  if (e->a) {
    auto n = const_eval(e->a.get());
    if (!n || n->k != TK::Int || n->i < 0) return false;
    size = n->i;
  }
  const Expr* star = nullptr;
  std::vector<std::pair<std::int64_t, const Expr*>> set;
  std::int64_t next = 0, top = 0;
  for (auto& ai : e->inits) {
    if (ai.star) star = ai.value.get();
    if (ai.keys.empty() && !ai.star) set.emplace_back(next++, ai.value.get());
    for (std::size_t k = 0; k < ai.keys.size(); ++k) {
      auto lo = const_eval(ai.keys[k].get());
      auto hi = ai.highs[k] ? const_eval(ai.highs[k].get()) : lo;
      if (!lo || !hi || lo->k != TK::Int || hi->k != TK::Int || lo->i < 0 || hi->i > (1 << 24))
        return false;
      for (std::int64_t i = lo->i; i <= hi->i; ++i) set.emplace_back(i, ai.value.get());
      next = hi->i + 1;
    }
    top = std::max(top, next);
  }
  std::int64_t n = size ? *size : top;
  if (top > n || n > (1 << 24)) return false;
  out.assign(static_cast<std::size_t>(n), star);
  for (auto& [i, v] : set) out[static_cast<std::size_t>(i)] = v;
  return true;
}

bool Compiler::array_data(const Expr* e, Type* t, std::int32_t off) {
  Type* et = t->elem;
  std::vector<const Expr*> vals;
  if (e->kind == Expr::ArrayNew) {
    auto n = const_eval(e->a.get());
    if (!n || n->k != TK::Int || n->i < 0 || n->i > (1 << 24)) return false;
    vals.resize(static_cast<std::size_t>(n->i));
  } else if (!array_values(e, vals)) {
    return false;
  }
  std::size_t first = m_.data.size();
  m_.data.push_back(DataItem{
      DataKind::Array, off, {desc_for_type(et), static_cast<std::int64_t>(vals.size())}, ""});
  bool any = false;
  for (auto* v : vals) any = any || (v && v->kind != Expr::Nil);
  if (!any) return true;
  m_.data.push_back(DataItem{DataKind::SetIndex, off, {0}, ""});
  std::int32_t size = type_size(et);
  for (std::size_t i = 0; i < vals.size(); ++i) {
    if (vals[i] && !const_elem_data(vals[i], et, static_cast<std::int32_t>(i) * size)) {
      m_.data.resize(first);
      return false;
    }
  }
  m_.data.push_back(DataItem{DataKind::PopBase, 0, {}, ""});
  return true;
}

// A con whose value is an adt or tuple of constants (and nils): built
// where it is used.
std::optional<Sym> Compiler::adt_con_sym(const Expr* value) {
  // A tuple of constants and nils is a con too (`Sync: con (nil, 0);`), its
  // nils typed where it is used, as Inferno's compiler allows.
  std::function<Type*(const Expr*)> tuple_type = [&](const Expr* v) -> Type* {
    if (v->kind == Expr::Nil) return t_nil_;
    if (v->kind != Expr::TupleLit) return type_of(v);
    Type* tt = mk(TK::Tuple);
    for (auto& a : v->args) tt->elems.push_back(tuple_type(a.get()));
    return tt;
  };
  Type* t = value->kind == Expr::TupleLit ? tuple_type(value) : nullptr;
  if (value->kind == Expr::Call) t = adt_type_named(value->a.get());
  if (!t || (t->k != TK::Adt && t->k != TK::Tuple) || (t->k == TK::Adt && t->adt->is_pick))
    return std::nullopt;
  std::function<bool(const Expr*)> constant = [&](const Expr* v) {
    if (v->kind == Expr::TupleLit || v->kind == Expr::Call)
      return std::all_of(v->args.begin(), v->args.end(),
                         [&](const ExprP& a) { return constant(a.get()); });
    return v->kind == Expr::Nil || const_eval(v).has_value();
  };
  if (!constant(value)) return std::nullopt;
  Sym s;
  s.kind = Sym::AdtCon;
  s.type = t;
  s.adtcon = value;
  return s;
}

}  // namespace dis::limbo
