// Expressions that make new values: tuple, array and list literals, new
// arrays and channels, and the construction of tuples and adts from values.
#include "compiler_impl.h"

namespace dis::limbo {

Op cons_op(const Type* et) {
  return et->k == TK::Int || et->k == TK::Fixed ? Op::consw_
         : et->k == TK::Byte                    ? Op::consb_
         : et->k == TK::Big                     ? Op::consl_
         : et->k == TK::Real                    ? Op::consf_
         : is_pointer(et)                       ? Op::consp_
         : has_pointers(et)                     ? Op::consmp_
                                                : Op::consm_;
}

void Compiler::emit_cons(Op op, const Operand& v, Type* et, const Operand& list) {
  if (op == Op::consm_)
    emit(op, v, Middle{MidMode::Imm, type_size(et)}, list);
  else if (op == Op::consmp_)
    emit(op, v, Middle{MidMode::Imm, desc_for_type(et)}, list);
  else
    emit(op, v, list);
}

Loc Compiler::gen_tuple_lit(const Expr* e, const Loc* dest) {
  std::vector<Type*> ts;
  for (auto& a : e->args) ts.push_back(type_of(a.get()));
  Type* tt = mk(TK::Tuple);
  for (auto* t : ts) {
    if (t->k == TK::Nil) fail(e->pos, "nil in a tuple needs a declared type");
    tt->elems.push_back(t);
  }
  // The names of a tuple laid out in place are that tuple, copied whole
  // (`return (a, b)` is one movmp), as Inferno's compiler copies it.
  if (auto whole = names_tuple(e, tt)) return tuple_copy(*whole, dest);
  return gen_construct(tt, e->args, e->pos, dest);
}

// `array[n] of T`.
Loc Compiler::gen_array_new(const Expr* e, const Loc* dest) {
  Type* et = resolve(e->type.get(), nullptr);
  Type* at = mk(TK::Array, et);
  Loc n = gen_to(e->a.get(), t_int_);
  Loc r = result_loc(at, dest);
  // Made where it goes unless through module data (Inferno's newa n,$t,0(16(fp))).
  Loc rr = r.op.mode == AddrMode::IndMp ? temp(at) : r;
  emit(Op::newa_, n.op, Middle{MidMode::Imm, desc_for_type(et)}, rr.op);
  if (!(rr.op == r.op)) move(rr, r);
  return r;
}

// `list of {v, ...}`: consed from the last value to the first.
Loc Compiler::gen_list_lit(const Expr* e, const Loc* dest) {
  if (e->args.empty()) fail(e->pos, "empty list literal");
  Type* et = type_of(e->args[0].get());
  Type* lt = mk(TK::List, et);
  // Every element computed first, in order, then consed from the last, each
  // temporary freed once consed (the first's after the list is delivered),
  // as Inferno's compiler builds a list.
  std::vector<Loc> vals;
  for (auto& a : e->args) vals.push_back(gen_to(a.get(), et));
  // Built in a temporary and moved to a variable too (`fds := list of {0,
  // 1, 2}`), as Inferno's compiler builds it; straight into a temporary.
  const bool into_dest = dest && dest->op.mode == AddrMode::Fp && busy_temp(dest->op.a);
  Loc r = into_dest ? *dest : temp(lt);
  emit(Op::movp_, word_const(-1).mode == AddrMode::Imm ? imm(-1) : word_const(-1), r.op);
  auto done = [&](const Loc& v) {
    if (v.op.mode == AddrMode::Fp && (v.t->k == TK::Tuple || v.t->k == TK::Adt))
      nil_tuple_temp(v);
    else
      free_temp(v);
  };
  for (std::size_t i = vals.size(); i-- > 0;) {
    emit_cons(cons_op(et), vals[i].op, et, r.op);
    if (i > 0) done(vals[i]);
  }
  if (dest && !(dest->op == r.op)) {
    move(r, *dest);
    done(vals[0]);
    free_temp(r, &dest->op);
    return *dest;
  }
  done(vals[0]);
  return r;
}

// `chan of T` and `chan[n] of T`.
Loc Compiler::gen_chan_new(const Expr* e, const Loc* dest) {
  Type* et = resolve(e->type.get(), nullptr);
  Type* ct = mk(TK::Chan, et);
  Middle mid;
  if (e->a) mid = as_mid(gen_to(e->a.get(), t_int_));
  Loc r = result_loc(ct, dest);
  // Made where it goes (`newcw $1,0(32(fp))`, a field) unless through
  // module data, as Inferno's compiler makes it.
  Loc rr = r.op.mode == AddrMode::IndMp ? temp(ct) : r;
  switch (et->k) {
    case TK::Int:
    case TK::Fixed:
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

// `Adt(v)` with v an Adt itself (`IPaddr(a)`): the parenthesized value is
// the whole tuple of values, copied.
bool Compiler::whole_value(Type* t, const std::vector<ExprP>& args) {
  if (args.size() != 1 || t->k != TK::Adt) return false;
  Type* at = type_of(args[0].get());
  return at->k == TK::Adt && at->adt == t->adt;
}

Loc Compiler::gen_construct(Type* t, const std::vector<ExprP>& args, const Pos& pos,
                            const Loc* dest) {
  if (t->k != TK::Tuple && t->adt->is_pick)
    fail(pos, "a pick adt can only be used as a ref adt (limbo.txt 6.3.1): ref " + type_name(t) +
                  "(...)");
  if (whole_value(t, args)) return gen_to(args[0].get(), t, dest);
  auto slots = value_slots(t);
  if (t->k == TK::Adt)  // an instance's members have its type arguments
    for (auto& sl : slots) sl.second = member_type(t, sl.second);
  if (args.size() != slots.size())
    fail(pos, "wrong number of values for " + type_name(t) + ": " + std::to_string(args.size()) +
                  " given, " + std::to_string(slots.size()) + " expected");
  // Built in place where no value can read the destination: the caller's
  // result (`return (a, b)`) or an argument's slot, as Inferno's compiler
  // does; elsewhere in a temporary, since the values may read dest.
  // A member of a value being built in a temporary is built in place too.
  auto building = [&](const Operand& o) {
    if (o.mode != AddrMode::Fp) return false;
    for (auto [lo, hi] : building_)
      if (o.a >= lo && o.a < hi) return true;
    return false;
  };
  const bool in_place = dest && same_type(dest->t, t) &&
                        (is_result_slot(dest->op) || is_arg_slot(dest->op) || building(dest->op) ||
                         (dest->op.mode == AddrMode::Fp && busy_temp(dest->op.a)));
  Loc r = in_place ? *dest : temp(t);
  {
    std::optional<Pushed<decltype(building_)>> built;
    if (!in_place) built.emplace(building_, r.op.a, r.op.a + type_size(t));
    for (std::size_t i = 0; i < slots.size(); ++i) {
      Operand o = r.op;
      o.mode == AddrMode::IndFp || o.mode == AddrMode::IndMp ? o.b += slots[i].first
                                                             : o.a += slots[i].first;
      Loc fd{o, slots[i].second};
      gen_to(args[i].get(), slots[i].second, &fd);
    }
  }
  if (dest) {
    move(r, *dest);
    free_temp(r, &dest->op);
    return *dest;
  }
  return r;
}

Loc Compiler::gen_array_lit(const Expr* e, const Loc* dest, Type* want_elem) {
  // Element type from where the array goes, else from the first value; size
  // from the explicit size or the count.
  if (e->inits.empty()) fail(e->pos, "empty array initializer");
  Type* et = want_elem ? want_elem : type_of(e->inits[0].value.get());
  if (et->k == TK::Nil) fail(e->pos, "cannot infer the element type from nil");
  Type* at = mk(TK::Array, et);
  // Made in place in a variable, and in a frame's argument slot as Inferno's
  // compiler makes it (`newa $1,$1,32(40(fp))`).
  const bool here = dest && (!is_ind(dest->op) || is_arg_slot(dest->op));
  Loc r = here && same_type(dest->t, at) ? *dest : temp(at);
  Loc n;
  bool keyed = false;
  for (auto& in : e->inits) keyed |= in.star || !in.keys.empty();
  if (e->a) {
    n = gen_to(e->a.get(), t_int_);
  } else {
    // The size is one past the largest index given (the language's rule).
    std::int64_t next = 0, top = 0;
    for (auto& in : e->inits) {
      if (in.star) fail(e->pos, "array with a `*` initializer needs a size");
      if (in.keys.empty()) ++next;
      for (std::size_t k = 0; k < in.keys.size(); ++k) {
        auto hi = const_eval((in.highs[k] ? in.highs[k] : in.keys[k]).get());
        if (!hi || hi->k != TK::Int || hi->i < 0 || hi->i >= (1 << 30))
          fail(in.keys[k]->pos, "array index must be a non-negative int constant");
        next = hi->i + 1;
      }
      top = std::max(top, next);
    }
    n = Loc{word_const(keyed ? top : static_cast<std::int64_t>(e->inits.size())), t_int_};
  }
  emit(Op::newa_, n.op, Middle{MidMode::Imm, desc_for_type(et)}, r.op);
  Op ind = index_op(et);
  Loc addr = temp(t_int_);
  auto store = [&](const Operand& idx, const Expr* val) {
    emit(ind, r.op, Middle{MidMode::Fp, addr.op.a}, idx);
    Loc el{Operand{AddrMode::IndFp, addr.op.a, 0}, et};
    gen_to(val, et, &el);
  };
  // `*` first (fills every element, from the last down, as Inferno's
  // compiler does), then keyed and positional values.
  for (auto& in : e->inits) {
    if (!in.star) continue;
    Loc i = temp(t_int_);
    emit(Op::lena_, r.op, i.op);
    std::int32_t top = new_label(), end = new_label();
    place(top);
    jump(Op::beqw_, imm(0), Middle{MidMode::Fp, i.op.a}, end);
    emit(Op::subw_, imm(1), Middle{}, i.op);
    store(i.op, in.value.get());
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
  return deliver(r, dest);
}

}  // namespace dis::limbo
