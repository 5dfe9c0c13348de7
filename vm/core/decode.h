// Pre-decoded instructions: every operand is a base register (frame, module
// data or the program's constant area) plus an offset, with a flag for double
// indirection, so operand fetch needs no address-mode switch at run time.
// Branch targets, type indices (as global heap types) and jump tables are
// resolved here once; jump tables are copied out of module data so a program
// that overwrites its data cannot redirect a jump.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "heap.h"
#include "module.h"
#include "opcodes.h"

namespace dis::vm {

enum BaseReg : std::uint8_t { kFp = 0, kMp = 1, kConst = 2 };

struct DOpnd {
  std::uint8_t base = kConst;
  std::uint8_t ind = 0;
  std::int32_t a = 0;
  std::int32_t b = 0;
};

// Handler index of a decoded instruction: its opcode, plus kDirect when no
// operand is doubly indirect (the handler then skips that test).
inline constexpr unsigned kDirect = kNumOps;

// Handlers beyond the opcodes' own, chosen at decode where an operand's value
// allows a cheaper form of the same operation (aux carries the parameter):
// modw and divw by a power-of-two immediate (a mask and a shift, no divide).
// The _FF forms: m and d both frame words (the handler needs no base table).
#define DIS_SPECIAL_HANDLERS(X) \
  X(modw_pow2)                  \
  X(divw_pow2)                  \
  X(modw_pow2_FF)               \
  X(divw_pow2_FF)

// Shape-specialised handlers of the commonest word operations: X(op, shape),
// the shape naming source, middle and destination in turn: F a frame word
// a(fp), I an immediate or an absent operand (an immediate's value is also
// kept in the operand's b), X a double indirection through the frame
// b(a(fp)). Decode picks the handler when an instruction has that exact
// shape; the handler needs no base table and tests no operand kind.
// A shape with a suffix _NEXTOP names a fused pair (kFusedPairs in decode.cpp
// picks it): this instruction, then the next one's handler reached by a
// direct jump, budget and probes still counting two instructions.
// addw_*_jmp_<compare> (a loop's increment, its jump back, and the loop's
// test at the jump's target, a compare of two frame words) runs all three,
// counted as three; under a probe each runs alone.
// An indw pair's second instruction goes through the element pointer the
// indw just stored (decode checks the slot is the same), so it is not
// loaded back.
// indw_FFF_movw_loop: an indw/movw pair followed by a loop-back triple
// whose test continues into the pair (an array fill) runs whole
// iterations, five instructions each, in a loop of its own (run_fill_loop);
// aux holds the test (LoopTest). Under a probe it runs as the plain pair.
// indw_FFF_beqw_scan: the same for an array scan, an indw/beqw pair whose
// branch (element equal to the immediate) goes to a loop-back triple
// leading to the test just before the pair: iterations run in a loop of
// their own (run_scan_loop) until an element differs (the pair falls
// through into the loop's body) or the test ends the loop. Decode takes
// only loops that write no word they read but the index.
// The _bnew_scan form goes on while the element differs instead; the
// indb forms are the same loops over byte arrays (movb, beqb, bneb).
// jmp_<compare>: a jump whose target is one of these compares (a while or
// for loop's jump back to its test) runs the compare too, reached by a
// direct jump; the compare's count is derived from the jump's, as for the
// other pairs.
// clang-format off
#define DIS_JMP_COMPARES(X)                                                       \
  X(jmp, beqw_FFI) X(jmp, beqw_FII) X(jmp, beqw_XII) X(jmp, bnew_FFI)             \
  X(jmp, bnew_FII) X(jmp, bnew_XII) X(jmp, bltw_FFI) X(jmp, bltw_FII)             \
  X(jmp, bltw_IFI) X(jmp, blew_FFI) X(jmp, blew_FII) X(jmp, bgtw_FFI)             \
  X(jmp, bgtw_FII) X(jmp, bgew_FFI) X(jmp, bgew_FII) X(jmp, bgew_IFI)             \
  X(jmp, blew_IFI) X(jmp, bgtw_IFI)
#define DIS_SHAPED_HANDLERS(X)                                                    \
  X(frame, IIF) X(movp, FIX) X(movp, FIF)                                         \
  X(movw, FIF) X(movw, IIF) X(movw, FIX) X(movw, IIX) X(movw, XIF) X(lea, FIX)    \
  X(addw, IFF) X(addw, FFF) X(addw, FFX) X(addw, IFX)                             \
  X(subw, IFF) X(subw, FFF) X(subw, IFX) X(mulw, IFF) X(mulw, FFF)                \
  X(andw, IFF) X(orw, IFF) X(xorw, IFF) X(shlw, IFF) X(shrw, IFF) X(lsrw, IFF)    \
  X(beqw, FFI) X(beqw, FII) X(beqw, XII) X(bnew, FFI) X(bnew, FII)                \
  X(bltw, FFI) X(bltw, FII) X(bltw, IFI) X(blew, FFI) X(blew, FII)                \
  X(bgtw, FFI) X(bgtw, FII) X(bgew, FFI) X(bgew, FII) X(bgew, IFI) X(indw, FFF)   \
  X(call, FII)                                                                    \
  X(lea, FIX_call)                                                                \
  X(indw, FFF_movw) X(indw, FFF_beqw) X(addw, IFF_jmp) X(addw, FFF_jmp)          \
  X(addw, IFF_jmp_bgtw) X(addw, IFF_jmp_bgew) X(addw, IFF_jmp_bltw)              \
  X(addw, IFF_jmp_blew) X(addw, FFF_jmp_bgtw) X(addw, FFF_jmp_bgew)              \
  X(addw, FFF_jmp_bltw) X(addw, FFF_jmp_blew) X(indw, FFF_movw_loop)              \
  X(indw, FFF_beqw_scan)                                                          \
  X(indb, FFF) X(movb, IIX) X(beqb, XII) X(bneb, XII) X(movb, XIF) X(movb, FIX)   \
  X(movb, XIX) X(cvtbw, XIF) X(cvtwb, FIX)                                        \
  X(indw, FFF_bnew) X(indb, FFF_movb) X(indb, FFF_beqb) X(indb, FFF_bneb)         \
  X(indw, FFF_bnew_scan) X(indb, FFF_movb_loop) X(indb, FFF_beqb_scan)            \
  X(indb, FFF_bneb_scan)                                                          \
  X(movf, FIF) X(movf, XIF) X(movf, FIX)                                          \
  X(addf, FFF) X(subf, FFF) X(mulf, FFF) X(divf, FFF)                             \
  X(subf, XFF) X(mulf, XFF) X(addf, FXX) X(subf, FXX)                             \
  X(movp, XIF) X(movp, XIX) X(movw, XIX)                                          \
  X(bnew, XII) X(bltw, XII) X(blew, XII) X(bgtw, XII) X(bgew, XII)                \
  X(blew, IFI) X(bgtw, IFI)                                                       \
  DIS_JMP_COMPARES(X)
// clang-format on
enum SpecialHandler : unsigned {
  kSpecialBefore = 2 * kNumOps - 1,
#define DIS_SPECIAL(name) kH_##name,
  DIS_SPECIAL_HANDLERS(DIS_SPECIAL)
#undef DIS_SPECIAL
#define DIS_SHAPED(op, shape) kH_##op##_##shape,
      DIS_SHAPED_HANDLERS(DIS_SHAPED)
#undef DIS_SHAPED
          kNumHandlers
};

// 64 bytes, one cache line: a branch's code + aux and SAVE_PC's ip - code
// scale by a shift.
struct alignas(64) DInst {
  // The handler's address (direct threading: dispatch is one indirect jump
  // through this word), filled from h by whichever interpret<> instantiation
  // (plain run or an inlined probe, each with its own labels) runs the
  // program next (Program::threaded_for). --trace and the switch build use h.
  const void* run = nullptr;
  Op op = Op::nop_;
  std::uint16_t h = 0;  // handler: op, or op + kDirect
  DOpnd s, m, d;
  std::int32_t aux = 0;  // branch target, global type, table index, size
  // modw_pow2: aux = the divisor; divw_pow2: aux = its log2;
  // the array fill and scan loops (indw_FFF_movw_loop ...): the loop's test.
  // `frame` (whose operands s and m are unused at run time) also carries
  // the frame's stack bytes in s.b and whether it has pointers in m.b;
  // `call` its return pc in m.b.
  // The Count and Sampled probes' exact count of this pc, in the line's
  // padding: the dispatch adds one at a fixed offset from the instruction,
  // with no register for a table. The interpreter reads the code through
  // const pointers; this word alone is written (cost_probe.h zeroes it when
  // its recorder first meets the program, the plain run never touches it).
  mutable std::uint64_t probe_count = 0;
};
static_assert(sizeof(DInst) == 64);

// The loop's test of an array fill or scan loop (in its aux): the compare at the
// loop-back jump's target, which leaves the loop when true.
// With kLoopDisjoint the loop writes no word it reads but its index
// (decode checked), so the handler reads the others once.
enum LoopTest : std::int32_t { kLoopGt, kLoopGe, kLoopLt, kLoopLe };
inline constexpr std::int32_t kLoopTestMask = 3;
inline constexpr std::int32_t kLoopDisjoint = 4;

struct CaseEntry {
  std::int64_t lo, hi;
  std::int32_t pc;
};
struct CaseTable {
  std::vector<CaseEntry> entries;
  std::int32_t dflt = -1;
};
struct StrCaseEntry {
  std::u32string lo, hi;
  std::int32_t pc;
};
struct StrCaseTable {
  std::vector<StrCaseEntry> entries;
  std::int32_t dflt = -1;
};

struct Export;

struct Program {
  std::string path;
  Module mod;
  std::vector<DInst> code;
  std::vector<std::int64_t> consts;  // immediates, 8 bytes each
  std::vector<std::uint32_t> types;  // module type index -> global
  std::vector<CaseTable> cases;      // case and casel
  std::vector<StrCaseTable> scases;  // casec
  std::vector<std::vector<std::int32_t>> gotos;
  std::vector<Export*> exports;  // owned by export_store
  std::vector<std::unique_ptr<Export>> export_store;
  bool tables_copied = false;
  // The label table every DInst::run was filled from (null: not yet).
  const void* threaded_for = nullptr;
};

// Checks every instruction (DESIGN decision 3); throws VerifyError.
void verify(const Module& m);

// Fills p.code/consts/types from p.mod (after verify). Jump tables are copied
// later from the first instance's module data (copy_jump_tables).
void decode(Program& p, Heap& heap);
void copy_jump_tables(Program& p, Heap& heap, Ptr mp);

// The instructions the fused handler at `pc` runs after it without a probe
// step of their own (a counting probe derives their counts from pc's: its
// executions less the times it declined to run fused). Fills `out` with
// their pcs and returns how many (0 when pc's handler is not such a one).
int derived_followers(const Program& p, std::size_t pc, std::int32_t (&out)[2]);

// How the plain run executes an instruction, as decode chose its handlers
// (plain_fusion below): alone; inside a fused pair or loop-back triple (one
// dispatch runs two or three instructions); or inside an array fill's or an
// array scan's loop (whole iterations in one handler). The timed view runs
// a pair's instructions alone, so for those the probe's cost looks larger
// by what fusion saves the plain run; it runs an array loop fused, timed as
// one interval, which carries one probe step. The stream base calibrates
// both (cost/stream_base.cpp).
enum class Fusion : std::uint8_t { None, Pair, Fill, Scan };
inline constexpr std::size_t kNumFusions = 4;
constexpr std::string_view fusion_name(Fusion f) {
  constexpr std::string_view names[] = {"none", "pair", "fill", "scan"};
  return names[static_cast<std::size_t>(f)];
}

// Per pc, how the plain run executes it (Fusion), from the handlers
// decode chose: a fused pair's or loop-back triple's instructions are Pair,
// an array fill loop's five are Fill. A pc is marked by its shape, whether or
// not a run enters it fused (a loop's test also runs alone on entry).
std::vector<Fusion> plain_fusion(const Program& p);

}  // namespace dis::vm
