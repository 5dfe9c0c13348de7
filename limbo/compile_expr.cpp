// Expressions: constant folding, code for values, conditions, calls and
// assignments, shaped as Inferno's compiler shapes them.
#include <algorithm>
#include <cmath>

#include "compiler_impl.h"
#include "const_cast_fold.h"
#include "eval_order.h"

namespace dis::limbo {

namespace {
Operand fp(std::int32_t off) { return Operand{AddrMode::Fp, off, 0}; }
Operand imm(std::int32_t v) { return Operand{AddrMode::Imm, v, 0}; }
bool is_ind(const Operand& o) { return o.mode == AddrMode::IndFp || o.mode == AddrMode::IndMp; }
bool is_numeric(const Type* t) {
  return t->k == TK::Int || t->k == TK::Big || t->k == TK::Byte || t->k == TK::Real;
}
bool is_ptrish(const Type* t) { return is_pointer(t) || t->k == TK::Nil; }

// An integer literal keeps all its bits until it is typed: `big 16rffffffff`
// is 4294967295, not the int -1 widened (Inferno's compiler does the same).
std::int64_t literal_value(const Expr* e, std::int64_t typed) {
  if (e->kind == Expr::IntLit) return e->ival;
  if (e->kind == Expr::Unary && e->op == "-" && e->a->kind == Expr::IntLit)
    return static_cast<std::int64_t>(0 - static_cast<std::uint64_t>(e->a->ival));
  return typed;
}
}  // namespace

// ---- emission helpers ----

std::int32_t Compiler::emit(Op op, const Operand& src, const Middle& mid, const Operand& dst) {
  m_.code.push_back(Instruction{op, mid, src, dst});
  m_.positions.push_back(SrcPos{cur_pos_.file, cur_pos_.line, cur_pos_.col, cur_pos_.end_line,
                                cur_pos_.end_col, block_});
  return pc() - 1;
}

std::int32_t Compiler::new_label() {
  label_pc_.push_back(-1);
  return static_cast<std::int32_t>(label_pc_.size() - 1);
}

void Compiler::place(std::int32_t label) { label_pc_[static_cast<std::size_t>(label)] = pc(); }

std::int32_t Compiler::jump(Op op, const Operand& src, const Middle& mid, std::int32_t label) {
  std::int32_t at = emit(op, src, mid, imm(0));
  jump_fixes_.push_back(JumpFix{at, label});
  return at;
}

std::int32_t Compiler::frame_alloc(Type* t) {
  std::int32_t off = round_up(frame_size_, std::max(type_align(t), 1));
  frame_size_ = off + std::max(type_size(t), 1);
  pointer_offsets(t, off, frame_ptrs_);
  return off;
}

Loc Compiler::temp(Type* t) {
  std::vector<std::int32_t> ptrs;
  pointer_offsets(t, 0, ptrs);
  auto map = make_map(ptrs);
  std::string key = std::to_string(type_size(t)) + "/" + std::to_string(type_align(t)) + ":" +
                    std::string(map.begin(), map.end());
  for (auto& ts : temps_)
    if (!ts.busy && ts.key == key) {
      ts.busy = true;
      return Loc{fp(ts.off), t};
    }
  std::int32_t off = frame_alloc(t);
  temps_.push_back(TempSlot{key, off, true});
  return Loc{fp(off), t};
}

void Compiler::release_temps() {
  for (auto& ts : temps_) ts.busy = false;
}

namespace {
// Whether an operand can be an instruction's middle one as it is: a small
// immediate, or a small frame or module offset.
bool fits_middle(const Operand& op) {
  if (op.mode == AddrMode::Imm) return op.a >= -32768 && op.a <= 32767;
  return (op.mode == AddrMode::Fp || op.mode == AddrMode::Mp) && op.a <= 65535;
}

// Operations whose operands can change places (not addc: concatenation).
bool commutes(Op op) {
  static constexpr Op kCommutative[] = {Op::addb_, Op::addw_, Op::addl_, Op::addf_, Op::mulb_,
                                        Op::mulw_, Op::mull_, Op::mulf_, Op::andb_, Op::andw_,
                                        Op::andl_, Op::orb_,  Op::orw_,  Op::orl_,  Op::xorb_,
                                        Op::xorw_, Op::xorl_};
  return std::find(std::begin(kCommutative), std::end(kCommutative), op) != std::end(kCommutative);
}
}  // namespace

Middle Compiler::as_mid(const Loc& l) {
  if (fits_middle(l.op))
    return Middle{l.op.mode == AddrMode::Imm  ? MidMode::Imm
                  : l.op.mode == AddrMode::Fp ? MidMode::Fp
                                              : MidMode::Mp,
                  l.op.a};
  Loc t = temp(l.t);
  move(l, t);
  return Middle{MidMode::Fp, t.op.a};
}

Operand Compiler::direct(const Loc& l) {
  if (l.op.mode == AddrMode::Fp || l.op.mode == AddrMode::Mp) return l.op;
  Loc t = temp(l.t);
  move(l, t);
  return t.op;
}

void Compiler::move(const Loc& src, const Loc& dst) {
  if (src.op == dst.op) return;
  Type* t = dst.t->k == TK::Error ? src.t : dst.t;
  Op op = mov_op(t);
  if (src.t->k == TK::Nil) op = Op::movp_;
  if (op == Op::movm_) {
    emit(op, src.op, Middle{MidMode::Imm, type_size(t)}, dst.op);
  } else if (op == Op::movmp_) {
    emit(op, src.op, Middle{MidMode::Imm, desc_for_type(t)}, dst.op);
  } else {
    emit(op, src.op, dst.op);
  }
}

void Compiler::check_assignable(Type* to, Type* from, const Pos& pos, const char* what) {
  if (to->k == TK::Error || from->k == TK::Error) return;
  if (from->k == TK::Nil && is_pointer(to)) return;
  if (from->k == TK::Pick && to->k == TK::Ref) return;
  if (to->k == TK::Ref && from->k == TK::Ref && to->elem->k == TK::Adt &&
      from->elem->k == TK::Pick && from->elem->adt == to->elem->adt)
    return;
  if (!assignable_type(to, from))
    fail(pos, std::string("type mismatch in ") + what + ": " + type_name(to) + " and " +
                  type_name(from));
}

Loc Compiler::result_loc(Type* t, const Loc* dest) {
  if (dest && (dest->t->k == TK::Error || same_type(dest->t, t))) return *dest;
  return temp(t);
}

void Compiler::declare_local(const std::string& name, Type* t, const Pos& pos, Loc* out) {
  if (t->k == TK::Nil) fail(pos, "cannot declare " + name + " from nil");
  if (t->k == TK::None) fail(pos, "cannot declare " + name + " from an expression with no value");
  std::int32_t off = frame_alloc(t);
  Sym s;
  s.kind = Sym::Var;
  s.type = t;
  s.loc = fp(off);
  scopes_.back()[name] = s;
  note_local(name, t, off, pos);
  if (out) *out = Loc{fp(off), t};
}

void Compiler::note_local(const std::string& name, Type* t, std::int32_t off, const Pos& pos,
                          bool exception) {
  if (!fn_) return;
  // A declaration compiled twice (a loop test, each arm of a pick) is one local.
  for (const DebugVar& v : fn_->locals)
    if (v.name == name && v.pos.file == pos.file && v.pos.line == pos.line && v.pos.col == pos.col)
      return;
  fn_->locals.push_back(DebugVar{name, t, off, pos, exception});
}

// ---- constants ----

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
    case Expr::Ident: {
      if (e->op == "iota" && iota_ >= 0 && !lookup("iota")) return ConstVal{TK::Int, iota_, 0, ""};
      if (const_mod_) {
        auto it = const_mod_->members.find(e->op);
        if (it != const_mod_->members.end() && it->second.kind == ModMember::Con)
          return ConstVal{it->second.con_kind, it->second.ival, it->second.rval, it->second.sval};
      }
      Sym* s = lookup(e->op);
      if (s && s->kind == Sym::Con) {
        TK k = s->type ? s->type->k : TK::Int;
        return ConstVal{k, s->ival, s->rval, s->sval};
      }
      if (s && s->kind == Sym::Imported) {
        auto it = s->mod->members.find(s->member);
        if (it != s->mod->members.end() && it->second.kind == ModMember::Con)
          return ConstVal{it->second.con_kind, it->second.ival, it->second.rval, it->second.sval};
      }
      return std::nullopt;
    }
    case Expr::ModField:
    case Expr::Field: {
      if (e->a->kind != Expr::Ident) return std::nullopt;
      Sym* s = lookup(e->a->op);
      ModInfo* mod = nullptr;
      if (s && s->kind == Sym::ModType) mod = s->mod;
      if (s && s->kind == Sym::Var && s->type->k == TK::Module && e->kind == Expr::ModField)
        mod = s->type->mod;
      if (mod) {
        auto it = mod->members.find(e->op);
        if (it != mod->members.end() && it->second.kind == ModMember::Con)
          return ConstVal{it->second.con_kind, it->second.ival, it->second.rval, it->second.sval};
      }
      if (s && s->kind == Sym::AdtName && e->kind == Expr::Field) {
        auto it = s->adt->cons.find(e->op);
        if (it != s->adt->cons.end()) return ConstVal{TK::Int, it->second, 0, ""};
      }
      return std::nullopt;
    }
    case Expr::Unary: {
      auto v = const_eval(e->a.get());
      if (!v) return std::nullopt;
      if (e->op == "-") {
        if (v->k == TK::Real)
          v->r = -v->r;
        else if (v->k == TK::Int)
          v->i = static_cast<std::int32_t>(-static_cast<std::uint32_t>(v->i));
        else if (v->k == TK::Big)
          v->i = static_cast<std::int64_t>(-static_cast<std::uint64_t>(v->i));
        else
          return std::nullopt;
        return v;
      }
      if (e->op == "+" && v->k != TK::String) return v;
      if (e->op == "~" && (v->k == TK::Int || v->k == TK::Big)) {
        v->i = ~v->i;
        return v;
      }
      return std::nullopt;
    }
    case Expr::Cast: {
      auto v = const_eval(e->a.get());
      if (!v || e->type->kind != TypeNode::Basic) return std::nullopt;
      const std::string& to = e->type->name;
      if (v->k == TK::String) return fold_string_cast(v->s, to);
      if (to == "int") {
        if (v->k == TK::Real) return std::nullopt;
        return ConstVal{TK::Int, static_cast<std::int32_t>(v->i), 0, ""};
      }
      if (to == "big") {
        if (v->k == TK::Real) return std::nullopt;
        return ConstVal{
            TK::Big,
            v->k == TK::Int ? literal_value(e->a.get(), static_cast<std::int32_t>(v->i)) : v->i, 0,
            ""};
      }
      if (to == "real") {
        if (v->k == TK::Real) return v;
        return ConstVal{TK::Real, 0, static_cast<double>(literal_value(e->a.get(), v->i)), ""};
      }
      if (to == "byte" && v->k != TK::Real) return ConstVal{TK::Byte, v->i & 0xff, 0, ""};
      return std::nullopt;
    }
    case Expr::Binary: {
      auto a = const_eval(e->a.get());
      if (!a) return std::nullopt;
      auto b = const_eval(e->b.get());
      if (!b) return std::nullopt;
      const std::string& op = e->op;
      if (a->k == TK::String && b->k == TK::String && op == "+")
        return ConstVal{TK::String, 0, 0, a->s + b->s};
      if (a->k == TK::Real && b->k == TK::Real) {
        double r;
        if (op == "+")
          r = a->r + b->r;
        else if (op == "-")
          r = a->r - b->r;
        else if (op == "*")
          r = a->r * b->r;
        else if (op == "/")
          r = a->r / b->r;
        else
          return std::nullopt;
        return ConstVal{TK::Real, 0, fold_real_result(r), ""};
      }
      if (a->k != b->k && !(op == "**" || op == "<<" || op == ">>")) return std::nullopt;
      if (a->k != TK::Int && a->k != TK::Big) return std::nullopt;
      auto x = static_cast<std::uint64_t>(a->i), y = static_cast<std::uint64_t>(b->i);
      std::int64_t r = 0;
      bool is_big = a->k == TK::Big;
      if (op == "+")
        r = static_cast<std::int64_t>(x + y);
      else if (op == "-")
        r = static_cast<std::int64_t>(x - y);
      else if (op == "*")
        r = static_cast<std::int64_t>(x * y);
      else if (op == "/" || op == "%") {
        if (b->i == 0) return std::nullopt;
        if (b->i == -1)
          r = op == "/" ? static_cast<std::int64_t>(-x) : 0;
        else
          r = op == "/" ? a->i / b->i : a->i % b->i;
      } else if (op == "&")
        r = a->i & b->i;
      else if (op == "|")
        r = a->i | b->i;
      else if (op == "^")
        r = a->i ^ b->i;
      else if (op == "<<")
        r = static_cast<std::int64_t>(x << (b->i & (is_big ? 63 : 31)));
      else if (op == ">>")
        r = is_big ? a->i >> (b->i & 63) : static_cast<std::int32_t>(a->i) >> (b->i & 31);
      else if (op == "**") {
        if (b->i < 0) return std::nullopt;
        std::uint64_t p = 1;
        for (std::int64_t i = 0; i < b->i && i < 64; ++i) p *= x;
        r = static_cast<std::int64_t>(p);
      } else
        return std::nullopt;
      if (!is_big) r = static_cast<std::int32_t>(r);
      return ConstVal{a->k, r, 0, ""};
    }
    default:
      return std::nullopt;
  }
}

// Type of an expression, found by generating its code and discarding it.
Type* Compiler::type_of(const Expr* e) {
  auto cached = type_cache_.find(e);
  if (cached != type_cache_.end()) return cached->second;
  auto code = m_.code.size(), poss = m_.positions.size(), cf = call_fixes_.size(),
       jf = jump_fixes_.size(), ifx = import_fixes_.size(), tf = table_fixes_.size(),
       er = errs_.size(), hs = m_.handlers.size();
  std::vector<bool> busy;
  for (auto& t : temps_) busy.push_back(t.busy);
  // Names, frame slots and labels made while generating are dropped too.
  auto frame_size = frame_size_;
  // (MP constants stay: they are shared through their caches.)
  auto nptrs = frame_ptrs_.size(), ntemps = temps_.size(), nlabels = label_pc_.size();
  std::optional<Scope> scope;
  if (!scopes_.empty()) scope = scopes_.back();
  Type* t = t_error_;
  try {
    t = gen(e).t;
  } catch (CompileError&) {
  }
  m_.code.resize(code);
  m_.positions.resize(poss);
  call_fixes_.resize(cf);
  jump_fixes_.resize(jf);
  import_fixes_.resize(ifx);
  table_fixes_.resize(tf);
  errs_.resize(er);
  m_.handlers.resize(hs);
  temps_.resize(ntemps);
  for (std::size_t i = 0; i < busy.size(); ++i) temps_[i].busy = busy[i];
  frame_size_ = frame_size;
  frame_ptrs_.resize(nptrs);
  label_pc_.resize(nlabels);
  if (scope) scopes_.back() = *scope;
  type_cache_[e] = t;
  return t;
}

// ---- values ----

Loc Compiler::gen_to(const Expr* e, Type* want, const Loc* dest) {
  if (want && want->k == TK::Tuple && e->kind == Expr::TupleLit)
    return gen_construct(want, e->args, e->pos, dest);
  if (auto v = gen_variant_to(e, want, dest)) return *v;
  if (want && want->k != TK::Error) {
    auto v = const_eval(e);
    if (v && v->k == TK::Int &&
        (want->k == TK::Big || want->k == TK::Byte || want->k == TK::Real)) {
      Loc c;
      if (want->k == TK::Big)
        c = Loc{big_const(literal_value(e, v->i)), t_big_};
      else if (want->k == TK::Byte)
        c = Loc{imm(static_cast<std::int32_t>(v->i & 0xff)), t_byte_};
      else
        c = Loc{real_const(static_cast<double>(literal_value(e, v->i))), t_real_};
      if (dest) {
        move(c, *dest);
        return *dest;
      }
      return c;
    }
  }
  if (dest && want && dest->t == want) {
    Type* et = type_of(e);
    if (et->k != TK::Error) check_assignable(want, et, e->pos, "assignment");
  }
  Loc l = gen(e, dest && want && dest->t == want ? dest : nullptr);
  if (want) check_assignable(want, l.t, e->pos, "assignment");
  if (dest && !(l.op == dest->op)) {
    Loc d = *dest;
    move(Loc{l.op, l.t}, d);
    return d;
  }
  if (want && l.t->k == TK::Nil) return Loc{l.op, want};
  return l;
}

namespace {
// Instructions made for an expression carry that expression's source range
// (as Inferno's compiler records them), the statement's block number.
struct PosScope {
  Pos& cur;
  Pos saved;
  PosScope(Pos& c, const Pos& p) : cur(c), saved(c) {
    if (p.line > 0) cur = p;
  }
  ~PosScope() { cur = saved; }
};
}  // namespace

Loc Compiler::gen(const Expr* e, const Loc* dest) {
  PosScope ps(cur_pos_, e->pos);
  if (auto v = const_eval(e)) {
    Loc c;
    switch (v->k) {
      case TK::Int:
        c = Loc{word_const(v->i), t_int_};
        break;
      case TK::Big:
        c = Loc{big_const(v->i), t_big_};
        break;
      case TK::Byte:
        c = Loc{imm(static_cast<std::int32_t>(v->i)), t_byte_};
        break;
      case TK::Real:
        c = Loc{real_const(v->r), t_real_};
        break;
      default:
        c = Loc{str_const(v->s), t_string_};
        break;
    }
    if (dest) {
      move(c, *dest);
      return *dest;
    }
    return c;
  }
  switch (e->kind) {
    case Expr::Nil: {
      Loc n{word_const(-1), t_nil_};
      if (n.op.mode == AddrMode::Imm) n.op = Operand{AddrMode::Imm, -1, 0};
      if (dest) {
        emit(Op::movp_, n.op, dest->op);
        return *dest;
      }
      Loc t = temp(t_string_);
      emit(Op::movp_, n.op, t.op);
      return Loc{t.op, t_nil_};
    }
    case Expr::Ident: {
      Sym* s = lookup(e->op);
      if (!s) fail(e->pos, "undefined identifier " + e->op);
      if (s->kind == Sym::Func) unsupported(e->pos, "function reference " + e->op + " is");
      if (s->kind != Sym::Var) fail(e->pos, e->op + " is not a value");
      Loc l{s->loc, s->type};
      if (dest) {
        move(l, *dest);
        return *dest;
      }
      return l;
    }
    case Expr::Binary:
      return gen_binary(e, dest);
    case Expr::Unary:
      return gen_unary(e, dest);
    case Expr::Cast:
      return gen_cast(e, dest);
    case Expr::Call:
      return gen_call(e, dest);
    case Expr::PostInc:
    case Expr::PostDec: {
      if (auto r = gen_str_step(e, dest)) return *r;
      Loc l = lvalue(e->a.get());
      if (l.t->k != TK::Int && l.t->k != TK::Big && l.t->k != TK::Byte && l.t->k != TK::Real)
        fail(e->pos, "++/-- needs an arithmetic operand, not " + type_name(l.t));
      Loc old = dest ? *dest : temp(l.t);
      move(l, old);
      Op op = e->kind == Expr::PostInc ? (l.t->k == TK::Int    ? Op::addw_
                                          : l.t->k == TK::Big  ? Op::addl_
                                          : l.t->k == TK::Byte ? Op::addb_
                                                               : Op::addf_)
                                       : (l.t->k == TK::Int    ? Op::subw_
                                          : l.t->k == TK::Big  ? Op::subl_
                                          : l.t->k == TK::Byte ? Op::subb_
                                                               : Op::subf_);
      Operand one = l.t->k == TK::Big    ? big_const(1)
                    : l.t->k == TK::Real ? real_const(1.0)
                                         : imm(1);
      emit(op, one, Middle{}, l.op);
      return old;
    }
    case Expr::Assign: {
      assign_expr(e);
      if (e->op == ":=" || e->op == "<-=") {
        if (e->a->kind == Expr::Ident) return gen(e->a.get(), dest);
        return Loc{imm(0), t_none_};
      }
      if (e->a->kind == Expr::TupleLit) return Loc{imm(0), t_none_};
      Loc l = lvalue(e->a.get());
      if (dest) move(l, *dest);
      return dest ? *dest : l;
    }
    case Expr::Index: {
      Type* at = type_of(e->a.get());
      if (at->k == TK::String) {
        Loc s = gen(e->a.get());
        Loc i = gen_to(e->b.get(), t_int_);
        Loc r = result_loc(t_int_, dest);
        emit(Op::indc_, direct(s), as_mid(i), r.op);
        return r;
      }
      Loc l = index_loc(e);
      if (dest) {
        move(l, *dest);
        return *dest;
      }
      return l;
    }
    case Expr::Slice: {
      Type* at = type_of(e->a.get());
      if (at->k != TK::String && at->k != TK::Array) fail(e->pos, "cannot slice " + type_name(at));
      bool const_bounds = const_eval(e->b.get()) && (!e->c || const_eval(e->c.get()));
      Loc r =
          dest && const_bounds && same_type(dest->t, at) && !is_ind(dest->op) ? *dest : temp(at);
      gen_to(e->a.get(), at, &r);
      Loc lo = gen_to(e->b.get(), t_int_);
      Loc hi;
      if (e->c) {
        hi = gen_to(e->c.get(), t_int_);
      } else {
        hi = temp(t_int_);
        emit(at->k == TK::String ? Op::lenc_ : Op::lena_, r.op, hi.op);
      }
      emit(at->k == TK::String ? Op::slicec_ : Op::slicea_, lo.op, as_mid(hi), r.op);
      if (dest && !(dest->op == r.op)) move(r, *dest);
      return dest ? *dest : r;
    }
    case Expr::Field: {
      // Adt.Tag used as a value is not a value; x.f on adts.
      Loc l = lvalue(e);
      if (dest) {
        move(l, *dest);
        return *dest;
      }
      return l;
    }
    case Expr::ModField:
      if (auto r = adt_con(e, dest)) return *r;
      unsupported(e->pos, "module data access " + e->op + " is");
    case Expr::TupleLit: {
      std::vector<Type*> ts;
      for (auto& a : e->args) ts.push_back(type_of(a.get()));
      Type* tt = mk(TK::Tuple);
      for (auto* t : ts) {
        if (t->k == TK::Nil) fail(e->pos, "nil in a tuple needs a declared type");
        tt->elems.push_back(t);
      }
      return gen_construct(tt, e->args, e->pos, dest);
    }
    case Expr::ArrayNew: {
      Type* et = resolve(e->type.get(), nullptr);
      Type* at = mk(TK::Array, et);
      Loc n = gen_to(e->a.get(), t_int_);
      Loc r = result_loc(at, dest);
      Loc rr = is_ind(r.op) ? temp(at) : r;
      emit(Op::newa_, n.op, Middle{MidMode::Imm, desc_for_type(et)}, rr.op);
      if (!(rr.op == r.op)) move(rr, r);
      return r;
    }
    case Expr::ArrayLit:
      return gen_array_lit(e, dest);
    case Expr::ListLit: {
      if (e->args.empty()) fail(e->pos, "empty list literal");
      Type* et = type_of(e->args[0].get());
      Type* lt = mk(TK::List, et);
      Loc r = is_ind(dest ? dest->op : Operand{}) || !dest ? temp(lt) : *dest;
      emit(Op::movp_, word_const(-1).mode == AddrMode::Imm ? imm(-1) : word_const(-1), r.op);
      for (auto it = e->args.rbegin(); it != e->args.rend(); ++it) {
        Loc v = gen_to(it->get(), et);
        Op op = et->k == TK::Int    ? Op::consw_
                : et->k == TK::Byte ? Op::consb_
                : et->k == TK::Big  ? Op::consl_
                : et->k == TK::Real ? Op::consf_
                : is_pointer(et)    ? Op::consp_
                : has_pointers(et)  ? Op::consmp_
                                    : Op::consm_;
        if (op == Op::consm_)
          emit(op, v.op, Middle{MidMode::Imm, type_size(et)}, r.op);
        else if (op == Op::consmp_)
          emit(op, v.op, Middle{MidMode::Imm, desc_for_type(et)}, r.op);
        else
          emit(op, v.op, r.op);
      }
      if (dest && !(dest->op == r.op)) move(r, *dest);
      return dest ? *dest : r;
    }
    case Expr::ChanNew: {
      Type* et = resolve(e->type.get(), nullptr);
      Type* ct = mk(TK::Chan, et);
      Middle mid;
      if (e->a) mid = as_mid(gen_to(e->a.get(), t_int_));
      Loc r = result_loc(ct, dest);
      Loc rr = is_ind(r.op) ? temp(ct) : r;
      switch (et->k) {
        case TK::Int:
          emit(Op::newcw_, Operand{}, mid, rr.op);
          break;
        case TK::Byte:
          emit(Op::newcb_, Operand{}, mid, rr.op);
          break;
        case TK::Big:
          emit(Op::newcl_, Operand{}, mid, rr.op);
          break;
        case TK::Real:
          emit(Op::newcf_, Operand{}, mid, rr.op);
          break;
        default:
          if (is_pointer(et))
            emit(Op::newcp_, Operand{}, mid, rr.op);
          else if (has_pointers(et))
            emit(Op::newcmp_, imm(desc_for_type(et)), mid, rr.op);
          else
            emit(Op::newcm_, imm(type_size(et)), mid, rr.op);
      }
      if (!(rr.op == r.op)) move(rr, r);
      return r;
    }
    case Expr::Load: {
      Type* mt = resolve(e->type.get(), nullptr);
      if (mt->k != TK::Module) fail(e->pos, "load of non-module type " + type_name(mt));
      Loc path = gen_to(e->a.get(), t_string_);
      int table = import_table(mt->mod);
      Loc r = result_loc(mt, dest);
      Loc rr = is_ind(r.op) ? temp(mt) : r;
      emit(Op::load_, path.op, Middle{MidMode::Imm, table}, rr.op);
      if (!(rr.op == r.op)) move(rr, r);
      return r;
    }
    case Expr::Self:
      unsupported(e->pos, "self module reference is");
    default:
      break;
  }
  fail(e->pos, "expression not supported here");
}

Loc Compiler::materialize_bool(const Expr* e, const Loc* dest) {
  Loc r = result_loc(t_int_, dest);
  std::int32_t lfalse = new_label(), lend = new_label();
  gen_cond(e, false, lfalse);
  emit(Op::movw_, imm(1), r.op);
  jump(Op::jmp_, Operand{}, Middle{}, lend);
  place(lfalse);
  emit(Op::movw_, imm(0), r.op);
  place(lend);
  return r;
}

// The typed Dis op for a binary operator on operands of kind k (nop_ if none).
Op arith_op(const std::string& op, TK k) {
  auto pick = [&](Op b, Op w, Op l, Op f) {
    switch (k) {
      case TK::Byte:
        return b;
      case TK::Int:
        return w;
      case TK::Big:
        return l;
      case TK::Real:
        return f;
      default:
        return Op::nop_;
    }
  };
  if (op == "+")
    return k == TK::String ? Op::addc_ : pick(Op::addb_, Op::addw_, Op::addl_, Op::addf_);
  if (op == "-") return pick(Op::subb_, Op::subw_, Op::subl_, Op::subf_);
  if (op == "*") return pick(Op::mulb_, Op::mulw_, Op::mull_, Op::mulf_);
  if (op == "/") return pick(Op::divb_, Op::divw_, Op::divl_, Op::divf_);
  if (op == "%") return pick(Op::modb_, Op::modw_, Op::modl_, Op::nop_);
  if (op == "&") return pick(Op::andb_, Op::andw_, Op::andl_, Op::nop_);
  if (op == "|") return pick(Op::orb_, Op::orw_, Op::orl_, Op::nop_);
  if (op == "^") return pick(Op::xorb_, Op::xorw_, Op::xorl_, Op::nop_);
  if (op == "<<") return pick(Op::shlb_, Op::shlw_, Op::shll_, Op::nop_);
  if (op == ">>") return pick(Op::shrb_, Op::shrw_, Op::shrl_, Op::nop_);
  if (op == "**") return pick(Op::nop_, Op::expw_, Op::expl_, Op::expf_);
  return Op::nop_;
}

namespace {

Op branch_op(const std::string& op, TK k) {
  int idx = op == "==" ? 0 : op == "!=" ? 1 : op == "<" ? 2 : op == "<=" ? 3 : op == ">" ? 4 : 5;
  static const Op b[] = {Op::beqb_, Op::bneb_, Op::bltb_, Op::bleb_, Op::bgtb_, Op::bgeb_};
  static const Op w[] = {Op::beqw_, Op::bnew_, Op::bltw_, Op::blew_, Op::bgtw_, Op::bgew_};
  static const Op l[] = {Op::beql_, Op::bnel_, Op::bltl_, Op::blel_, Op::bgtl_, Op::bgel_};
  static const Op f[] = {Op::beqf_, Op::bnef_, Op::bltf_, Op::blef_, Op::bgtf_, Op::bgef_};
  static const Op c[] = {Op::beqc_, Op::bnec_, Op::bltc_, Op::blec_, Op::bgtc_, Op::bgec_};
  switch (k) {
    case TK::Byte:
      return b[idx];
    case TK::Big:
      return l[idx];
    case TK::Real:
      return f[idx];
    case TK::String:
      return c[idx];
    default:
      return w[idx];
  }
}

std::string negate_cmp(const std::string& op) {
  if (op == "==") return "!=";
  if (op == "!=") return "==";
  if (op == "<") return ">=";
  if (op == ">=") return "<";
  if (op == ">") return "<=";
  return ">";
}

bool is_cmp(const std::string& op) {
  return op == "==" || op == "!=" || op == "<" || op == "<=" || op == ">" || op == ">=";
}
}  // namespace

void Compiler::gen_cond(const Expr* e, bool when, std::int32_t label) {
  PosScope ps(cur_pos_, e->pos);
  if (e->kind == Expr::Binary && (e->op == "&&" || e->op == "||")) {
    bool is_and = e->op == "&&";
    if (is_and == when) {
      std::int32_t skip = new_label();
      gen_cond(e->a.get(), !when, skip);
      gen_cond(e->b.get(), when, label);
      place(skip);
    } else {
      gen_cond(e->a.get(), when, label);
      gen_cond(e->b.get(), when, label);
    }
    return;
  }
  if (e->kind == Expr::Unary && e->op == "!") {
    gen_cond(e->a.get(), !when, label);
    return;
  }
  if (e->kind == Expr::Binary && is_cmp(e->op)) {
    Type* ta = type_of(e->a.get());
    Type* tb = type_of(e->b.get());
    Type* t = ta->k == TK::Nil ? tb : ta;
    if (ta->k == TK::Int && const_eval(e->a.get()) && tb->k != TK::Int) t = tb;
    // A pointer against nil: H is the branch's immediate middle operand, not
    // a temporary set by a movp. (A string's nil is "" and keeps beqc.)
    const bool nil_a = e->a->kind == Expr::Nil, nil_b = e->b->kind == Expr::Nil;
    if ((e->op == "==" || e->op == "!=") && nil_a != nil_b && is_pointer(t) && t->k != TK::String) {
      Loc x = gen_to(nil_b ? e->a.get() : e->b.get(), t);
      jump(branch_op(when ? e->op : negate_cmp(e->op), TK::Int), x.op, Middle{MidMode::Imm, -1},
           label);
      return;
    }
    Type* want = t->k == TK::Nil ? nullptr : t;
    auto [a, b] = gen_operands(e, want, want, Order::Compare);
    if (!(ta->k == TK::Nil && is_ptrish(tb)) && !(tb->k == TK::Nil && is_ptrish(ta)))
      check_assignable(a.t, b.t, e->pos, "comparison");
    if (e->op != "==" && e->op != "!=" && !is_numeric(t) && t->k != TK::String)
      fail(e->pos, "cannot order values of type " + type_name(t));
    if ((t->k == TK::Adt || t->k == TK::Tuple))
      unsupported(e->pos, "comparison of " + type_name(t) + " values is");
    std::string op = when ? e->op : negate_cmp(e->op);
    TK k = is_ptrish(t) && t->k != TK::String ? TK::Int : t->k;
    if (t->k == TK::String && (ta->k == TK::Nil || tb->k == TK::Nil)) k = TK::String;
    jump(branch_op(op, k), a.op, as_mid(b), label);
    return;
  }
  Loc v = gen(e);
  if (v.t->k != TK::Int) fail(e->pos, "condition must be int, not " + type_name(v.t));
  jump(when ? Op::bnew_ : Op::beqw_, v.op, Middle{MidMode::Imm, 0}, label);
}

Loc Compiler::gen_binary(const Expr* e, const Loc* dest) {
  const std::string& op = e->op;
  if (op == "&&" || op == "||" || is_cmp(op)) return materialize_bool(e, dest);
  if (op == "::") {
    Type* ht = type_of(e->a.get());
    Type* tt = type_of(e->b.get());
    Type* lt = tt->k == TK::List ? tt : mk(TK::List, ht);
    Type* et = lt->elem;
    if (ht->k != TK::Nil) check_assignable(et, ht, e->pos, "list construction");
    if (tt->k != TK::Nil && tt->k != TK::List)
      fail(e->pos, ":: needs a list on the right, not " + type_name(tt));
    // The head is computed before the tail so that order matches the source.
    Loc h = gen_to(e->a.get(), et);
    if (is_ind(h.op) || (h.op.mode == AddrMode::Fp && dest == nullptr && false))
      h = Loc{direct(h), h.t};
    Loc r = dest && !is_ind(dest->op) ? Loc{dest->op, lt} : temp(lt);
    gen_to(e->b.get(), lt, &r);
    if (et->k == TK::Nil) fail(e->pos, "list of nil");
    Op cop = et->k == TK::Int    ? Op::consw_
             : et->k == TK::Byte ? Op::consb_
             : et->k == TK::Big  ? Op::consl_
             : et->k == TK::Real ? Op::consf_
             : is_pointer(et)    ? Op::consp_
             : has_pointers(et)  ? Op::consmp_
                                 : Op::consm_;
    if (h.op.mode == AddrMode::Imm && (cop != Op::consw_ && cop != Op::consb_))
      h = Loc{direct(h), h.t};
    if (h.op.mode == AddrMode::Imm) {
      Loc t = temp(et);
      move(h, t);
      h = t;
    }
    if (cop == Op::consm_)
      emit(cop, h.op, Middle{MidMode::Imm, type_size(et)}, r.op);
    else if (cop == Op::consmp_)
      emit(cop, h.op, Middle{MidMode::Imm, desc_for_type(et)}, r.op);
    else
      emit(cop, h.op, r.op);
    if (dest && !(dest->op == r.op)) move(r, *dest);
    return dest ? *dest : r;
  }
  Type* ta = type_of(e->a.get());
  Type* tb = type_of(e->b.get());
  Type* t = ta;
  bool shift = op == "<<" || op == ">>" || op == "**";
  if (!shift && ta->k == TK::Int && const_eval(e->a.get()) && tb->k != TK::Int) t = tb;
  if (!shift && !same_type(ta, tb) &&
      !(const_eval(e->b.get()) && tb->k == TK::Int && (ta->k == TK::Big || ta->k == TK::Byte)) &&
      !(const_eval(e->a.get()) && ta->k == TK::Int && (tb->k == TK::Big || tb->k == TK::Byte)))
    fail(e->pos, "type mismatch: " + type_name(ta) + " " + op + " " + type_name(tb));
  if (shift && tb->k != TK::Int)
    fail(e->pos, "right operand of " + op + " must be int, not " + type_name(tb));
  Op aop = arith_op(op, t->k);
  if (aop == Op::nop_) fail(e->pos, "operator " + op + " not defined on " + type_name(t));
  auto [a, b] = gen_operands(e, t, shift ? t_int_ : t);
  Loc r = dest && same_type(dest->t, t) ? *dest : temp(t);
  if (aop == Op::addc_ && r.op == b.op && !(r.op == a.op)) {
    Loc tmp = temp(t);
    move(b, tmp);
    b = tmp;
  }
  // A commutative operation takes an operand that cannot be the middle one
  // (a doubly indirect field, say) as its source, sparing a temporary.
  if (commutes(aop) && !fits_middle(a.op) && fits_middle(b.op)) std::swap(a, b);
  Middle m = as_mid(a);
  if (m.mode == MidMode::Imm && (t->k == TK::Big || t->k == TK::Real))
    m = as_mid(Loc{direct(a), t});
  emit(aop, b.op, m, r.op);
  return r;
}

// `sys->nulldir`: an adt-valued con of a module is its constructor call,
// compiled where it is used (as Inferno's compiler does).
std::optional<Loc> Compiler::adt_con(const Expr* e, const Loc* dest) {
  if (e->a->kind != Expr::Ident) return std::nullopt;
  Sym* s = lookup(e->a->op);
  ModInfo* mod = s && s->kind == Sym::ModType ? s->mod : nullptr;
  if (s && s->kind == Sym::Var && s->type->k == TK::Module) mod = s->type->mod;
  if (!mod) return std::nullopt;
  auto it = mod->members.find(e->op);
  if (it == mod->members.end() || it->second.kind != ModMember::AdtCon) return std::nullopt;
  const Expr* call = it->second.value;
  if (call->a->kind != Expr::Ident) return std::nullopt;
  auto ti = mod->members.find(call->a->op);
  if (ti == mod->members.end() || ti->second.kind != ModMember::TypeName ||
      ti->second.type->k != TK::Adt)
    return std::nullopt;
  return gen_construct(ti->second.type, call->args, call->pos, dest);
}

Type* Compiler::adt_type_named(const Expr* e) {
  // Only a name that is a type, never a value: `ref p` copies the adt p.
  auto type_sym = [&](const Expr* x) {
    if (x->kind != Expr::Ident) return false;
    Sym* s = lookup(x->op);
    if (!s) return false;
    if (s->kind == Sym::Imported) {
      auto it = s->mod->members.find(s->member);
      return it != s->mod->members.end() && it->second.kind == ModMember::TypeName;
    }
    return s->kind == Sym::AdtName || s->kind == Sym::TypeAlias || s->kind == Sym::ModType;
  };
  TypeNode tn;
  tn.pos = e->pos;
  if (e->kind == Expr::Ident && type_sym(e)) {
    tn.kind = TypeNode::Name;
    tn.name = e->op;
  } else if (e->kind == Expr::Field && type_sym(e->a.get())) {
    tn.kind = TypeNode::Dot;
    tn.name = e->a->op;
    tn.member = e->op;
  } else if (e->kind == Expr::ModField && type_sym(e->a.get())) {
    tn.kind = TypeNode::Arrow;
    tn.name = e->a->op;
    tn.member = e->op;
  } else if (e->kind == Expr::Field && e->a->kind == Expr::ModField && type_sym(e->a->a.get())) {
    tn.kind = TypeNode::Arrow;  // Mod->Adt.Tag
    tn.name = e->a->a->op + "->" + e->a->op;
    tn.member = e->op;
  } else {
    return nullptr;
  }
  auto errs = errs_.size();
  try {
    Type* t = resolve(&tn, nullptr);
    if (t->k == TK::Adt || t->k == TK::Pick) return t;
  } catch (CompileError&) {
    errs_.resize(errs);
  }
  return nullptr;
}

Loc Compiler::gen_unary(const Expr* e, const Loc* dest) {
  const std::string& op = e->op;
  if (op == "!") return materialize_bool(e, dest);
  if (op == "ref") {
    const Expr* a = e->a.get();
    if (a->kind == Expr::Call) {
      Type* ct = nullptr;
      const Expr* callee = a->a.get();
      if (callee->kind == Expr::Ident) {
        Sym* s = lookup(callee->op);
        if (s && (s->kind == Sym::AdtName || (s->kind == Sym::Imported && s->adt)))
          ct = s->adt->type;
      } else if (callee->kind == Expr::Field && callee->a->kind == Expr::Ident) {
        Sym* s = lookup(callee->a->op);
        AdtInfo* ad = s && (s->kind == Sym::AdtName || (s->kind == Sym::Imported && s->adt))
                          ? s->adt
                          : nullptr;
        if (ad && ad->is_pick) {
          auto f = std::find(ad->tags.begin(), ad->tags.end(), callee->op);
          if (f != ad->tags.end()) {
            ct = mk(TK::Pick);
            ct->adt = ad;
            ct->tag = static_cast<int>(f - ad->tags.begin());
          }
        }
      }
      if (ct) {
        Type* rt = mk(TK::Ref, ct);
        Loc r = temp(rt);  // not into dest: the values may read it
        AdtInfo& ad = *ct->adt;
        layout_adt(ad);
        int variant = ct->k == TK::Pick ? ad.tag_variant[ct->tag] : -1;
        emit(Op::new_, imm(adt_desc(ad, variant)), r.op);
        std::vector<Field> fields = ad.fields;
        if (variant >= 0) {
          for (auto& f : ad.variants[variant].fields) fields.push_back(f);
          emit(Op::movw_, imm(ct->tag), Operand{AddrMode::IndFp, r.op.a, 0});
        }
        if (a->args.size() != fields.size())
          fail(a->pos, "wrong number of values for " + type_name(ct) + ": " +
                           std::to_string(a->args.size()) + " given, " +
                           std::to_string(fields.size()) + " expected");
        for (std::size_t i = 0; i < fields.size(); ++i) {
          // `new` sets every pointer of the object to H (DIS-FACTS): a nil
          // value is there already.
          if (a->args[i]->kind == Expr::Nil && is_pointer(fields[i].type)) continue;
          Loc fd{Operand{AddrMode::IndFp, r.op.a, fields[i].offset}, fields[i].type};
          if (r.op.mode == AddrMode::Mp) fd.op.mode = AddrMode::IndMp;
          Loc v = gen_to(a->args[i].get(), fields[i].type);
          move(v, fd);
        }
        // `ref Adt.Tag(...)` is a value of the pick adt as a whole.
        r.t = mk(TK::Ref, ad.type);
        if (dest && !(dest->op == r.op)) move(r, *dest);
        return dest ? *dest : r;
      }
    }
    if (Type* named = adt_type_named(a)) {
      // `ref Adt` with no values: a new object, its words zero and its
      // pointers nil, made straight in the destination.
      AdtInfo& ad = *named->adt;
      layout_adt(ad);
      int variant = named->k == TK::Pick ? ad.tag_variant[named->tag] : -1;
      Loc r = result_loc(mk(TK::Ref, ad.type), dest);
      emit(Op::new_, imm(adt_desc(ad, variant)), r.op);
      if (variant >= 0) {
        Operand p = direct(r);
        emit(Op::movw_, imm(named->tag),
             Operand{p.mode == AddrMode::Mp ? AddrMode::IndMp : AddrMode::IndFp, p.a, 0});
      }
      if (dest && !(dest->op == r.op)) {
        move(r, *dest);
        return *dest;
      }
      return r;
    }
    Loc v = gen(a);
    if (v.t->k != TK::Adt) fail(e->pos, "ref needs an adt value, not " + type_name(v.t));
    Type* rt = mk(TK::Ref, v.t);
    Loc r = temp(rt);
    emit(Op::new_, imm(adt_desc(*v.t->adt, -1)), r.op);
    move(v, Loc{Operand{AddrMode::IndFp, r.op.a, 0}, v.t});
    if (dest) move(r, *dest);
    return dest ? *dest : r;
  }
  if (op == "tagof") {
    Type* t = type_of(e->a.get());
    if (t->k == TK::Error) {
      // maybe a type name Adt.Tag
      const Expr* a = e->a.get();
      if (a->kind == Expr::Field && a->a->kind == Expr::Ident) {
        Sym* s = lookup(a->a->op);
        if (s && s->adt && s->adt->is_pick) {
          auto f = std::find(s->adt->tags.begin(), s->adt->tags.end(), a->op);
          if (f != s->adt->tags.end()) {
            Loc c{imm(static_cast<std::int32_t>(f - s->adt->tags.begin())), t_int_};
            if (dest) move(c, *dest);
            return dest ? *dest : c;
          }
        }
      }
      fail(e->pos, "tagof needs a pick adt value or tag");
    }
    if (t->k != TK::Ref || (t->elem->k != TK::Adt && t->elem->k != TK::Pick) ||
        !t->elem->adt->is_pick)
      fail(e->pos, "tagof needs a ref pick adt, not " + type_name(t));
    Loc v = gen(e->a.get());
    Operand p = direct(v);
    Loc r = result_loc(t_int_, dest);
    emit(Op::movw_, Operand{p.mode == AddrMode::Mp ? AddrMode::IndMp : AddrMode::IndFp, p.a, 0},
         r.op);
    return r;
  }
  if (op == "++" || op == "--") {
    if (auto r = gen_str_step(e, dest)) return *r;
    Loc l = lvalue(e->a.get());
    Op aop = arith_op(op == "++" ? "+" : "-", l.t->k);
    Operand one = l.t->k == TK::Big ? big_const(1) : l.t->k == TK::Real ? real_const(1.0) : imm(1);
    emit(aop, one, Middle{}, l.op);
    if (dest) move(l, *dest);
    return dest ? *dest : l;
  }
  Loc v = gen(e->a.get());
  Type* t = v.t;
  if (op == "+") return v;
  if (op == "-") {
    Loc r = result_loc(t, dest);
    if (t->k == TK::Real)
      emit(Op::negf_, v.op, r.op);
    else if (t->k == TK::Int)
      emit(Op::subw_, v.op, Middle{MidMode::Imm, 0}, r.op);
    else if (t->k == TK::Big)
      emit(Op::subl_, v.op, as_mid(Loc{big_const(0), t_big_}), r.op);
    else if (t->k == TK::Byte)
      emit(Op::subb_, v.op, as_mid(Loc{imm(0), t_byte_}), r.op);
    else
      fail(e->pos, "unary - on " + type_name(t));
    return r;
  }
  if (op == "~") {
    Loc r = result_loc(t, dest);
    if (t->k == TK::Int)
      emit(Op::xorw_, imm(-1), as_mid(v), r.op);
    else if (t->k == TK::Big)
      emit(Op::xorl_, big_const(-1), as_mid(v), r.op);
    else if (t->k == TK::Byte)
      emit(Op::xorb_, imm(0xff), as_mid(v), r.op);
    else
      fail(e->pos, "~ on " + type_name(t));
    return r;
  }
  if (op == "*") {
    if (t->k != TK::Ref) fail(e->pos, "* needs a ref, not " + type_name(t));
    Operand p = direct(v);
    Loc l{Operand{p.mode == AddrMode::Mp ? AddrMode::IndMp : AddrMode::IndFp, p.a, 0}, t->elem};
    if (l.t->k == TK::Pick) l.t = l.t->adt->type;
    if (dest) move(l, *dest);
    return dest ? *dest : l;
  }
  if (op == "<-") {
    if (t->k != TK::Chan) fail(e->pos, "<- needs a channel, not " + type_name(t));
    Loc r = dest && same_type(dest->t, t->elem) ? *dest : temp(t->elem);
    emit(Op::recv_, direct(v), r.op);
    return r;
  }
  if (op == "hd") {
    if (t->k != TK::List) fail(e->pos, "hd needs a list, not " + type_name(t));
    Type* et = t->elem;
    Loc r = result_loc(et, dest);
    Operand s = direct(v);
    switch (et->k) {
      case TK::Int:
        emit(Op::headw_, s, r.op);
        break;
      case TK::Byte:
        emit(Op::headb_, s, r.op);
        break;
      case TK::Big:
        emit(Op::headl_, s, r.op);
        break;
      case TK::Real:
        emit(Op::headf_, s, r.op);
        break;
      default:
        if (is_pointer(et))
          emit(Op::headp_, s, r.op);
        else if (has_pointers(et))
          emit(Op::headmp_, s, Middle{MidMode::Imm, desc_for_type(et)}, r.op);
        else
          emit(Op::headm_, s, Middle{MidMode::Imm, type_size(et)}, r.op);
    }
    return r;
  }
  if (op == "tl") {
    if (t->k != TK::List) fail(e->pos, "tl needs a list, not " + type_name(t));
    Loc r = result_loc(t, dest);
    emit(Op::tail_, direct(v), r.op);
    return r;
  }
  if (op == "len") {
    Loc r = result_loc(t_int_, dest);
    if (t->k == TK::String)
      emit(Op::lenc_, v.op, r.op);
    else if (t->k == TK::Array)
      emit(Op::lena_, v.op, r.op);
    else if (t->k == TK::List)
      emit(Op::lenl_, v.op, r.op);
    else
      fail(e->pos, "len of " + type_name(t));
    return r;
  }
  fail(e->pos, "unknown operator " + op);
}

namespace {

// The scalar conversions Dis has an instruction for; byte converts to and
// from everything else through int, as Inferno's compiler does.
struct Conversion {
  TK from, to;
  Op op;
};
constexpr Conversion kConversions[] = {
    {TK::Int, TK::Big, Op::cvtwl_},     {TK::Big, TK::Int, Op::cvtlw_},
    {TK::Int, TK::Real, Op::cvtwf_},    {TK::Real, TK::Int, Op::cvtfw_},
    {TK::Big, TK::Real, Op::cvtlf_},    {TK::Real, TK::Big, Op::cvtfl_},
    {TK::Int, TK::Byte, Op::cvtwb_},    {TK::Byte, TK::Int, Op::cvtbw_},
    {TK::Int, TK::String, Op::cvtwc_},  {TK::Big, TK::String, Op::cvtlc_},
    {TK::Real, TK::String, Op::cvtfc_}, {TK::String, TK::Int, Op::cvtcw_},
    {TK::String, TK::Big, Op::cvtcl_},  {TK::String, TK::Real, Op::cvtcf_},
};

const Conversion* find_conversion(TK from, TK to) {
  for (const Conversion& c : kConversions)
    if (c.from == from && c.to == to) return &c;
  return nullptr;
}

}  // namespace

Loc Compiler::gen_cast(const Expr* e, const Loc* dest) {
  Type* to = resolve(e->type.get(), nullptr);
  Loc v = gen(e->a.get());
  Type* from = v.t;
  if (same_type(to, from)) {
    if (dest) move(v, *dest);
    return dest ? *dest : v;
  }
  Loc r = result_loc(to, dest);
  const TK f = from->k, t = to->k;
  if (t == TK::Array && to->elem->k == TK::Byte && f == TK::String) {
    emit(Op::cvtca_, v.op, r.op);
  } else if (t == TK::String && f == TK::Array && from->elem->k == TK::Byte) {
    emit(Op::cvtac_, v.op, r.op);
  } else if (const Conversion* c = find_conversion(f, t)) {
    emit(c->op, v.op, r.op);
  } else {
    const Conversion* in = f == TK::Byte || t == TK::Byte ? find_conversion(f, TK::Int) : nullptr;
    const Conversion* out = in ? find_conversion(TK::Int, t) : nullptr;
    if (!out) fail(e->pos, "cannot convert " + type_name(from) + " to " + type_name(to));
    Loc mid = temp(t_int_);
    emit(in->op, v.op, mid.op);
    emit(out->op, mid.op, r.op);
  }
  return r;
}

Loc Compiler::gen_construct(Type* t, const std::vector<ExprP>& args, const Pos& pos,
                            const Loc* dest) {
  std::vector<std::pair<std::int32_t, Type*>> slots;
  if (t->k == TK::Tuple) {
    std::int32_t off = 0;
    for (auto* et : t->elems) {
      off = round_up(off, type_align(et));
      slots.emplace_back(off, et);
      off += type_size(et);
    }
  } else {
    layout_adt(*t->adt);
    if (t->adt->is_pick) unsupported(pos, "pick adt value (without ref) is");
    for (auto& f : t->adt->fields) slots.emplace_back(f.offset, f.type);
  }
  if (args.size() != slots.size())
    fail(pos, "wrong number of values for " + type_name(t) + ": " + std::to_string(args.size()) +
                  " given, " + std::to_string(slots.size()) + " expected");
  Loc r = temp(t);  // not into dest: the values may read it
  for (std::size_t i = 0; i < slots.size(); ++i) {
    Operand o = r.op;
    o.mode == AddrMode::IndFp || o.mode == AddrMode::IndMp ? o.b += slots[i].first
                                                           : o.a += slots[i].first;
    Loc fd{o, slots[i].second};
    gen_to(args[i].get(), slots[i].second, &fd);
  }
  if (dest) {
    move(r, *dest);
    return *dest;
  }
  return r;
}

Loc Compiler::gen_array_lit(const Expr* e, const Loc* dest) {
  // Element type from the first value; size from the explicit size or the count.
  if (e->inits.empty()) fail(e->pos, "empty array initializer");
  Type* et = type_of(e->inits[0].value.get());
  if (et->k == TK::Nil) fail(e->pos, "cannot infer the element type from nil");
  Type* at = mk(TK::Array, et);
  Loc r = dest && !is_ind(dest->op) && same_type(dest->t, at) ? *dest : temp(at);
  Loc n;
  bool keyed = false;
  for (auto& in : e->inits) keyed |= in.star || !in.keys.empty();
  if (e->a) {
    n = gen_to(e->a.get(), t_int_);
  } else {
    if (keyed) fail(e->pos, "array with keyed initializers needs a size");
    n = Loc{imm(static_cast<std::int32_t>(e->inits.size())), t_int_};
  }
  emit(Op::newa_, n.op, Middle{MidMode::Imm, desc_for_type(et)}, r.op);
  Op ind = et->k == TK::Int    ? Op::indw_
           : et->k == TK::Big  ? Op::indl_
           : et->k == TK::Real ? Op::indf_
           : et->k == TK::Byte ? Op::indb_
                               : Op::indx_;
  Loc addr = temp(t_int_);
  auto store = [&](const Operand& idx, const Expr* val) {
    emit(ind, r.op, Middle{MidMode::Fp, addr.op.a}, idx);
    Loc el{Operand{AddrMode::IndFp, addr.op.a, 0}, et};
    gen_to(val, et, &el);
  };
  // `*` first (fills every element), then keyed and positional values.
  for (auto& in : e->inits) {
    if (!in.star) continue;
    Loc i = temp(t_int_);
    Loc len = temp(t_int_);
    emit(Op::lena_, r.op, len.op);
    emit(Op::movw_, imm(0), i.op);
    std::int32_t top = new_label(), end = new_label();
    place(top);
    jump(Op::bgew_, i.op, Middle{MidMode::Fp, len.op.a}, end);
    store(i.op, in.value.get());
    emit(Op::addw_, imm(1), Middle{}, i.op);
    jump(Op::jmp_, Operand{}, Middle{}, top);
    place(end);
  }
  std::int32_t pos = 0;
  for (auto& in : e->inits) {
    if (in.star && in.keys.empty()) continue;
    if (in.keys.empty()) {
      store(imm(pos++), in.value.get());
      continue;
    }
    for (std::size_t k = 0; k < in.keys.size(); ++k) {
      auto lo = const_eval(in.keys[k].get());
      if (!lo || lo->k != TK::Int) fail(in.keys[k]->pos, "array index must be an int constant");
      std::int64_t hi = lo->i;
      if (in.highs[k]) {
        auto h = const_eval(in.highs[k].get());
        if (!h || h->k != TK::Int) fail(in.highs[k]->pos, "array index must be an int constant");
        hi = h->i;
      }
      if (hi - lo->i < 8) {
        for (std::int64_t i = lo->i; i <= hi; ++i) store(word_const(i), in.value.get());
      } else {  // a long range is a loop over the indices
        Loc i = temp(t_int_);
        emit(Op::movw_, word_const(lo->i), i.op);
        std::int32_t top = new_label(), end = new_label();
        place(top);
        Loc h{word_const(hi), t_int_};
        jump(Op::bgtw_, i.op, as_mid(h), end);
        store(i.op, in.value.get());
        emit(Op::addw_, imm(1), Middle{}, i.op);
        jump(Op::jmp_, Operand{}, Middle{}, top);
        place(end);
      }
      pos = static_cast<std::int32_t>(hi + 1);
    }
  }
  if (dest && !(dest->op == r.op)) move(r, *dest);
  return dest ? *dest : r;
}

// The location of an element: the address computed with ind*, then 0(addr).
Loc Compiler::index_loc(const Expr* e) {
  Loc a = gen(e->a.get());
  if (a.t->k != TK::Array) fail(e->pos, "cannot index " + type_name(a.t));
  Loc i = gen_to(e->b.get(), t_int_);
  Type* et = a.t->elem;
  Loc addr = temp(t_int_);
  emit(index_op(et), a.op, Middle{MidMode::Fp, addr.op.a}, i.op);
  return Loc{Operand{AddrMode::IndFp, addr.op.a, 0}, et};
}

Loc Compiler::addr_of_field(const Loc& base, std::int32_t off, Type* ft) {
  Operand o = base.op;
  if (o.mode == AddrMode::Fp || o.mode == AddrMode::Mp) {
    o.a += off;
  } else if (is_ind(o)) {
    o.b += off;
  } else {
    fail(cur_pos_, "cannot select a field here");
  }
  return Loc{o, ft};
}

Loc Compiler::lvalue(const Expr* e) {
  switch (e->kind) {
    case Expr::Ident: {
      Sym* s = lookup(e->op);
      if (!s) fail(e->pos, "undefined identifier " + e->op);
      if (s->kind == Sym::Con) fail(e->pos, "cannot assign to constant " + e->op);
      if (s->kind != Sym::Var) fail(e->pos, e->op + " is not a variable");
      return Loc{s->loc, s->type};
    }
    case Expr::Index: {
      Type* at = type_of(e->a.get());
      if (at->k == TK::String) fail(e->pos, "string element is not addressable here");
      return index_loc(e);
    }
    case Expr::Unary:
      if (e->op == "*") return gen_unary(e, nullptr);
      break;
    case Expr::Field: {
      if (e->a->kind == Expr::Ident) {
        Sym* s = lookup(e->a->op);
        if (s && (s->kind == Sym::AdtName || s->kind == Sym::Imported))
          fail(e->pos, e->a->op + "." + e->op + " is not a value");
      }
      Loc b = gen(e->a.get());
      Type* t = b.t;
      bool by_ref = false;
      if (t->k == TK::Ref) {
        t = t->elem;
        by_ref = true;
      }
      if (t->k == TK::Tuple && !by_ref && e->op.size() > 1 && e->op[0] == 't' &&
          e->op.find_first_not_of("0123456789", 1) == std::string::npos &&
          std::stoul(e->op.substr(1, 6)) < t->elems.size()) {
        // `.t0`, `.t1`...: a tuple's members by position
        std::size_t k = std::stoul(e->op.substr(1, 6));
        std::int32_t off = 0;
        for (std::size_t i = 0;; ++i) {
          off = round_up(off, type_align(t->elems[i]));
          if (i == k) break;
          off += type_size(t->elems[i]);
        }
        return addr_of_field(b, off, t->elems[k]);
      }
      if (t->k != TK::Adt && t->k != TK::Pick)
        fail(e->pos, "cannot select ." + e->op + " from " + type_name(b.t));
      AdtInfo& ad = *t->adt;
      layout_adt(ad);
      const Field* fld = nullptr;
      for (auto& f : ad.fields)
        if (f.name == e->op) fld = &f;
      if (!fld && t->k == TK::Pick)
        for (auto& f : ad.variants[ad.tag_variant[t->tag]].fields)
          if (f.name == e->op) fld = &f;
      if (!fld) fail(e->pos, "no field " + e->op + " in " + type_name(t));
      if (by_ref) {
        Operand p = direct(b);
        return Loc{
            Operand{p.mode == AddrMode::Mp ? AddrMode::IndMp : AddrMode::IndFp, p.a, fld->offset},
            fld->type};
      }
      return addr_of_field(b, fld->offset, fld->type);
    }
    default:
      break;
  }
  fail(e->pos, "expression cannot be assigned to");
}

void Compiler::tuple_assign(const Expr* lhs, const Loc& val, bool declare) {
  if (val.t->k != TK::Tuple && val.t->k != TK::Adt)
    fail(lhs->pos, "cannot unpack " + type_name(val.t) + " into a tuple");
  std::vector<std::pair<std::int32_t, Type*>> slots;
  if (val.t->k == TK::Tuple) {
    std::int32_t off = 0;
    for (auto* et : val.t->elems) {
      off = round_up(off, type_align(et));
      slots.emplace_back(off, et);
      off += type_size(et);
    }
  } else {
    for (auto& f : val.t->adt->fields) slots.emplace_back(f.offset, f.type);
  }
  if (slots.size() != lhs->args.size())
    fail(lhs->pos, "tuple has " + std::to_string(slots.size()) + " elements, " +
                       std::to_string(lhs->args.size()) + " names given");
  for (std::size_t i = 0; i < slots.size(); ++i) {
    const Expr* x = lhs->args[i].get();
    Loc src = addr_of_field(val, slots[i].first, slots[i].second);
    if (x->kind == Expr::Nil) continue;
    if (x->kind == Expr::TupleLit) {
      tuple_assign(x, src, declare);
      continue;
    }
    if (declare) {
      if (x->kind != Expr::Ident) fail(x->pos, "only names can be declared with :=");
      Loc l;
      declare_local(x->op, slots[i].second, x->pos, &l);
      move(src, l);
    } else {
      Loc l = lvalue(x);
      check_assignable(l.t, src.t, x->pos, "assignment");
      move(src, l);
    }
  }
}

}  // namespace dis::limbo
