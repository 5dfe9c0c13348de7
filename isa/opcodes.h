// Dis opcodes: the enum and per-opcode metadata, all generated from
// opcodes.def. Contract: op_info(op) is valid for every Op; find_op() maps a
// mnemonic back to its Op. Nothing else in the project lists opcodes.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace dis {

enum class Op : std::uint8_t {
#define DIS_OP(code, name, S, M, D) name##_ = code,
#include "opcodes.def"
#undef DIS_OP
};

// What an instruction operand slot holds (see opcodes.def for the letters).
enum class OperandKind : std::uint8_t {
  N,  // absent
  B,
  W,
  L,
  F,
  R,
  H,
  X,
  C,
  A,
  P,
  M,  // address of a memory block
  T,  // branch target: immediate instruction number
  J,  // jump table in module data
  O,  // optional middle word
};

struct OpInfo {
  std::string_view name;
  Op op;
  OperandKind src, mid, dst;
};

inline constexpr std::size_t kNumOps = 0
#define DIS_OP(code, name, S, M, D) +1
#include "opcodes.def"
#undef DIS_OP
    ;
static_assert(kNumOps == 175, "Dis has 175 opcodes (0x00-0xAE)");

inline constexpr std::array<OpInfo, kNumOps> kOpTable = {{
#define DIS_OP(code, name, S, M, D) \
  {#name, Op::name##_, OperandKind::S, OperandKind::M, OperandKind::D},
#include "opcodes.def"
#undef DIS_OP
}};

// The table is in opcode order, so an opcode byte indexes it directly.
constexpr bool op_table_is_dense() {
  for (std::size_t i = 0; i < kNumOps; ++i)
    if (static_cast<std::size_t>(kOpTable[i].op) != i) return false;
  return true;
}
static_assert(op_table_is_dense(), "opcodes.def must list opcodes in order");

constexpr bool valid_opcode(unsigned byte) { return byte < kNumOps; }
constexpr const OpInfo& op_info(Op op) { return kOpTable[static_cast<std::size_t>(op)]; }
constexpr std::string_view op_name(Op op) { return op_info(op).name; }

std::optional<Op> find_op(std::string_view mnemonic);

// True for ops whose destination is a branch target (call, jmp, spawn, b*).
constexpr bool is_branch(Op op) { return op_info(op).dst == OperandKind::T; }

// Which operands an instruction carries. Source and destination are present
// exactly when their kind is not N. The middle is present when its kind is not
// N, except that it may be omitted where it defaults to the destination (same
// kind as d, as in `addw s, d` meaning d = d + s) or is the optional O.
// Reader, assembler, disassembler and verifier all apply this one rule.
constexpr bool has_src(Op op) { return op_info(op).src != OperandKind::N; }
constexpr bool has_dst(Op op) { return op_info(op).dst != OperandKind::N; }
constexpr bool mid_allowed(Op op) { return op_info(op).mid != OperandKind::N; }
constexpr bool mid_optional(Op op) {
  const OpInfo& i = op_info(op);
  return i.mid == OperandKind::O || (i.mid != OperandKind::N && i.mid == i.dst);
}

// The classes of work the cost tool calibrates its stream base by (what the
// timing probe adds to an instruction depends on what it does: a fenced
// clock read serialises a floating-point latency, the call tracking works
// at calls and returns). From the table: the call and return family is
// Call; indexing and lengths (an address computed, nothing referenced or
// freed) Index; any other string, array, list or pointer operand makes
// Memory (reference counts, allocation, frees); any real operand Real; the
// rest (integer arithmetic, moves, branches) Arith.
enum class CostClass : std::uint8_t { Arith, Index, Memory, Real, Call };
inline constexpr std::size_t kNumCostClasses = 5;
constexpr std::string_view cost_class_name(CostClass c) {
  constexpr std::string_view names[] = {"arith", "index", "memory", "real", "call"};
  return names[static_cast<std::size_t>(c)];
}
constexpr CostClass cost_class(Op op) {
  const OpInfo& i = op_info(op);
  for (std::string_view n :
       {"call", "frame", "mcall", "mframe", "spawn", "mspawn", "ret", "load", "exit", "runt"})
    if (i.name == n) return CostClass::Call;
  for (std::string_view n :
       {"indx", "indw", "indf", "indb", "indl", "indc", "lena", "lenc", "lenl"})
    if (i.name == n) return CostClass::Index;
  auto any = [&](auto pred) { return pred(i.src) || pred(i.mid) || pred(i.dst); };
  if (any([](OperandKind k) {
        return k == OperandKind::C || k == OperandKind::A || k == OperandKind::P ||
               k == OperandKind::M;
      }))
    return CostClass::Memory;
  if (any([](OperandKind k) { return k == OperandKind::F || k == OperandKind::R; }))
    return CostClass::Real;
  return CostClass::Arith;
}

// How the plain run executes an instruction, as decode chose its handlers
// (vm/core/decode.h plain_fusion): alone; inside a fused pair or loop-back triple
// (one dispatch runs two or three instructions); or inside an array fill's
// or an array scan's loop (whole iterations in one handler). The timed view
// runs each of them alone, so for a fused instruction the probe's cost looks
// larger by what fusion saves the plain run: the stream base calibrates that
// per kind (a scan's loop saves more per instruction than a fill's).
enum class Fusion : std::uint8_t { None, Pair, Fill, Scan };
inline constexpr std::size_t kNumFusions = 4;
constexpr std::string_view fusion_name(Fusion f) {
  constexpr std::string_view names[] = {"none", "pair", "fill", "scan"};
  return names[static_cast<std::size_t>(f)];
}

}  // namespace dis
