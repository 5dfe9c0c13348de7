// Constant folding: the value of an expression made of constants (literals,
// `con` names, module and adt constants, unary and binary operators and
// casts on them), computed as Inferno's compiler folds it.
#include "compiler_impl.h"
#include "const_cast_fold.h"
#include "utf8.h"

namespace dis::limbo {

std::int64_t literal_value(const Expr* e, std::int64_t typed) {
  if (e->kind == Expr::IntLit) return e->ival;
  if (e->kind == Expr::Unary && e->op == "-" && e->a->kind == Expr::IntLit)
    return static_cast<std::int64_t>(0 - static_cast<std::uint64_t>(e->a->ival));
  return typed;
}

namespace {

// The constant `name` declared in module `mod`, if it is one.
std::optional<ConstVal> module_con(const ModInfo& mod, const std::string& name) {
  auto it = mod.members.find(name);
  if (it == mod.members.end() || it->second.kind != ModMember::Con) return std::nullopt;
  const ModMember& m = it->second;
  return ConstVal{m.con_kind, m.ival, m.rval, m.sval, m.con_kind == TK::Fixed ? m.type : nullptr};
}

std::optional<ConstVal> fold_real(const std::string& op, double a, double b) {
  double r;
  if (op == "+")
    r = a + b;
  else if (op == "-")
    r = a - b;
  else if (op == "*")
    r = a * b;
  else if (op == "/")
    r = a / b;
  else
    return std::nullopt;
  return ConstVal{TK::Real, 0, fold_real_result(r), ""};
}

// int and big operators: wrapping arithmetic, shifts by the low bits of
// the count, no folding of a division by zero.
std::optional<ConstVal> fold_integer(const std::string& op, const ConstVal& a, const ConstVal& b) {
  auto x = static_cast<std::uint64_t>(a.i), y = static_cast<std::uint64_t>(b.i);
  std::int64_t r = 0;
  bool is_big = a.k == TK::Big;
  if (op == "+")
    r = static_cast<std::int64_t>(x + y);
  else if (op == "-")
    r = static_cast<std::int64_t>(x - y);
  else if (op == "*")
    r = static_cast<std::int64_t>(x * y);
  else if (op == "/" || op == "%") {
    if (b.i == 0) return std::nullopt;
    if (b.i == -1)
      r = op == "/" ? static_cast<std::int64_t>(-x) : 0;
    else
      r = op == "/" ? a.i / b.i : a.i % b.i;
  } else if (op == "&")
    r = a.i & b.i;
  else if (op == "|")
    r = a.i | b.i;
  else if (op == "^")
    r = a.i ^ b.i;
  else if (op == "<<")
    r = static_cast<std::int64_t>(x << (b.i & (is_big ? 63 : 31)));
  else if (op == ">>")
    r = is_big ? a.i >> (b.i & 63) : static_cast<std::int32_t>(a.i) >> (b.i & 31);
  else if (op == "**") {
    if (b.i < 0) return std::nullopt;
    std::uint64_t p = 1;
    for (std::int64_t i = 0; i < b.i && i < 64; ++i) p *= x;
    r = static_cast<std::int64_t>(p);
  } else
    return std::nullopt;
  if (!is_big) r = static_cast<std::int32_t>(r);
  return ConstVal{a.k, r, 0, ""};
}

}  // namespace

std::optional<ConstVal> Compiler::const_eval(const Expr* e) {
  if (!e) return std::nullopt;
  // Cached except while iota or a module's own cons give names meaning.
  bool cacheable = iota_ < 0 && !const_mod_;
  if (cacheable) {
    auto it = const_cache_.find(e);
    if (it != const_cache_.end()) return it->second;
  }
  auto v = const_eval_uncached(e);
  if (cacheable) const_cache_[e] = v;
  return v;
}

std::optional<ConstVal> Compiler::const_eval_uncached(const Expr* e) {
  switch (e->kind) {
    case Expr::IntLit:
      // Constants beyond 32 bits are big; up to 2^32 they wrap into an int.
      if (static_cast<std::uint64_t>(e->ival) > 0xFFFFFFFFull)
        return ConstVal{TK::Big, e->ival, 0, ""};
      return ConstVal{TK::Int, static_cast<std::int32_t>(static_cast<std::uint32_t>(e->ival)), 0,
                      ""};
    case Expr::RealLit:
      return ConstVal{TK::Real, 0, e->rval, ""};
    case Expr::StrLit:
      return ConstVal{TK::String, 0, 0, e->sval};
    case Expr::Ident:
      return const_ident(e);
    case Expr::ModField:
    case Expr::Field:
      return const_field(e);
    case Expr::Unary:
      return const_unary(e);
    case Expr::Cast:
      return const_cast_of(e);
    case Expr::Binary:
      return const_binary(e);
    case Expr::Call:  // `fpt(3.21)`: a fixed-point type's conversion
      if (Type* ft = fixed_call_type(e)) {
        auto v = const_eval(e->args[0].get());
        return v ? const_fixed(*v, ft, e->pos) : std::nullopt;
      }
      return std::nullopt;
    default:
      return std::nullopt;
  }
}

std::optional<ConstVal> Compiler::const_ident(const Expr* e) {
  // In a con declaration iota is the counter, whatever else bears the name
  // (Inferno's limbo has a global `iota: ref Decl`).
  if (e->op == "iota" && iota_ >= 0) return ConstVal{TK::Int, iota_, 0, ""};
  if (const_mod_)
    if (auto v = module_con(*const_mod_, e->op)) return v;
  Sym* s = lookup(e->op);
  if (s && s->kind == Sym::Con) {
    TK k = s->type ? s->type->k : TK::Int;
    return ConstVal{k, s->ival, s->rval, s->sval, k == TK::Fixed ? s->type : nullptr};
  }
  if (s && s->kind == Sym::Imported) return module_con(*s->mod, s->member);
  return std::nullopt;
}

std::optional<ConstVal> Compiler::const_field(const Expr* e) {
  if (e->kind == Expr::Field && e->a->kind == Expr::ModField) {  // `(Draw->GREY1).desc`
    auto c = module_adt_con(e->a.get());
    std::size_t n = c.call ? std::min(c.type->adt->fields.size(), c.call->args.size()) : 0;
    for (std::size_t i = 0; i < n; ++i) {
      if (c.type->adt->fields[i].name != e->op) continue;
      ModInfo* outer = const_mod_;
      const_mod_ = c.mod;
      auto v = const_eval(c.call->args[i].get());
      const_mod_ = outer;
      return v;
    }
  }
  if (e->kind == Expr::Field) {  // an adt's con, named through its adt or one of its values
    const Sym* s = e->a->kind == Expr::Ident ? lookup(e->a->op) : nullptr;
    AdtInfo* ad = s && (s->kind == Sym::AdtName || s->kind == Sym::Imported) ? s->adt : nullptr;
    // (Through a value only inside a function: type_of outside one may add constants.)
    if (!ad && fn_ && !(s && (s->kind == Sym::ModType || s->kind == Sym::AdtCon))) {
      Type* t = type_of(e->a.get());
      if (t->k == TK::Ref) t = t->elem;
      if (t->k == TK::Adt || t->k == TK::Pick) ad = t->adt;
    }
    if (ad) {
      auto it = ad->cons.find(e->op);
      if (it != ad->cons.end()) return ConstVal{TK::Int, it->second, 0, ""};
    }
  }
  if (e->a->kind != Expr::Ident) return std::nullopt;
  Sym* s = lookup(e->a->op);
  ModInfo* mod = nullptr;
  if (s && s->kind == Sym::ModType) mod = s->mod;
  if (s && s->kind == Sym::Var && s->type->k == TK::Module && e->kind == Expr::ModField)
    mod = s->type->mod;
  if (mod)
    if (auto v = module_con(*mod, e->op)) return v;
  if (s && s->kind == Sym::AdtCon && s->type->k == TK::Adt &&
      e->kind == Expr::Field) {  // `Minwinsize.x`
    auto& fields = s->type->adt->fields;
    for (std::size_t i = 0; i < fields.size() && i < s->adtcon->args.size(); ++i)
      if (fields[i].name == e->op) return const_eval(s->adtcon->args[i].get());
  }
  if (s && s->kind == Sym::AdtName && e->kind == Expr::Field) {
    auto it = s->adt->cons.find(e->op);
    if (it != s->adt->cons.end()) return ConstVal{TK::Int, it->second, 0, ""};
  }
  return std::nullopt;
}

std::optional<ConstVal> Compiler::const_unary(const Expr* e) {
  if (e->op == "tagof") {  // of a pick adt's variant named by its type
    Type* t = adt_type_named(e->a.get());
    if (t && t->k == TK::Pick) return ConstVal{TK::Int, t->tag, 0, ""};
    return std::nullopt;
  }
  auto v = const_eval(e->a.get());
  if (!v) return std::nullopt;
  if (e->op == "-") {
    if (v->k == TK::Real)
      v->r = -v->r;
    else if (v->k == TK::Int || v->k == TK::Fixed)
      v->i = static_cast<std::int32_t>(-static_cast<std::uint32_t>(v->i));
    else if (v->k == TK::Big)
      v->i = static_cast<std::int64_t>(-static_cast<std::uint64_t>(v->i));
    else
      return std::nullopt;
    return v;
  }
  if (e->op == "len" && v->k == TK::String)
    return ConstVal{TK::Int, static_cast<std::int64_t>(utf8_to_runes(v->s).size()), 0, ""};
  if (e->op == "+" && v->k != TK::String) return v;
  if (e->op == "~" && (v->k == TK::Int || v->k == TK::Big)) {
    v->i = ~v->i;
    return v;
  }
  return std::nullopt;
}

std::optional<ConstVal> Compiler::const_cast_of(const Expr* e) {
  auto v = const_eval(e->a.get());
  if (!v || e->type->kind != TypeNode::Basic) return std::nullopt;
  const std::string& to = e->type->name;
  if (v->k == TK::Fixed)  // `real zero`; to others computed as the code would
    return to == "real" ? std::optional(
                              ConstVal{TK::Real, 0, static_cast<double>(v->i) * v->ft->fx_unit, ""})
                        : std::nullopt;
  if (v->k == TK::String) return fold_string_cast(v->s, to);
  if (to == "string" && (v->k == TK::Int || v->k == TK::Big))
    return ConstVal{TK::String, 0, 0, std::to_string(v->i)};
  if (to == "int") {
    if (v->k == TK::Real) return std::nullopt;
    return ConstVal{TK::Int, static_cast<std::int32_t>(v->i), 0, ""};
  }
  if (to == "big") {
    if (v->k == TK::Real) return std::nullopt;
    return ConstVal{
        TK::Big,
        v->k == TK::Int ? literal_value(e->a.get(), static_cast<std::int32_t>(v->i)) : v->i, 0, ""};
  }
  if (to == "real") {
    if (v->k == TK::Real) return v;
    return ConstVal{TK::Real, 0, static_cast<double>(literal_value(e->a.get(), v->i)), ""};
  }
  if (to == "byte" && v->k != TK::Real) return ConstVal{TK::Byte, v->i & 0xff, 0, ""};
  return std::nullopt;
}

std::optional<ConstVal> Compiler::const_binary(const Expr* e) {
  auto a = const_eval(e->a.get());
  if (!a) return std::nullopt;
  auto b = const_eval(e->b.get());
  if (!b) return std::nullopt;
  const std::string& op = e->op;
  if (a->k == TK::String && b->k == TK::String && op == "+")
    return ConstVal{TK::String, 0, 0, a->s + b->s};
  if (a->k == TK::Real && b->k == TK::Real) return fold_real(op, a->r, b->r);
  if (a->k == TK::Real && b->k == TK::Int && op == "**") {  // `2.0**-16`, as expf computes it
    const bool neg = b->i < 0;
    auto n = neg ? 0u - static_cast<std::uint32_t>(b->i) : static_cast<std::uint32_t>(b->i);
    double r = 1, x = a->r;
    for (; n; n >>= 1, x *= x)
      if (n & 1) r *= x;
    return ConstVal{TK::Real, 0, fold_real_result(neg ? 1 / r : r), ""};
  }
  if (a->k != b->k && !(op == "**" || op == "<<" || op == ">>")) return std::nullopt;
  if (a->k == TK::Byte) {  // byte arithmetic: on the value, kept to 8 bits
    auto r = fold_integer(op, ConstVal{TK::Int, a->i, 0, ""}, ConstVal{TK::Int, b->i, 0, ""});
    if (r) *r = ConstVal{TK::Byte, r->i & 0xff, 0, ""};
    return r;
  }
  if (a->k != TK::Int && a->k != TK::Big) return std::nullopt;
  return fold_integer(op, *a, *b);
}

// Sums and products folded as Inferno's compiler folds them: x + 0, x - 0,
// 0 + x, x << 0 and x >> 0 are x; (x + c1) + c2 is x + (c1 + c2), for
// strings too (`s + "\n" + "chans"` adds "\nchans"), and (x * c1) * c2 is
// x * (c1 * c2). Nothing when e is none of these.
std::optional<Loc> Compiler::gen_folded_sum(const Expr* e, Type* t, const Loc* dest) {
  const std::string& op = e->op;
  auto zero = [&](const Expr* x) {
    auto v = const_eval(x);
    return v && v->k == TK::Int && v->i == 0;
  };
  if (t->k == TK::Int) {
    const bool shift = op == "<<" || op == ">>";
    if ((op == "+" || op == "-" || shift) && zero(e->b.get())) return gen_to(e->a.get(), t, dest);
    if (op == "+" && zero(e->a.get())) return gen_to(e->b.get(), t, dest);
  }
  const bool assoc = op == "+" || (op == "*" && t->k == TK::Int);
  if (!assoc || e->a->kind != Expr::Binary || e->a->op != op) return std::nullopt;
  auto c1 = const_eval(e->a->b.get()), c2 = const_eval(e->b.get());
  if (!c1 || !c2 || c1->k != t->k || c2->k != t->k || type_of(e->a->a.get())->k != t->k)
    return std::nullopt;
  auto lit = std::make_shared<Expr>();
  if (t->k == TK::String) {
    lit->kind = Expr::StrLit;
    lit->sval = c1->s + c2->s;
  } else {
    lit->kind = Expr::IntLit;
    lit->ival = fold_integer(op, *c1, *c2)->i;
  }
  lit->pos = e->b->pos;
  auto sum = std::make_shared<Expr>(*e);
  sum->a = e->a->a;
  sum->b = lit;
  synthetic_.push_back(lit);
  synthetic_.push_back(sum);
  return gen_to(sum.get(), t, dest);
}

// A test whose outcome is known: an int constant, a comparison of two int,
// big or string constants (`yydebug >= 3` with yydebug a con), !, && and ||
// of such. (Reals are compared when run: a NaN, a trap.)
std::optional<bool> Compiler::const_test(const Expr* e) {
  if (auto v = const_eval(e); v && v->k == TK::Int) return v->i != 0;
  if (e->kind == Expr::Unary && e->op == "!") {
    auto t = const_test(e->a.get());
    return t ? std::optional<bool>(!*t) : std::nullopt;
  }
  if (e->kind != Expr::Binary) return std::nullopt;
  if (e->op == "&&" || e->op == "||") {
    auto a = const_test(e->a.get()), b = const_test(e->b.get());
    if (!a || !b) return std::nullopt;
    return e->op == "&&" ? *a && *b : *a || *b;
  }
  if (!is_cmp(e->op)) return std::nullopt;
  auto a = const_eval(e->a.get()), b = const_eval(e->b.get());
  if (!a || !b || a->k != b->k) return std::nullopt;
  int c;
  if (a->k == TK::Int || a->k == TK::Big || a->k == TK::Byte)
    c = a->i < b->i ? -1 : a->i > b->i;
  else if (a->k == TK::String)
    c = a->s < b->s ? -1 : a->s > b->s;
  else
    return std::nullopt;
  const std::string& op = e->op;
  if (op == "==") return c == 0;
  if (op == "!=") return c != 0;
  if (op == "<") return c < 0;
  if (op == "<=") return c <= 0;
  if (op == ">") return c > 0;
  return c >= 0;
}

}  // namespace dis::limbo
