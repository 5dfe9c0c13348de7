// Unary operators: ref, tagof, ++ and -- before an operand, negation and
// complement, dereference, receive, hd, tl and len; casts.
#include <algorithm>

#include "compiler_impl.h"

namespace dis::limbo {

Loc Compiler::gen_unary(const Expr* e, const Loc* dest) {
  const std::string& op = e->op;
  if (op == "!") return materialize_bool(e, dest);
  if (op == "ref") return gen_ref(e, dest);
  if (op == "tagof") return gen_tagof(e, dest);
  if (op == "++" || op == "--") return gen_pre_step(e, dest);
  if (auto got = received_.find(e); got != received_.end()) {  // received by an alt
    if (dest) move(got->second, *dest);
    return dest ? *dest : got->second;
  }
  Loc v = gen(e->a.get());
  Type* t = v.t;
  if (op == "+") return v;
  if (op == "-" || op == "~") return gen_negate(e, v, dest);
  if (op == "*") {
    if (t->k != TK::Ref) fail(e->pos, "* needs a ref, not " + type_name(t));
    Operand p = direct(v, true);
    Loc l{Operand{p.mode == AddrMode::Mp ? AddrMode::IndMp : AddrMode::IndFp, p.a, 0}, t->elem};
    if (l.t->k == TK::Pick) l.t = l.t->adt->type;
    if (dest) move(l, *dest);
    return dest ? *dest : l;
  }
  if (op == "<-") {
    Type* rt = received_type(t, e->pos);
    Loc r = dest && same_type(dest->t, rt) ? *dest : temp(rt);
    if (t->k == TK::Array)
      gen_array_recv(v, r);
    else
      emit(Op::recv_, field_or_direct(v), r.op);
    return r;
  }
  if (op == "hd") return gen_head(e, v, dest);
  if (op == "tl") {
    if (t->k != TK::List) fail(e->pos, "tl needs a list, not " + type_name(t));
    Loc src{field_or_direct(v), t};
    Loc r = !dest && reusable_temp(src, t) ? src : result_loc(t, dest);
    emit(Op::tail_, src.op, r.op);
    free_temp(src, &r.op);
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
    free_temp(v, &r.op);
    return r;
  }
  fail(e->pos, "unknown operator " + op);
}

// `ref Adt(...)` and `ref Adt.Tag(...)`: the object's type, else null.
Type* Compiler::ref_call_type(const Expr* callee) {
  Type* ct = nullptr;
  std::vector<Type*> targs;
  callee = inst_base(callee, &targs);
  if (callee->kind == Expr::Ident) {
    Sym* s = lookup(callee->op);
    if (s && (s->kind == Sym::AdtName || (s->kind == Sym::Imported && s->adt)))
      ct = instance(s->adt->type, targs, callee->pos);
    else if (s && s->kind == Sym::TypeAlias && s->type->k == TK::Adt && targs.empty())
      ct = s->type;  // `Strs: type Tab[string]`
  } else if (callee->kind == Expr::Field && callee->a->kind == Expr::Ident) {
    Sym* s = lookup(callee->a->op);
    AdtInfo* ad =
        s && (s->kind == Sym::AdtName || (s->kind == Sym::Imported && s->adt)) ? s->adt : nullptr;
    if (ad && ad->is_pick) {
      auto f = std::find(ad->tags.begin(), ad->tags.end(), callee->op);
      if (f != ad->tags.end()) {
        ct = mk(TK::Pick);
        ct->adt = ad;
        ct->tag = static_cast<int>(f - ad->tags.begin());
      }
    }
  }
  return ct;
}

// `ref`: a new object made from values, an empty one, or a copy of an adt
// value.
Loc Compiler::gen_ref(const Expr* e, const Loc* dest) {
  const Expr* a = e->a.get();
  if (a->kind == Expr::Call)
    if (Type* ct = ref_call_type(a->a.get())) return gen_ref_values(a, ct, dest);
  if (Type* named = adt_type_named(a)) return gen_ref_empty(named, dest);
  Loc v = gen(a);
  if (v.t->k != TK::Adt) fail(e->pos, "ref needs an adt value, not " + type_name(v.t));
  Type* rt = mk(TK::Ref, v.t);
  Loc r = temp(rt);
  emit(Op::new_, imm(adt_desc(*v.t->adt, -1)), r.op);
  move(v, Loc{Operand{AddrMode::IndFp, r.op.a, 0}, v.t});
  return deliver(r, dest);
}

// `ref Adt(v, ...)` (the call `a`), the object of type ct.
Loc Compiler::gen_ref_values(const Expr* a, Type* ct, const Loc* dest) {
  Type* rt = mk(TK::Ref, ct);
  Loc r = temp(rt);  // not into dest: the values may read it
  AdtInfo& ad = *ct->adt;
  layout_adt(ad);
  int variant = ct->k == TK::Pick ? ad.tag_variant[ct->tag] : -1;
  emit(Op::new_, imm(adt_desc(ad, variant)), r.op);
  std::vector<Field> fields = ad.fields;
  if (variant >= 0) {
    for (auto& f : ad.variants[variant].fields) fields.push_back(f);
  }
  for (auto& f : fields) f.type = member_type(ct, f.type);
  if (variant >= 0) {
    emit(Op::movw_, imm(ct->tag), Operand{AddrMode::IndFp, r.op.a, 0});
  }
  if (variant < 0 && whole_value(ct, a->args)) {  // `ref Adt(v)` of an Adt v: a copy
    Loc fd{Operand{r.op.mode == AddrMode::Mp ? AddrMode::IndMp : AddrMode::IndFp, r.op.a, 0}, ct};
    move(gen_to(a->args[0].get(), ct), fd);
    fields.clear();
  } else if (a->args.size() != fields.size())
    fail(a->pos, "wrong number of values for " + type_name(ct) + ": " +
                     std::to_string(a->args.size()) + " given, " + std::to_string(fields.size()) +
                     " expected");
  for (std::size_t i = 0; i < fields.size(); ++i) {
    // A nil value is stored too, though `new` set every pointer to H
    // already (DIS-FACTS), as Inferno's compiler writes it: bintrees 15,
    // whose leaves are ref Tree(nil, nil), ran no slower (perf/LOG.md).
    Loc fd{Operand{AddrMode::IndFp, r.op.a, fields[i].offset}, fields[i].type};
    if (r.op.mode == AddrMode::Mp) fd.op.mode = AddrMode::IndMp;
    // Computed straight into the field (a call's result too: the new
    // object is held by r alone), as Inferno's compiler does.
    Pushed held(new_objects_, r.op.a);
    gen_to(a->args[i].get(), fields[i].type, &fd);
  }
  // `ref Adt.Tag(...)` is a value of the pick adt as a whole.
  r.t = mk(TK::Ref, variant >= 0 ? instance(ad.type, ct->targs, a->pos) : ct);
  return deliver(r, dest);
}

Loc Compiler::gen_ref_empty(Type* named, const Loc* dest) {
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

Loc Compiler::gen_tagof(const Expr* e, const Loc* dest) {
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
  Loc tag{Operand{p.mode == AddrMode::Mp ? AddrMode::IndMp : AddrMode::IndFp, p.a, 0}, t_int_};
  // The tag of a variable's object is read where it is (`beqw 0(m),$0`), as
  // Inferno's compiler reads it.
  if (!dest && !(p.mode == AddrMode::Fp && busy_temp(p.a))) return tag;
  Loc r = result_loc(t_int_, dest);
  emit(Op::movw_, tag.op, r.op);
  return r;
}

// `x++` and `x--`: the old value.
Loc Compiler::gen_post_step(const Expr* e, const Loc* dest) {
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
  Operand one = l.t->k == TK::Big ? big_const(1) : l.t->k == TK::Real ? real_const(1.0) : imm(1);
  emit(op, one, Middle{}, l.op);
  return old;
}

// `++x` and `--x`.
Loc Compiler::gen_pre_step(const Expr* e, const Loc* dest) {
  const std::string& op = e->op;
  if (auto r = gen_str_step(e, dest)) return *r;
  Loc l = lvalue(e->a.get());
  if (l.t->k == TK::Fixed) fail(e->pos, "++/-- needs an arithmetic operand, not " + type_name(l.t));
  Op aop = arith_op(op == "++" ? "+" : "-", l.t->k);
  Operand one = l.t->k == TK::Big ? big_const(1) : l.t->k == TK::Real ? real_const(1.0) : imm(1);
  emit(aop, one, Middle{}, l.op);
  // Its value is a copy (`subw $1,i; movw i,t`), as Inferno's compiler
  // reads it, not the variable itself.
  Loc r = dest ? *dest : temp(l.t);
  move(l, r);
  return r;
}

// `-v` and `~v`.
Loc Compiler::gen_negate(const Expr* e, const Loc& v, const Loc* dest) {
  Type* t = v.t;
  if (e->op == "-") {
    Loc r = result_loc(t, dest);
    if (t->k == TK::Real)
      emit(Op::negf_, v.op, r.op);
    else if (t->k == TK::Int || t->k == TK::Fixed)
      emit(Op::subw_, v.op, Middle{MidMode::Imm, 0}, r.op);
    else if (t->k == TK::Big)
      emit(Op::subl_, v.op, as_mid(Loc{big_const(0), t_big_}), r.op);
    else if (t->k == TK::Byte)
      emit(Op::subb_, v.op, as_mid(Loc{imm(0), t_byte_}), r.op);
    else
      fail(e->pos, "unary - on " + type_name(t));
    return r;
  }
  Loc r = result_loc(t, dest);
  // An operand that cannot be the middle one is the source, -1 the middle
  // (`xorw 0(t),$-1,r`), as Inferno's compiler writes it.
  if ((t->k == TK::Int || t->k == TK::Byte) && !fits_middle(v.op)) {
    emit(t->k == TK::Int ? Op::xorw_ : Op::xorb_, v.op,
         as_mid(Loc{imm(t->k == TK::Int ? -1 : 0xff), t}), r.op);
    free_temp(v, &r.op);
    return r;
  }
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

Loc Compiler::gen_head(const Expr* e, const Loc& v, const Loc* dest) {
  Type* t = v.t;
  if (t->k != TK::List) fail(e->pos, "hd needs a list, not " + type_name(t));
  Type* et = t->elem;
  // The head goes into the list's temporary when it fits there, as
  // Inferno's compiler allocates it (`headp t,t`).
  Operand s = field_or_direct(v);
  Loc r = !dest && reusable_temp(Loc{s, t}, et) ? Loc{s, et} : result_loc(et, dest);
  switch (et->k) {
    case TK::Int:
    case TK::Fixed:
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
  free_temp(Loc{s, t}, &r.op);
  return r;
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
  if (e->a->kind == Expr::Nil && is_pointer(to)) {  // `array of byte nil`: a typed nil
    Loc n = gen_nil(dest);
    return Loc{n.op, to};
  }
  // A conversion to the operand's own type computes it where it goes
  // (`d.addr = int l32(a[2:10])` ors into the field), as Inferno's does.
  if (dest && same_type(to, type_of(e->a.get()))) return deliver(gen(e->a.get(), dest), dest);
  Loc v = gen(e->a.get());
  Type* from = v.t;
  if (same_type(to, from)) return deliver(v, dest);
  if (from->k == TK::Fixed || to->k == TK::Fixed) return gen_fixed_convert(v, to, e->pos, dest);
  // Without a destination the result takes the operand's temporary.
  Loc r = !dest && reusable_temp(v, to) ? Loc{v.op, to} : Loc{};
  if (r.t == nullptr) r = !dest ? reusable_base(v, to).value_or(Loc{}) : Loc{};
  if (r.t == nullptr) r = result_loc(to, dest);
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
  free_temp(v, &r.op);
  return r;
}

}  // namespace dis::limbo
