#include "decode.h"

#include <bit>
#include <boost/container/static_vector.hpp>
#include <string_view>

#include "dis_string.h"
#include "runtime.h"

namespace dis::vm {
namespace {

DOpnd imm(Program& p, std::int64_t v) {
  DOpnd o;
  o.base = kConst;
  o.a = static_cast<std::int32_t>(p.consts.size() * 8);
  o.b = static_cast<std::int32_t>(v);  // for the shaped handlers
  p.consts.push_back(v);
  return o;
}

DOpnd operand(Program& p, const Operand& x) {
  DOpnd o;
  switch (x.mode) {
    case AddrMode::Mp:
      o.base = kMp, o.a = x.a;
      break;
    case AddrMode::Fp:
      o.base = kFp, o.a = x.a;
      break;
    case AddrMode::Imm:
      return imm(p, x.a);
    case AddrMode::IndMp:
      o.base = kMp, o.ind = 1, o.a = x.a, o.b = x.b;
      break;
    case AddrMode::IndFp:
      o.base = kFp, o.ind = 1, o.a = x.a, o.b = x.b;
      break;
    case AddrMode::None:
      return imm(p, 0);
  }
  return o;
}

// An operand's letter in DIS_SHAPED_HANDLERS.
char shape_letter(const DOpnd& o) {
  if (o.ind) return o.base == kFp ? 'X' : '?';
  return o.base == kFp ? 'F' : o.base == kConst ? 'I' : '?';
}

struct Shaped {
  Op op;
  const char* shape;
  unsigned h;
};
constexpr Shaped kShaped[] = {
#define DIS_SHAPED(op, shape) {Op::op##_, #shape, kH_##op##_##shape},
    DIS_SHAPED_HANDLERS(DIS_SHAPED)
#undef DIS_SHAPED
};

// The handler of a decoded instruction: a shaped or special one where it
// applies, else the opcode's direct or general handler.
std::uint16_t choose_handler(const Instruction& in, DInst& d) {
  if ((in.op == Op::modw_ || in.op == Op::divw_) && in.src.mode == AddrMode::Imm && in.src.a > 0 &&
      in.src.a <= (1 << 30) && (in.src.a & (in.src.a - 1)) == 0) {
    d.aux = in.op == Op::modw_ ? in.src.a : std::countr_zero(static_cast<std::uint32_t>(in.src.a));
    const bool ff = shape_letter(d.m) == 'F' && shape_letter(d.d) == 'F';
    if (in.op == Op::modw_) return static_cast<std::uint16_t>(ff ? kH_modw_pow2_FF : kH_modw_pow2);
    return static_cast<std::uint16_t>(ff ? kH_divw_pow2_FF : kH_divw_pow2);
  }
  const char shape[4] = {shape_letter(d.s), shape_letter(d.m), shape_letter(d.d), 0};
  for (const Shaped& x : kShaped)
    if (x.op == in.op && std::string_view(x.shape) == shape) return static_cast<std::uint16_t>(x.h);
  return static_cast<std::uint16_t>(static_cast<unsigned>(in.op) +
                                    (d.s.ind || d.m.ind || d.d.ind ? 0 : kDirect));
}

// Fused pairs: when an instruction with handler `first` is followed by one
// with handler `second`, the first gets `fused` (its body, then a direct jump
// to the second's handler). Only the first changes: a branch to the second
// still runs it alone, and every pc keeps its own instruction.
struct FusedPair {
  unsigned first, second, fused;
  // The second's destination (or source) is b(a(fp)) with a = the first's
  // middle operand's frame slot: the fused handler uses what it stored.
  bool same_slot = false;
};
constexpr unsigned kDirectOf(Op op) { return static_cast<unsigned>(op) + kDirect; }
constexpr FusedPair kFusedPairs[] = {
    {kH_lea_FIX, kH_call_FII, kH_lea_FIX_call},
    {kH_indw_FFF, kH_movw_IIX, kH_indw_FFF_movw, true},
    {kH_indw_FFF, kH_beqw_XII, kH_indw_FFF_beqw, true},
    {kH_indw_FFF, kH_bnew_XII, kH_indw_FFF_bnew, true},
    {kH_indb_FFF, kH_movb_IIX, kH_indb_FFF_movb, true},
    {kH_indb_FFF, kH_beqb_XII, kH_indb_FFF_beqb, true},
    {kH_indb_FFF, kH_bneb_XII, kH_indb_FFF_bneb, true},
    {kH_addw_IFF, kDirectOf(Op::jmp_), kH_addw_IFF_jmp},
    {kH_addw_FFF, kDirectOf(Op::jmp_), kH_addw_FFF_jmp},
};

// The array fill and scan loops (decode.h), word and byte: the indexing
// pair each is made from (and runs when its loop stops short) and the
// loop's own handler.
struct ArrayLoop {
  unsigned pair, loop;
};
constexpr ArrayLoop kArrayFills[] = {
    {kH_indw_FFF_movw, kH_indw_FFF_movw_loop},
    {kH_indb_FFF_movb, kH_indb_FFF_movb_loop},
};
constexpr ArrayLoop kArrayScans[] = {
    {kH_indw_FFF_beqw, kH_indw_FFF_beqw_scan},
    {kH_indw_FFF_bnew, kH_indw_FFF_bnew_scan},
    {kH_indb_FFF_beqb, kH_indb_FFF_beqb_scan},
    {kH_indb_FFF_bneb, kH_indb_FFF_bneb_scan},
};
// The loop made from pair `h` (0: none); with `as_loop`, h's own entry
// when h is already such a loop.
template <std::size_t N>
unsigned array_loop(const ArrayLoop (&loops)[N], unsigned h, bool as_loop = false) {
  for (const ArrayLoop& l : loops)
    if ((as_loop ? l.loop : l.pair) == h) return l.loop;
  return 0;
}

// The loop-back triples: addw then jmp (already fused) whose target is a
// compare of two frame words, the first the addw's destination.
struct LoopBack {
  unsigned pair, compare, fused;
};
constexpr LoopBack kLoopBacks[] = {
#define DIS_LOOP_BACK(add, cmp) {kH_addw_##add##_jmp, kH_##cmp##_FFI, kH_addw_##add##_jmp_##cmp},
#define DIS_LOOP_BACKS(add) \
  DIS_LOOP_BACK(add, bgtw)  \
  DIS_LOOP_BACK(add, bgew) DIS_LOOP_BACK(add, bltw) DIS_LOOP_BACK(add, blew)
    DIS_LOOP_BACKS(IFF) DIS_LOOP_BACKS(FFF)
#undef DIS_LOOP_BACKS
#undef DIS_LOOP_BACK
};

// A jump to one of these compares runs it fused (decode.h DIS_JMP_COMPARES).
struct JmpCompare {
  unsigned compare, fused;
};
constexpr JmpCompare kJmpCompares[] = {
#define DIS_JMP_COMPARE(op, cmp) {kH_##cmp, kH_##op##_##cmp},
    DIS_JMP_COMPARES(DIS_JMP_COMPARE)
#undef DIS_JMP_COMPARE
};

bool is_jmp_compare(unsigned h) {
  for (const JmpCompare& j : kJmpCompares)
    if (h == j.fused) return true;
  return false;
}

// The slot b(a(fp)) of a pair's second instruction goes through: a
// store's destination, a compare's source.
bool same_slot(const DInst& first, const DInst& second) {
  const bool store = second.op == Op::movw_ || second.op == Op::movb_;
  const DOpnd& x = store ? second.d : second.s;
  return x.base == kFp && x.ind && first.m.base == kFp && !first.m.ind && x.a == first.m.a;
}

// The test of a loop-back triple's compare, as indw_FFF_movw_loop runs it.
LoopTest loop_test(Op compare) {
  switch (compare) {
    case Op::bgtw_:
      return kLoopGt;
    case Op::bgew_:
      return kLoopGe;
    case Op::bltw_:
      return kLoopLt;
    default:
      return kLoopLe;
  }
}

// Whether a loop of an indw (at `indw`), an increment `add` and a test
// `test` writes none of the words it reads but the index, which is the
// indw's index and the increment's both operands: the two frame words it
// writes, the element pointer and the index, overlap neither each other
// nor the array, the limit or the step. Elements are heap memory, never
// frame words.
bool loop_disjoint(const DInst& indw, const DInst& add, const DInst& test) {
  const std::int32_t index = add.d.a;
  if (indw.d.a != index || add.m.a != index) return false;
  auto overlap = [](std::int32_t x, std::int32_t y) { return x < y + 4 && y < x + 4; };
  boost::container::static_vector<std::int32_t, 3> read = {indw.s.a, test.m.a};
  if (add.s.base == kFp) read.push_back(add.s.a);
  for (std::int32_t r : read)
    if (overlap(indw.m.a, r) || overlap(index, r)) return false;
  return !overlap(indw.m.a, index);
}

// The fill loop at pc: also its store goes to the element itself (no
// offset).
bool fill_disjoint(const std::vector<DInst>& code, std::size_t pc) {
  return code[pc + 1].d.b == 0 &&
         loop_disjoint(code[pc], code[pc + 2], code[static_cast<std::size_t>(code[pc + 3].aux)]);
}

// The scan loop at pc: an indw/beqw pair whose branch goes to a loop-back
// triple leading to the test just before the pair.
bool scan_disjoint(const std::vector<DInst>& code, std::size_t pc) {
  return loop_disjoint(code[pc], code[static_cast<std::size_t>(code[pc + 1].aux)], code[pc - 1]);
}

void fuse_pairs(std::vector<DInst>& code) {
  for (std::size_t pc = 0; pc + 1 < code.size(); ++pc)
    for (const FusedPair& f : kFusedPairs)
      if (code[pc].h == f.first && code[pc + 1].h == f.second &&
          (!f.same_slot || same_slot(code[pc], code[pc + 1]))) {
        code[pc].h = static_cast<std::uint16_t>(f.fused);
        break;
      }
  // Compares are never the first of a pair: a target's handler is final.
  for (std::size_t pc = 0; pc + 1 < code.size(); ++pc)
    for (const LoopBack& l : kLoopBacks)
      if (code[pc].h == l.pair && code[code[pc + 1].aux].h == l.compare &&
          code[code[pc + 1].aux].s.a == code[pc].d.a) {
        code[pc].h = static_cast<std::uint16_t>(l.fused);
        break;
      }
  // An array fill: an indw/movw (or indb/movb) pair, then a loop-back triple whose test
  // (the instruction before the pair) continues into the pair.
  for (std::size_t pc = 0; pc + 3 < code.size(); ++pc) {
    const unsigned fill = array_loop(kArrayFills, code[pc].h);
    if (fill == 0) continue;
    const auto test = static_cast<std::size_t>(code[pc + 3].aux);
    for (const LoopBack& l : kLoopBacks)
      if (code[pc + 2].h == l.fused && test + 1 == pc) {
        code[pc].h = static_cast<std::uint16_t>(fill);
        code[pc].aux = loop_test(code[test].op) | (fill_disjoint(code, pc) ? kLoopDisjoint : 0);
        break;
      }
  }
  // An array scan: an indw/beqw pair (or bnew, beqb, bneb) just after a
  // loop's test, the branch (element equal: go on) to a loop-back triple whose jump leads to that
  // test. Only the disjoint form: its loop keeps everything in registers.
  for (std::size_t pc = 1; pc + 1 < code.size(); ++pc) {
    const unsigned scan = array_loop(kArrayScans, code[pc].h);
    if (scan == 0) continue;
    const auto next = static_cast<std::size_t>(code[pc + 1].aux);
    if (next + 1 >= code.size()) continue;
    for (const LoopBack& l : kLoopBacks)
      if (code[next].h == l.fused && static_cast<std::size_t>(code[next + 1].aux) + 1 == pc &&
          scan_disjoint(code, pc)) {
        code[pc].h = static_cast<std::uint16_t>(scan);
        code[pc].aux = loop_test(code[pc - 1].op);
        break;
      }
  }
  // Last, so the pairs above still see a plain jmp after their addw (a
  // jump one of them runs is dispatched only when it declined; the counts
  // stay exact because followers are derived from each handler's own
  // dispatches).
  for (DInst& in : code) {
    if (in.h != kDirectOf(Op::jmp_)) continue;
    const unsigned target = code[static_cast<std::size_t>(in.aux)].h;
    for (const JmpCompare& j : kJmpCompares)
      if (target == j.compare) {
        in.h = static_cast<std::uint16_t>(j.fused);
        break;
      }
  }
}

}  // namespace

void decode(Program& p, Heap& heap) {
  const Module& m = p.mod;
  p.types.clear();
  for (std::size_t i = 0; i < m.types.size(); ++i)
    p.types.push_back(
        heap.add_type(m.types[i].size, m.types[i].map, m.name + ".t" + std::to_string(i)));
  p.consts.reserve(m.code.size() * 2 + 1);
  std::vector<std::pair<std::size_t, std::int32_t>> lea_consts;
  p.code.resize(m.code.size());
  for (std::size_t pc = 0; pc < m.code.size(); ++pc) {
    const Instruction& in = m.code[pc];
    DInst& d = p.code[pc];
    const OpInfo& info = op_info(in.op);
    d.op = in.op;
    d.s = operand(p, in.src);
    d.d = operand(p, in.dst);
    switch (in.mid.mode) {
      case MidMode::None:
        // An absent optional word (channel buffer size) is 0; an absent
        // middle of another kind is the destination (d = d OP s).
        d.m = info.mid != OperandKind::N && info.mid != OperandKind::O ? d.d : imm(p, 0);
        break;
      case MidMode::Imm:
        d.m = imm(p, in.mid.a);
        break;
      case MidMode::Fp:
        d.m.base = kFp, d.m.a = in.mid.a;
        break;
      case MidMode::Mp:
        d.m.base = kMp, d.m.a = in.mid.a;
        break;
    }
    if (info.dst == OperandKind::T) d.aux = in.dst.a;
    // A type operand: aux holds its global type.
    switch (type_operand(in.op)) {
      case TypeOperand::Src:
        d.aux = static_cast<std::int32_t>(p.types[in.src.a]);
        break;
      case TypeOperand::Mid:
        d.aux = static_cast<std::int32_t>(p.types[in.mid.a]);
        break;
      case TypeOperand::None:
        break;
    }
    switch (in.op) {
      case Op::lea_:
        // `lea $v, d` (Limbo's constant send in an alt) needs the constant
        // at a cage address: give each one an 8-byte cage slot.
        if (in.src.mode == AddrMode::Imm) lea_consts.push_back({pc, in.src.a});
        break;
      case Op::call_:
        // The return pc, so `call` need not divide ip - code by the size of
        // an instruction (m is unused at run time).
        d.m.b = static_cast<std::int32_t>(pc + 1);
        break;
      case Op::frame_: {
        const TypeInfo& t = heap.type(p.types[in.src.a]);
        d.s.b = static_cast<std::int32_t>(frame_size(t.size));
        d.m.b = t.ptrs.empty() ? 0 : 1;
        break;
      }
      default:
        break;
    }
  }
  for (std::size_t pc = 0; pc < m.code.size(); ++pc)
    p.code[pc].h = choose_handler(m.code[pc], p.code[pc]);
  fuse_pairs(p.code);
  if (!lea_consts.empty()) {
    Ptr block = heap.alloc_stack(static_cast<std::uint32_t>(8 * lea_consts.size()));
    for (std::size_t i = 0; i < lea_consts.size(); ++i) {
      Ptr slot = block + static_cast<Ptr>(8 * i);
      st<std::int64_t>(heap.cage().at(slot), lea_consts[i].second);
      p.code[lea_consts[i].first].aux = static_cast<std::int32_t>(slot);
    }
  }
}

int derived_followers(const Program& p, std::size_t pc, std::int32_t (&out)[2]) {
  const unsigned h = p.code[pc].h;
  const auto next = static_cast<std::int32_t>(pc + 1);
  if (h == kH_lea_FIX_call || h == kH_addw_IFF_jmp || h == kH_addw_FFF_jmp) {
    out[0] = next;
    return 1;
  }
  if (is_jmp_compare(h)) {
    out[0] = p.code[pc].aux;
    return 1;
  }
  for (const LoopBack& l : kLoopBacks)
    if (h == l.fused) {
      out[0] = next;
      out[1] = p.code[pc + 1].aux;
      return 2;
    }
  return 0;
}

std::vector<Fusion> plain_fusion(const Program& p) {
  const std::size_t n = p.code.size();
  std::vector<Fusion> f(n, Fusion::None);
  // A fill or scan loop's pcs contain a pair and a triple: the loop wins.
  auto mark = [&](std::int64_t pc, Fusion k) {
    if (pc < 0 || static_cast<std::size_t>(pc) >= n) return;
    Fusion& at = f[static_cast<std::size_t>(pc)];
    if (at != Fusion::Fill && at != Fusion::Scan) at = k;
  };
  for (std::size_t pc = 0; pc < n; ++pc) {
    const unsigned h = p.code[pc].h;
    const auto at = static_cast<std::int64_t>(pc);
    if (array_loop(kArrayFills, h, true) != 0 && pc + 3 < n) {
      // The test before the pair, the pair, the increment and the jump back.
      for (std::int64_t k = -1; k <= 3; ++k) mark(at + k, Fusion::Fill);
      continue;
    }
    if (array_loop(kArrayScans, h, true) != 0 && pc + 1 < n) {
      // The same five, the increment and jump at the branch's target.
      for (std::int64_t k = -1; k <= 1; ++k) mark(at + k, Fusion::Scan);
      mark(p.code[pc + 1].aux, Fusion::Scan);
      mark(std::int64_t{p.code[pc + 1].aux} + 1, Fusion::Scan);
      continue;
    }
    bool pair = false;
    for (const FusedPair& x : kFusedPairs) pair = pair || h == x.fused;
    if (pair) {
      mark(at, Fusion::Pair);
      mark(at + 1, Fusion::Pair);
    }
    std::int32_t followers[2];
    const int k = derived_followers(p, pc, followers);
    if (k > 0) {
      mark(at, Fusion::Pair);
      for (int i = 0; i < k; ++i) mark(followers[i], Fusion::Pair);
    }
  }
  return f;
}

void copy_jump_tables(Program& p, Heap& heap, Ptr mp) {
  if (p.tables_copied) return;
  p.tables_copied = true;
  const Module& m = p.mod;
  std::uint8_t* base = heap.cage().at(mp);
  auto size = static_cast<std::int64_t>(m.data_size);
  auto ncode = static_cast<std::int32_t>(m.code.size());
  auto word = [&](std::int64_t off) -> std::int32_t {
    if (off < 0 || off + 4 > size) throw VerifyError{m.name + ": jump table out of range"};
    return ld<std::int32_t>(base + off);
  };
  auto big = [&](std::int64_t off) -> std::int64_t {
    if (off < 0 || off + 8 > size) throw VerifyError{m.name + ": jump table out of range"};
    return ld<std::int64_t>(base + off);
  };
  // A default of -1 (Limbo writes it when the arms cover every value, as for
  // a pick on all tags) continues with the next instruction.
  auto dflt = [&](std::int32_t pc, std::int32_t at) {
    return pc == -1 && at + 1 < ncode ? at + 1 : pc;
  };
  auto target = [&](std::int32_t pc, std::int32_t at) {
    if (pc < 0 || pc >= ncode)
      throw VerifyError{m.name + ": pc " + std::to_string(at) + ": jump table target out of range"};
    return pc;
  };
  for (std::size_t i = 0; i < p.code.size(); ++i) {
    DInst& d = p.code[i];
    const Instruction& in = m.code[i];
    auto at = static_cast<std::int32_t>(i);
    std::int64_t t = in.dst.a;
    switch (d.op) {
      case Op::case_: {
        CaseTable ct;
        std::int32_t n = word(t);
        if (n < 0 || n > (size - t) / 12) throw VerifyError{m.name + ": jump table out of range"};
        for (std::int32_t k = 0; k < n; ++k)
          ct.entries.push_back(
              {word(t + 4 + 12 * k), word(t + 8 + 12 * k), target(word(t + 12 + 12 * k), at)});
        ct.dflt = target(dflt(word(t + 4 + 12 * std::int64_t(n)), at), at);
        d.aux = static_cast<std::int32_t>(p.cases.size());
        p.cases.push_back(std::move(ct));
        break;
      }
      case Op::casel_: {
        CaseTable ct;
        std::int32_t n = word(t);
        if (n < 0 || n > (size - t) / 24) throw VerifyError{m.name + ": jump table out of range"};
        for (std::int32_t k = 0; k < n; ++k)
          ct.entries.push_back(
              {big(t + 8 + 24 * k), big(t + 16 + 24 * k), target(word(t + 24 + 24 * k), at)});
        ct.dflt = target(dflt(word(t + 8 + 24 * std::int64_t(n)), at), at);
        d.aux = static_cast<std::int32_t>(p.cases.size());
        p.cases.push_back(std::move(ct));
        break;
      }
      case Op::casec_: {
        StrCaseTable ct;
        std::int32_t n = word(t);
        if (n < 0 || n > (size - t) / 12) throw VerifyError{m.name + ": jump table out of range"};
        for (std::int32_t k = 0; k < n; ++k) {
          Ptr lo = static_cast<Ptr>(word(t + 4 + 12 * k));
          Ptr hi = static_cast<Ptr>(word(t + 8 + 12 * k));
          StrCaseEntry e;
          e.lo = str_runes(heap, lo);
          e.hi = hi == H ? e.lo : str_runes(heap, hi);
          e.pc = target(word(t + 12 + 12 * k), at);
          ct.entries.push_back(std::move(e));
        }
        ct.dflt = target(dflt(word(t + 4 + 12 * std::int64_t(n)), at), at);
        d.aux = static_cast<std::int32_t>(p.scases.size());
        p.scases.push_back(std::move(ct));
        break;
      }
      case Op::goto_: {
        std::vector<std::int32_t> g;
        std::int32_t n = word(t - 4);
        if (n < 0 || n > (size - t) / 4) throw VerifyError{m.name + ": jump table out of range"};
        for (std::int32_t k = 0; k < n; ++k) g.push_back(target(word(t + 4 * k), at));
        d.aux = static_cast<std::int32_t>(p.gotos.size());
        p.gotos.push_back(std::move(g));
        break;
      }
      default:
        break;
    }
  }
}

}  // namespace dis::vm
