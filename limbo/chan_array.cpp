// Receiving from an array of channels (limbo.txt 8.2.9: `<-a` on an array
// of channels receives from any of them that is ready and gives the tuple
// (index, value)). As in Inferno, the array itself is the channel of an alt
// entry: the VM stores the ready element's index in the entry's first word
// and the value in the word after it (Inferno's alt.c), which is the
// tuple's layout when the value is one word aligned. A value aligned to 8
// (big, real, a tuple or adt starting with one) sits at 8 in the tuple: the
// entry then names the tuple's padding word at 4, so the value lands in its
// place, and the index is copied down to 0 once received (wide_recv_fixup).
#include "compiler_impl.h"

namespace dis::limbo {

Type* Compiler::received_type(Type* chan, const Pos& pos) {
  if (chan->k == TK::Chan) return chan->elem;
  if (chan->k != TK::Array || chan->elem->k != TK::Chan)
    fail(pos, "<- needs a channel or an array of channels, not " + type_name(chan));
  Type* elem = chan->elem->elem;
  Type* t = mk(TK::Tuple);
  t->elems = {t_int_, elem};
  return t;
}

// `<-a` outside an alt: an alt of the one receive entry, blocking, written
// in the order Inferno's recvacom writes it (entry, then the counts).
void Compiler::gen_array_recv(const Loc& chans, const Loc& into) {
  Type* tab = mk(TK::Tuple);
  tab->elems = {t_int_, t_int_, t_int_, t_int_};
  std::int32_t base = frame_alloc(tab);
  emit(Op::movw_, direct(chans), fp(base + 8));
  emit(Op::lea_, array_recv_entry(chans.t, into.op), fp(base + 12));
  emit(Op::movw_, imm(0), fp(base));
  emit(Op::movw_, imm(1), fp(base + 4));
  Loc idx = temp(t_int_);
  emit(Op::alt_, fp(base), idx.op);
  wide_recv_fixup(chans.t, into.op);
}

namespace {
bool wide_elem(const Type* chans) {
  return chans->k == TK::Array && chans->elem->k == TK::Chan && type_align(chans->elem->elem) > 4;
}

Operand shifted(Operand o, std::int32_t by) {
  (is_ind(o) ? o.b : o.a) += by;
  return o;
}
}  // namespace

Operand Compiler::array_recv_entry(const Type* chans, const Operand& into) {
  return wide_elem(chans) ? shifted(into, 4) : into;
}

void Compiler::wide_recv_fixup(const Type* chans, const Operand& into) {
  if (wide_elem(chans)) emit(Op::movw_, shifted(into, 4), into);
}

}  // namespace dis::limbo
