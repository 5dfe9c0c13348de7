// The compiler's temporaries: allocated by layout, freed once used (a
// pointer one set to nil first, as Inferno's compiler does), released at the
// end of a statement; and what a destination may be written in place.
#include <algorithm>

#include "compiler_impl.h"

namespace dis::limbo {

// Temporaries of one key have one layout: size, alignment, pointer map.
std::string Compiler::temp_key(Type* t) {
  std::vector<std::int32_t> ptrs;
  pointer_offsets(t, 0, ptrs);
  auto map = make_map(ptrs);
  return std::to_string(type_size(t)) + "/" + std::to_string(type_align(t)) + ":" +
         std::string(map.begin(), map.end());
}

// The busy temporary l is read through (`0(t)`, `8(t)`) when a value of
// type t fits in it: a result computed from l may go there
// (`cvtbw 0(t),t`), as Inferno's compiler allocates it.
std::optional<Loc> Compiler::reusable_base(const Loc& l, Type* t) {
  if (l.op.mode != AddrMode::IndFp) return std::nullopt;
  TempSlot* ts = busy_temp(l.op.a);
  if (!ts || ts->pinned || ts->key != temp_key(t)) return std::nullopt;
  return Loc{fp(ts->off), t};
}

Loc Compiler::temp(Type* t) {
  std::string key = temp_key(t);
  for (auto& ts : temps_)
    if (!ts.busy && ts.key == key) {
      ts.busy = true;
      return Loc{fp(ts.off), t};
    }
  std::int32_t off = frame_alloc(t);
  temps_.push_back(TempSlot{key, off, true, is_pointer(t)});
  return Loc{fp(off), t};
}

// A word constant too wide for the middle operand's 16 bits goes through the
// frame header's scratch word 24(fp) (`movw $16777215,24(fp); andw
// x,24(fp),y`), as Inferno's compiler passes it; the instruction using it
// follows at once.
constexpr std::int32_t kScratchWord = 24;

Middle Compiler::as_mid(const Loc& l, bool consume) {
  if (l.op.mode == AddrMode::Imm && !fits_middle(l.op) && l.t &&
      (l.t->k == TK::Int || l.t->k == TK::Byte)) {
    emit(Op::movw_, l.op, fp(kScratchWord));
    return Middle{MidMode::Fp, kScratchWord};
  }
  if (fits_middle(l.op))
    return Middle{l.op.mode == AddrMode::Imm  ? MidMode::Imm
                  : l.op.mode == AddrMode::Fp ? MidMode::Fp
                                              : MidMode::Mp,
                  l.op.a};
  return Middle{MidMode::Fp, load_temp(l, consume).op.a};
}

Operand Compiler::direct(const Loc& l, bool consume) {
  if (l.op.mode == AddrMode::Fp || l.op.mode == AddrMode::Mp) return l.op;
  return load_temp(l, consume).op;
}

// A field of a frame variable's object read where it is (`headp 4(32(fp)),t`,
// `recv 0(32(fp)),t`), as Inferno's compiler reads it; anything else as
// direct(l, true) gives it.
Operand Compiler::field_or_direct(const Loc& l) {
  if (l.op.mode == AddrMode::IndFp && !busy_temp(l.op.a)) return l.op;
  // An element through the address an ind instruction left (`headp
  // 0(t),r` for `hd a[0]`), as Inferno's compiler reads it.
  if (l.op.mode == AddrMode::IndFp && !busy_temp(l.op.a)->pointer) return l.op;
  return direct(l, true);
}

// l copied into a temporary. When l is not used again (consume), a pointer
// read through a pointer temporary goes into that temporary itself
// (`movp 16(t),t`) and any other temporary l was read through is free once
// read, as Inferno's compiler allocates them.
Loc Compiler::load_temp(const Loc& l, bool consume) {
  TempSlot* base = consume && l.op.mode == AddrMode::IndFp ? busy_temp(l.op.a) : nullptr;
  if (base && !base->pinned && base->pointer && is_pointer(l.t) && type_size(l.t) == 4) {
    Loc t{fp(base->off), l.t};
    move(l, t);
    return t;
  }
  Loc t = temp(l.t);
  move(l, t);
  if (consume) free_temp(l, &t.op);
  return t;
}

// Whether e is a variable at l (`s = s[i:]` slices s where it is).
bool Compiler::names(const Expr* e, const Loc& l) {
  if (e->kind != Expr::Ident) return false;
  Sym* s = lookup(e->op);
  return s && s->kind == Sym::Var && s->loc == l.op;
}

// Whether o is an argument slot of a frame being filled.
bool Compiler::is_arg_slot(const Operand& o) const {
  return o.mode == AddrMode::IndFp &&
         std::find(open_frames_.begin(), open_frames_.end(), o.a) != open_frames_.end();
}

// The busy temporary at frame offset off, if there is one.
Compiler::TempSlot* Compiler::busy_temp(std::int32_t off) {
  for (auto& ts : temps_)
    if (ts.busy && ts.off == off) return &ts;
  return nullptr;
}

// A temporary whose value has been used is free at once, a pointer one set
// to nil first, as Inferno's compiler frees an operand's temporary once the
// instruction using it is emitted. A value addressed through a temporary
// (a field of a call's result) frees that temporary. keep: the result, when
// it took an operand's place.
void Compiler::free_temp(const Loc& l, const Operand* keep) {
  if (keep && l.op == *keep) return;
  std::int32_t off;
  if (l.op.mode == AddrMode::Fp)
    off = l.op.a;
  else if (l.op.mode == AddrMode::IndFp)
    off = l.op.a;
  else
    return;
  if (keep && (keep->mode == AddrMode::IndFp || keep->mode == AddrMode::Fp) && keep->a == off)
    return;
  TempSlot* ts = busy_temp(off);
  if (!ts || ts->pinned) return;
  if (ts->pointer) emit(Op::movp_, imm(-1), fp(ts->off));
  ts->busy = false;
}

// A value made in r, given to dest when there is one: a temporary r is
// done with once moved, and a pointer one is reset to nil at once, as
// Inferno's compiler resets it (not at the end of the statement).
Loc Compiler::deliver(const Loc& r, const Loc* dest) {
  if (!dest || dest->op == r.op) return r;
  move(r, *dest);
  free_temp(r, &dest->op);
  return *dest;
}

// Whether a jump, a case table or an exception handler made so far goes to
// pc `at`.
bool Compiler::jumped_to(std::int32_t at) const {
  if (std::find(arm_entries_.begin(), arm_entries_.end(), at) != arm_entries_.end()) return true;
  auto to = [&](std::int32_t label) { return label_pc_[static_cast<std::size_t>(label)] == at; };
  for (const JumpFix& jf : jump_fixes_)
    if (to(jf.label)) return true;
  for (const TableFix& tf : table_fixes_)
    if (to(tf.label)) return true;
  return false;
}

// Whether the next instruction can be reached only by a jump: the last one
// emitted does not fall through and no label names this pc.
bool Compiler::unreachable() const {
  if (m_.code.empty() || (fn_ && fn_->pc == pc())) return false;
  return !falls_through() && !jumped_to(pc());
}

// The temporaries are free again. Those holding a pointer are set to nil
// first, as Inferno's compiler does, so what they pointed to is freed when
// the program no longer uses it, not when the frame is next reused.
// (Inferno's compiler leaves larger temporaries, tuples and adts, as they are.)
void Compiler::release_temps() {
  const bool dead = unreachable();
  for (auto& ts : temps_) {
    if (ts.busy && ts.pointer && !dead) emit(Op::movp_, imm(-1), fp(ts.off));
    ts.busy = false;
    ts.pinned = false;
  }
}

// Whether l is a busy temporary of type t's layout that a result may take.
bool Compiler::reusable_temp(const Loc& l, Type* t) {
  if (l.op.mode != AddrMode::Fp || !busy_temp(l.op.a)) return false;
  return type_size(l.t) == type_size(t) && is_pointer(l.t) == is_pointer(t) &&
         !has_pointers(l.t) == !has_pointers(t);
}

// A field read out of an adt or tuple made in a temporary (`(hd l).x`,
// `f().x`): the temporary's pointers are reset once it is read, as
// Inferno's compiler frees it. (A member at its start was freed with the
// operand already: Inferno's compiler leaves the rest.)
void Compiler::nil_made_adt(const Expr* made, const Loc& field) {
  const bool computed = made->kind == Expr::Call || (made->kind == Expr::Unary && made->op == "hd");
  if (!computed || field.op.mode != AddrMode::Fp) return;
  Type* t = type_of(made);
  if (t->k != TK::Adt && t->k != TK::Tuple) return;
  const TempSlot* in = nullptr;
  for (const auto& ts : temps_)
    if (ts.busy && ts.off <= field.op.a && field.op.a < ts.off + type_size(t) &&
        (!in || ts.off > in->off))
      in = &ts;
  if (in && !in->pinned) nil_tuple_temp(Loc{fp(in->off), t});
}

}  // namespace dis::limbo
