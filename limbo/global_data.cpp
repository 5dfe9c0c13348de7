// Initialized globals that live in the module's data section: constants,
// and arrays whose size and elements are constants. Inferno's compiler
// writes such an array as an `array` item for the pointer slot, then, when
// it has values, `indir` into its elements, the values, and `apop`.
#include <bit>

#include "compiler_impl.h"

namespace dis::limbo {

void Compiler::const_data(const ConstVal& v, Type* t, std::int32_t off) {
  if (t->k == TK::String)
    m_.data.push_back(DataItem{DataKind::String, off, {}, v.s});
  else if (t->k == TK::Int)
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

// The type of a constant element (a basic constant, or a tuple of them), or
// null when the element needs code.
Type* Compiler::const_elem_type(const Expr* e) {
  if (e->kind == Expr::TupleLit) {
    Type* t = mk(TK::Tuple);
    for (auto& a : e->args) {
      Type* et = const_elem_type(a.get());
      if (!et || et->k == TK::Tuple) return nullptr;
      t->elems.push_back(et);
    }
    return t;
  }
  auto v = const_eval(e);
  if (!v) return nullptr;
  switch (v->k) {
    case TK::String:
      return t_string_;
    case TK::Real:
      return t_real_;
    case TK::Big:
      return t_big_;
    case TK::Byte:
      return t_byte_;
    default:
      return t_int_;
  }
}

// Writes one constant element of type t at off; false when it is not one.
bool Compiler::const_elem_data(const Expr* e, Type* t, std::int32_t off) {
  if (e->kind == Expr::Nil) return is_pointer(t);  // `new` leaves pointers nil
  if (t->k == TK::Tuple) {
    if (e->kind != Expr::TupleLit || e->args.size() != t->elems.size()) return false;
    std::int32_t at = 0;
    for (std::size_t i = 0; i < t->elems.size(); ++i) {
      at = round_up(at, type_align(t->elems[i]));
      if (!const_elem_data(e->args[i].get(), t->elems[i], off + at)) return false;
      at += type_size(t->elems[i]);
    }
    return true;
  }
  auto v = const_eval(e);
  if (!v) return false;
  bool num = t->k == TK::Int || t->k == TK::Byte || t->k == TK::Big || t->k == TK::Real;
  if (t->k == TK::String ? v->k != TK::String : !num || v->k == TK::String) return false;
  if (v->k == TK::Real && t->k != TK::Real) return false;
  const_data(*v, t, off);
  return true;
}

// The array type of a global initializer Inferno keeps in data, or null.
Type* Compiler::data_array_type(const Expr* e, Type* declared) {
  if (e->kind == Expr::ArrayNew) {
    auto n = const_eval(e->a.get());
    if (!n || n->k != TK::Int || n->i < 0) return nullptr;
    return mk(TK::Array, resolve(e->type.get(), nullptr));
  }
  if (e->kind != Expr::ArrayLit || e->inits.empty()) return nullptr;
  if (declared && declared->k == TK::Array) return declared;
  Type* et = const_elem_type(e->inits[0].value.get());
  return et ? mk(TK::Array, et) : nullptr;
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
    vals.resize(static_cast<std::size_t>(const_eval(e->a.get())->i));
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

}  // namespace dis::limbo
