// Receiving from an array of channels (limbo.txt 8.2.9: `<-a` on an array
// of channels receives from any of them that is ready and gives the tuple
// (index, value)). As in Inferno, the array itself is the channel of an alt
// entry: the VM stores the ready element's index in the entry's first word
// and the value in the word after it (Inferno's alt.c), which is the
// tuple's layout when the value is one word aligned.
#include "compiler_impl.h"

namespace dis::limbo {

Type* Compiler::received_type(Type* chan, const Pos& pos) {
  if (chan->k == TK::Chan) return chan->elem;
  if (chan->k != TK::Array || chan->elem->k != TK::Chan)
    fail(pos, "<- needs a channel or an array of channels, not " + type_name(chan));
  Type* elem = chan->elem->elem;
  // The VM stores the value 4 bytes after the index, as Inferno's does; a
  // big or real (or a tuple starting with one) sits at 8 in the tuple.
  if (type_align(elem) > 4)
    unsupported(pos, "receiving " + type_name(elem) + " from an array of channels is");
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
  emit(Op::lea_, into.op, fp(base + 12));
  emit(Op::movw_, imm(0), fp(base));
  emit(Op::movw_, imm(1), fp(base + 4));
  Loc idx = temp(t_int_);
  emit(Op::alt_, fp(base), idx.op);
}

}  // namespace dis::limbo
