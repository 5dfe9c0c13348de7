// Expressions: code for values, conditions, binary operators, casts and
// lvalues, shaped as Inferno's compiler shapes them. Constant folding is in
// const_eval.cpp, unary operators in compile_unary.cpp, new values in
// compile_values.cpp.
#include <algorithm>
#include <cmath>

#include "compiler_impl.h"
#include "const_cast_fold.h"
#include "eval_order.h"

namespace dis::limbo {

namespace {
bool is_numeric(const Type* t) {
  return t->k == TK::Int || t->k == TK::Big || t->k == TK::Byte || t->k == TK::Real ||
         t->k == TK::Fixed;
}
bool is_ptrish(const Type* t) { return is_pointer(t) || t->k == TK::Nil; }

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
  // A jump nothing reaches (after a return, say) is left out, as Inferno's
  // compiler leaves it out.
  if (op == Op::jmp_ && unreachable()) return -1;
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

namespace {
// Operations whose operands can change places (not addc: concatenation).
bool commutes(Op op) {
  static constexpr Op kCommutative[] = {Op::addb_, Op::addw_, Op::addl_, Op::addf_, Op::mulb_,
                                        Op::mulw_, Op::mull_, Op::mulf_, Op::andb_, Op::andw_,
                                        Op::andl_, Op::orb_,  Op::orw_,  Op::orl_,  Op::xorb_,
                                        Op::xorw_, Op::xorl_};
  return std::find(std::begin(kCommutative), std::end(kCommutative), op) != std::end(kCommutative);
}
}  // namespace

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

// Type of an expression, found by generating its code and discarding it.
Type* Compiler::type_of(const Expr* e) {
  auto cached = type_cache_.find(e);
  if (cached != type_cache_.end()) return cached->second;
  auto code = m_.code.size(), poss = m_.positions.size(), cf = call_fixes_.size(),
       jf = jump_fixes_.size(), ifx = import_fixes_.size(), tf = table_fixes_.size(),
       sfx = self_fixes_.size(), er = errs_.size(), hs = m_.handlers.size();
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
  self_fixes_.resize(sfx);
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

// The con a module declares that `e` names (an imported name, or
// `Mod->c` / `m->c` through a module type or value), with its module.
static std::pair<ModInfo*, const ModMember*> module_con(Compiler& c, const Expr* e) {
  ModInfo* mod = nullptr;
  std::string name;
  if (e->kind == Expr::Ident) {
    Sym* s = c.lookup(e->op);
    if (!s || s->kind != Sym::Imported) return {};
    mod = s->mod;
    name = s->member;
  } else if (e->kind == Expr::ModField && e->a->kind == Expr::Ident) {
    Sym* s = c.lookup(e->a->op);
    if (s && s->kind == Sym::ModType) mod = s->mod;
    if (s && s->kind == Sym::Var && s->type->k == TK::Module) mod = s->type->mod;
    name = e->op;
  }
  if (!mod) return {};
  auto it = mod->members.find(name);
  if (it == mod->members.end() || it->second.kind != ModMember::AdtCon) return {};
  return {mod, &it->second};
}

// An imported or `Mod->` tuple-valued con (`Nilentry: con (nil, nil, 0)`):
// its value expression, typed where it is used; else null.
static const Expr* tuple_con_value(Compiler& c, const Expr* e) {
  if (e->kind == Expr::Ident) {  // this module's own (`Sync: con (nil, 0);`)
    Sym* s = c.lookup(e->op);
    if (s && s->kind == Sym::AdtCon && s->adtcon->kind == Expr::TupleLit) return s->adtcon;
  }
  auto [mod, m] = module_con(c, e);
  return m && m->value->kind == Expr::TupleLit ? m->value : nullptr;
}

Loc Compiler::gen_to(const Expr* e, Type* want, const Loc* dest) {
  if (want && (want->k == TK::Tuple || want->k == TK::Adt))
    if (const Expr* v = tuple_con_value(*this, e)) e = v;
  // A tuple literal takes its members' types from where it goes (a tuple,
  // or an adt whose data members it lists), so its nils are typed.
  if (want && e->kind == Expr::TupleLit &&
      (want->k == TK::Tuple || (want->k == TK::Adt && !want->adt->is_pick))) {
    if (auto whole = names_tuple(e, want)) return tuple_copy(*whole, dest);
    return gen_construct(want, e->args, e->pos, dest);
  }
  // Its elements likewise (`cmds: array of Cmd = array[] of {('a', f), ...}`).
  if (want && e->kind == Expr::ArrayLit && want->k == TK::Array &&
      (want->elem->k == TK::Tuple || want->elem->k == TK::Adt))
    return gen_array_lit(e, dest, want->elem);
  if (auto v = gen_variant_to(e, want, dest)) return *v;
  // `(a, nil) :: nil` given for a list: the list built where it goes, so
  // that the nil takes its type from the list's element.
  if (want && want->k == TK::List && !dest && e->kind == Expr::Binary && e->op == "::" &&
      type_of(e)->k == TK::Error) {
    Loc l = temp(want);
    return gen(e, &l);
  }
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
  // (A destination of the same type written another way, `ref Node` of the
  // function returning and of the one called, is written in place too.)
  const bool to_dest = dest && want && (dest->t == want || same_type(dest->t, want));
  if (to_dest) {
    Type* et = type_of(e);
    if (et->k != TK::Error) check_assignable(want, et, e->pos, "assignment");
  }
  // A polymorphic function's reference is bound by want wherever it is
  // made (an inlined call's argument, a parameter of another type).
  Loc l = !to_dest && want && want->k == TK::Ref && names_poly_fn(e)
              ? gen_fn_value(e, nullptr, want)
              : gen(e, to_dest ? dest : nullptr);
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
  if (auto v = const_eval(e)) return gen_const(*v, dest);
  switch (e->kind) {
    case Expr::Nil:
      return gen_nil(dest);
    case Expr::Ident:
      return gen_ident(e, dest);
    case Expr::Binary:
      return gen_binary(e, dest);
    case Expr::Unary:
      return gen_unary(e, dest);
    case Expr::Cast:
      return gen_cast(e, dest);
    case Expr::Call:
      return gen_call(e, dest);
    case Expr::PostInc:
    case Expr::PostDec:
      return gen_post_step(e, dest);
    case Expr::Assign:
      return gen_assign_value(e, dest);
    case Expr::Index:
    case Expr::Inst:
      return gen_index(e, dest);
    case Expr::Slice:
      return gen_slice(e, dest);
    case Expr::Field: {
      // Adt.Tag used as a value is not a value; x.f on adts.
      if (adt_fn_ref(e, nullptr, nullptr, true)) return gen_fn_value(e, dest);
      Loc l = lvalue(e);
      if (dest) {
        move(l, *dest);
        free_temp(l, &dest->op);
        nil_made_adt(e->a.get(), l);
        return *dest;
      }
      return l;
    }
    case Expr::ModField:
      if (auto r = adt_con(e, dest)) return *r;
      if (Type* mt = type_of(e->a.get()); mt->k == TK::Module) {
        auto it = mt->mod->members.find(e->op);
        if (it != mt->mod->members.end() && it->second.kind == ModMember::Func)
          return gen_fn_value(e, dest);
      }
      if (auto r = imported_data(e)) {
        if (!dest) return *r;
        move(*r, *dest);
        return *dest;
      }
      fail(e->pos, "module has no data or constant " + e->op);
    case Expr::TupleLit:
      return gen_tuple_lit(e, dest);
    case Expr::ArrayNew:
      return gen_array_new(e, dest);
    case Expr::ArrayLit:
      return gen_array_lit(e, dest);
    case Expr::ListLit:
      return gen_list_lit(e, dest);
    case Expr::ChanNew:
      return gen_chan_new(e, dest);
    case Expr::Load:
      return gen_load(e, dest);
    case Expr::Self:
      fail(e->pos, "self is not an expression: only an argument's type says it (limbo.txt 4.3)");
    default:
      break;
  }
  fail(e->pos, "expression not supported here");
}

// A folded constant: an immediate or a constant in the data section.
Loc Compiler::gen_const(const ConstVal& v, const Loc* dest) {
  Loc c;
  switch (v.k) {
    case TK::Int:
      c = Loc{word_const(v.i), t_int_};
      break;
    case TK::Big:
      c = Loc{big_const(v.i), t_big_};
      break;
    case TK::Byte:
      c = Loc{imm(static_cast<std::int32_t>(v.i)), t_byte_};
      break;
    case TK::Real:
      c = Loc{real_const(v.r), t_real_};
      break;
    case TK::Fixed:
      c = Loc{word_const(v.i), v.ft};
      break;
    default:
      c = Loc{str_const(v.s), t_string_};
      break;
  }
  if (dest) {
    move(c, *dest);
    return *dest;
  }
  return c;
}

Loc Compiler::gen_nil(const Loc* dest) {
  Loc n{word_const(-1), t_nil_};
  if (n.op.mode == AddrMode::Imm) n.op = Operand{AddrMode::Imm, -1, 0};
  if (dest) {
    emit(Op::movp_, n.op, dest->op);
    return *dest;
  }
  return Loc{nil_slot(), t_nil_};
}

Loc Compiler::gen_ident(const Expr* e, const Loc* dest) {
  Sym* s = lookup(e->op);
  if (!s) fail(e->pos, "undefined identifier " + e->op);
  if (s->kind == Sym::Func) return gen_fn_value(e, dest);
  if (s->kind == Sym::Subst) return gen_subst(*s, dest);
  if (s->kind == Sym::AdtCon && s->adtcon->kind == Expr::TupleLit) return gen(s->adtcon, dest);
  if (s->kind == Sym::AdtCon) return gen_construct(s->type, s->adtcon->args, e->pos, dest);
  std::optional<Loc> data = imported_data(e);
  if (s->kind != Sym::Var && !data) fail(e->pos, e->op + " is not a value");
  Loc l = data ? *data : Loc{s->loc, s->type};
  if (dest) {
    move(l, *dest);
    return *dest;
  }
  return l;
}

// An assignment used as a value.
Loc Compiler::gen_assign_value(const Expr* e, const Loc* dest) {
  if (e->op == "=" && e->a->kind == Expr::Slice) {
    // `(array[n] of T)[0:] = a`: the value is the array assigned into, from lo.
    auto [arr, lo] = assign_slice(e->a.get(), e->b.get(), nullptr);
    auto zero = const_eval(e->a->b.get());
    if (zero && zero->k == TK::Int && zero->i == 0) {
      if (dest) move(arr, *dest);
      return dest ? *dest : arr;
    }
    Loc n = temp(t_int_);
    emit(Op::lena_, arr.op, n.op);
    Loc r = result_loc(arr.t, dest);
    if (!(r.op == arr.op)) move(arr, r);
    emit(Op::slicea_, lo.op, as_mid(n), r.op);
    return r;
  }
  if (e->a->kind == Expr::TupleLit && (e->op == ":=" || e->op == "=") &&
      e->b->kind != Expr::TupleLit) {
    // `((d, r) := <-c).t0`: the value is the tuple, unpacked on the way.
    Type* t = type_of(e->b.get());
    if (t->k == TK::Tuple || (t->k == TK::Adt && !t->adt->is_pick)) {
      Loc v = temp(t);
      gen_to(e->b.get(), t, &v);
      tuple_assign(e->a.get(), v, e->op == ":=");
      if (dest) move(v, *dest);
      return dest ? *dest : v;
    }
  }
  if (e->op == "<-=") return gen_send_value(e, dest);
  assign_expr(e);
  if (e->op == ":=") {
    if (e->a->kind == Expr::Ident) return assigned_value(gen(e->a.get()), dest);
    return Loc{imm(0), t_none_};
  }
  if (e->a->kind == Expr::TupleLit) return Loc{imm(0), t_none_};
  // An element is read back where it was stored (`new $3,0(t); movp
  // 0(t),x` for `x := a[i] = ref T`), as Inferno's compiler does.
  if (e->op == "=" && e->a->kind == Expr::Index && assigned_elem_ &&
      type_of(e->a->a.get())->k == TK::Array)
    return assigned_value(*assigned_elem_, dest);
  return assigned_value(lvalue(e->a.get()), dest);
}

Loc Compiler::gen_index(const Expr* e, const Loc* dest) {
  if (e->kind == Expr::Inst || inst_base(e, nullptr) != e) return gen_fn_value(e, dest);
  Type* at = type_of(e->a.get());
  if (at->k == TK::String) {
    Loc s = gen(e->a.get());
    Loc i = gen_to(e->b.get(), t_int_);
    Loc r = result_loc(t_int_, dest);
    // indc reads the string where it is (`indc 4(t),$0,r`), as Inferno's
    // compiler writes it.
    emit(Op::indc_, s.op, as_mid(i), r.op);
    free_temp(s, &r.op);
    return r;
  }
  Loc l = index_loc(e);
  if (dest) {
    move(l, *dest);
    free_temp(l, &dest->op);
    return *dest;
  }
  return l;
}

// `load Mod path`.
Loc Compiler::gen_load(const Expr* e, const Loc* dest) {
  Type* mt = resolve(e->type.get(), nullptr);
  if (mt->k != TK::Module) fail(e->pos, "load of non-module type " + type_name(mt));
  Loc path = gen_to(e->a.get(), t_string_);
  int table = import_table(mt->mod);
  Loc r = result_loc(mt, dest);
  // Straight where it goes, a field or the return slot too (`load
  // 4(mp),$0,0(16(fp))` for `return load M path`), as Inferno's compiler
  // loads it: nothing can free the object holding it meanwhile.
  emit(Op::load_, path.op, Middle{MidMode::Imm, table}, r.op);
  return r;
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
  // Fixed point adds and subtracts as int; * and / rescale (fixed_point.cpp).
  if (k == TK::Fixed) return op == "+" ? Op::addw_ : op == "-" ? Op::subw_ : Op::nop_;
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

// The comparison with its operands exchanged: a < b is b > a.
std::string commute_cmp(const std::string& op) {
  if (op == "<") return ">";
  if (op == ">") return "<";
  if (op == "<=") return ">=";
  if (op == ">=") return "<=";
  return op;
}

}  // namespace

void Compiler::gen_cond(const Expr* e, bool when, std::int32_t label) {
  PosScope ps(cur_pos_, e->pos);
  // A constant test is decided here (`n < 0 || ...` of an inlined e(6)
  // keeps only the second test), as Inferno's compiler folds it.
  if (auto t = const_test(e)) {
    if (*t == when && jump(Op::jmp_, Operand{}, Middle{}, label) >= 0)
      jump_fixes_.back().weak = true;
    return;
  }
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
      free_temp(x);
      return;
    }
    Type* want = t->k == TK::Nil ? nullptr : t;
    auto [a, b] = gen_operands(e, want, want, Order::Compare);
    if (!(ta->k == TK::Nil && is_ptrish(tb)) && !(tb->k == TK::Nil && is_ptrish(ta)))
      check_assignable(a.t, b.t, e->pos, "comparison");
    if (e->op != "==" && e->op != "!=" && !is_numeric(t) && t->k != TK::String)
      fail(e->pos, "cannot order values of type " + type_name(t));
    if ((t->k == TK::Adt || t->k == TK::Tuple))
      fail(e->pos, "cannot compare " + type_name(t) +
                       " values: only arithmetic, string and reference ones (limbo.txt 8.3.5)");
    std::string op = when ? e->op : negate_cmp(e->op);
    TK k = is_ptrish(t) && t->k != TK::String ? TK::Int : t->k;
    if (t->k == TK::String && (ta->k == TK::Nil || tb->k == TK::Nil)) k = TK::String;
    // Inferno's compiler tests the right operand against the left one (the
    // left as the middle operand) when the right is the less directly
    // addressed; a left that cannot be a middle operand (a field through
    // a reference) is copied into a temporary for it (`movw 4(r),t; bgtw
    // len,t`).
    const bool right_src = addressing_rank(e->a.get()) < addressing_rank(e->b.get());
    Middle mid;
    if (!right_src) {
      mid = as_mid(b);
      jump(branch_op(op, k), a.op, mid, label);
    } else {
      mid = as_mid(a);
      jump(branch_op(commute_cmp(op), k), b.op, mid, label);
    }
    // Each temporary is done with once the branch has used it: a pointer
    // one is reset where the branch falls through, as Inferno's compiler
    // resets it (the copy as_mid made too).
    // The adt of a field tested out of a list's head is reset after the
    // test (`headmp l,$d,t; bnew 8(t),x,$L; nilp t...`); a call's tuple is not.
    // A pointer member at the head's start is freed as the operand's
    // temporary is (`bnec 64(fp),s,$L; nilp 64(fp)` for `(hd l).t0 != s`).
    auto head_field = [](const Expr* x) {
      return x->kind == Expr::Field && x->a->kind == Expr::Unary && x->a->op == "hd";
    };
    auto first_ptr = [&](const Expr* x, const Loc& l) {
      TempSlot* ts = l.op.mode == AddrMode::Fp ? busy_temp(l.op.a) : nullptr;
      return head_field(x) && is_pointer(l.t) && ts && !ts->pointer && !ts->pinned;
    };
    const bool a_first = first_ptr(e->a.get(), a), b_first = first_ptr(e->b.get(), b);
    free_temp(a);
    free_temp(b);
    if (a_first) emit(Op::movp_, imm(-1), a.op);
    if (b_first) emit(Op::movp_, imm(-1), b.op);
    if (mid.mode == MidMode::Fp) free_temp(Loc{fp(mid.a), t});
    if (head_field(e->a.get())) nil_made_adt(e->a->a.get(), a);
    if (head_field(e->b.get())) nil_made_adt(e->b->a.get(), b);
    return;
  }
  if (e->kind == Expr::Call && type_of(e)->k == TK::Int && gen_inline_cond(e, when, label)) return;
  Loc v = gen(e);
  if (v.t->k != TK::Int) fail(e->pos, "condition must be int, not " + type_name(v.t));
  jump(when ? Op::bnew_ : Op::beqw_, v.op, Middle{MidMode::Imm, 0}, label);
  free_temp(v);
}

Loc Compiler::gen_binary(const Expr* e, const Loc* dest) {
  const std::string& op = e->op;
  if (op == "&&" || op == "||" || is_cmp(op)) return materialize_bool(e, dest);
  if (op == "::") {
    Type* ht = type_of(e->a.get());
    Type* tt = type_of(e->b.get());
    // `ref Rmsg.Flush(t) :: flushes` onto a list of that variant: the head is one.
    if (Type* vt = variant_ref_type(e->a.get()); vt && tt->k == TK::List && same_type(tt->elem, vt))
      ht = vt;
    // `x :: nil` takes the list type of where it goes, so that a nil in x has a type.
    Type* lt = tt->k == TK::List                                      ? tt
               : dest && dest->t->k == TK::List && ht->k == TK::Error ? dest->t
                                                                      : mk(TK::List, ht);
    // Two variants of a pick adt (or one and the adt) make a list of the adt,
    // as Inferno's tparent does (`ref RR.Error(...) :: soa :: nil`).
    bool widened = false;
    if (tt->k == TK::List)
      if (Type* base = pick_parent(tt->elem, ht)) {
        lt = mk(TK::List, base);
        widened = true;
      }
    Type* et = lt->elem;
    if (ht->k != TK::Nil) check_assignable(et, ht, e->pos, "list construction");
    if (tt->k != TK::Nil && tt->k != TK::List)
      fail(e->pos, ":: needs a list on the right, not " + type_name(tt));
    // The head is computed before the tail so that order matches the source.
    // The head is cons's source as it is (a field, a constant word), as
    // Inferno's compiler writes it.
    Loc h = gen_to(e->a.get(), et);
    Loc r;
    if (dest && is_ind(dest->op) && !widened && e->b->kind == Expr::Field) {
      // `x.l = v :: x.l` conses onto the field where it is (`consp v,4(x)`).
      Loc tl = gen_to(e->b.get(), lt);
      if (tl.op == dest->op) {
        r = Loc{dest->op, lt};
      } else {
        r = temp(lt);
        move(tl, r);
        free_temp(tl, &r.op);
      }
    } else {
      // Built in a temporary and moved, unless it conses onto the variable
      // it goes to (`l = x :: l`) or the destination is a temporary, as
      // Inferno's compiler builds `al := cs :: nil`.
      const bool onto =
          dest && !is_ind(dest->op) &&
          ((dest->op.mode == AddrMode::Fp && busy_temp(dest->op.a)) || names(e->b.get(), *dest));
      r = onto ? Loc{dest->op, lt} : temp(lt);
      if (widened)
        move(gen(e->b.get()), r);  // a list of one variant is a list of the adt
      else
        gen_to(e->b.get(), lt, &r);
    }
    if (et->k == TK::Nil) fail(e->pos, "list of nil");
    Op cop = cons_op(et);
    if (h.op.mode == AddrMode::Imm && (cop != Op::consw_ && cop != Op::consb_))
      h = Loc{direct(h), h.t};
    emit_cons(cop, h.op, et, r.op);
    // A tuple or adt head made in a temporary has its pointers reset once
    // the list is delivered, before the list's own temporary, as Inferno's
    // compiler frees them (`consmp t,$d,l; movp l,d; nilp t...; nilp l`).
    const bool whole = h.op.mode == AddrMode::Fp && (h.t->k == TK::Tuple || h.t->k == TK::Adt) &&
                       busy_temp(h.op.a) && !busy_temp(h.op.a)->pinned;
    if (!whole) {
      free_temp(h, &r.op);
      return deliver(r, dest);
    }
    if (!dest || dest->op == r.op) {
      nil_tuple_temp(h);
      return r;
    }
    move(r, *dest);
    nil_tuple_temp(h);
    free_temp(r, &dest->op);
    return *dest;
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
  if (t->k == TK::Fixed && (op == "*" || op == "/")) return gen_fixed_muldiv(e, t, dest);
  Op aop = arith_op(op, t->k);
  if (aop == Op::nop_) fail(e->pos, "operator " + op + " not defined on " + type_name(t));
  if ((t->k == TK::Int || t->k == TK::String) && ta->k == t->k && tb->k == t->k)
    if (auto v = gen_folded_sum(e, t, dest)) return *v;
  auto [a, b] = gen_operands(e, t, shift ? t_int_ : t);
  // A commutative operation takes an operand that cannot be the middle one
  // (a doubly indirect field, say) as its source, sparing a temporary.
  // A computed left operand with a constant too wide for the middle, the
  // result going elsewhere, is the source, the constant the middle through
  // the scratch word (`andw t,24(fp),d`), as Inferno's compiler orders
  // them (into t itself it writes `andw $16777215,t`).
  const bool wide_mid = b.op.mode == AddrMode::Imm && !fits_middle(b.op) &&
                        a.op.mode == AddrMode::Fp && busy_temp(a.op.a) && dest &&
                        same_type(dest->t, t) && !(dest->op == a.op);
  if (commutes(aop) && ((!fits_middle(a.op) && fits_middle(b.op)) || wide_mid)) std::swap(a, b);
  Middle m = as_mid(a, true);
  if (m.mode == MidMode::Imm && (t->k == TK::Big || t->k == TK::Real))
    m = as_mid(Loc{direct(a), t});
  // Without a destination the result takes an operand's temporary (the
  // middle one's first, also one made for it here), as Inferno's compiler
  // allocates it.
  const Loc mid = m.mode == MidMode::Fp ? Loc{fp(m.a), t} : a;
  Loc r;
  if (dest && same_type(dest->t, t))
    r = *dest;
  else if (reusable_temp(mid, t))
    r = Loc{mid.op, t};
  else if (reusable_temp(b, t))
    r = Loc{b.op, t};
  else if (auto rb = reusable_base(b, t))
    r = *rb;
  else if (auto ra = reusable_base(a, t))
    r = *ra;
  else
    r = temp(t);
  emit(aop, b.op, m, r.op);
  free_temp(a, &r.op);
  free_temp(b, &r.op);
  free_temp(mid, &r.op);
  return r;
}

// `sys->nulldir`: an adt-valued con of a module is its constructor call,
// compiled where it is used (as Inferno's compiler does).
std::optional<Loc> Compiler::adt_con(const Expr* e, const Loc* dest) {
  auto c = module_adt_con(e);
  if (!c.call) return std::nullopt;
  // Its values are constants of the module's scope (`Chans((CMap<<4) | 8)`).
  ModInfo* outer = const_mod_;
  const_mod_ = c.mod;
  std::optional<Loc> r;
  try {
    r = gen_construct(c.type, c.call->args, c.call->pos, dest);
  } catch (CompileError&) {
    const_mod_ = outer;
    throw;
  }
  const_mod_ = outer;
  return r;
}

ModAdtCon Compiler::module_adt_con(const Expr* e) {
  auto [mod, m] = module_con(*this, e);
  if (!m) return {};
  const Expr* call = m->value;
  if (call->kind != Expr::Call || call->a->kind != Expr::Ident) return {};
  auto ti = mod->members.find(call->a->op);
  if (ti == mod->members.end() || ti->second.kind != ModMember::TypeName ||
      ti->second.type->k != TK::Adt)
    return {};
  return ModAdtCon{call, mod, ti->second.type};
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
  // `m->Adt` also names a type through a module variable m.
  auto module_var = [&](const Expr* x) {
    if (x->kind != Expr::Ident) return false;
    Sym* s = lookup(x->op);
    return s && s->kind == Sym::Var && s->type->k == TK::Module;
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
  } else if (e->kind == Expr::ModField && (type_sym(e->a.get()) || module_var(e->a.get()))) {
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
      if (s->kind == Sym::Subst) return gen_subst(*s, nullptr);
      if (auto data = imported_data(e)) return *data;
      if (s->kind != Sym::Var) fail(e->pos, e->op + " is not a variable");
      return Loc{s->loc, s->type};
    }
    case Expr::ModField:
      if (auto data = imported_data(e)) return *data;
      break;
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
        bool data =
            s && s->kind == Sym::Imported && s->mod->members[s->member].kind == ModMember::Var;
        if (s && (s->kind == Sym::AdtName || (s->kind == Sym::Imported && !data)))
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
      Type* ft = member_type(t, fld->type);
      if (by_ref) {
        Operand p = direct(b, true);
        return Loc{
            Operand{p.mode == AddrMode::Mp ? AddrMode::IndMp : AddrMode::IndFp, p.a, fld->offset},
            ft};
      }
      return addr_of_field(b, fld->offset, ft);
    }
    default:
      break;
  }
  fail(e->pos, "expression cannot be assigned to");
}

void Compiler::tuple_assign(const Expr* lhs, const Loc& val, bool declare) {
  if (val.t->k != TK::Tuple && val.t->k != TK::Adt)
    fail(lhs->pos, "cannot unpack " + type_name(val.t) + " into a tuple");
  auto slots = value_slots(val.t);
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
    if (!declare && x->kind == Expr::Slice) {  // `(b[0:], n) = f()`
      assign_slice(x, nullptr, &src);
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
