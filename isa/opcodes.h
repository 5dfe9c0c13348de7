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
#define DIS_OP(code, name, S, M, D, ...) name##_ = code,
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

// What an operation is, beyond its operands' kinds (opcodes.def says each).
enum class OpFlags : std::uint8_t {
  None = 0,
  TypeS = 1,  // the source is an immediate index of a module type descriptor
  TypeM = 2,  // the middle is
  Call = 4,   // enters or leaves a function, module or thread
  Index = 8,  // computes an element's address or a length
  CallTypeS = Call | TypeS,
};
constexpr bool has_flag(OpFlags all, OpFlags f) {
  return (static_cast<unsigned>(all) & static_cast<unsigned>(f)) != 0;
}

struct OpInfo {
  std::string_view name;
  Op op;
  OperandKind src, mid, dst;
  OpFlags flags;
  std::string_view meaning;  // one line
};

inline constexpr std::size_t kNumOps = 0
#define DIS_OP(code, name, S, M, D, ...) +1
#include "opcodes.def"
#undef DIS_OP
    ;
static_assert(kNumOps == 175, "Dis has 175 opcodes (0x00-0xAE)");

inline constexpr std::array<OpInfo, kNumOps> kOpTable = {{
#define DIS_OP(code, name, S, M, D, F, meaning) \
  {#name, Op::name##_, OperandKind::S, OperandKind::M, OperandKind::D, OpFlags::F, meaning},
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

// Which operand names one of the module's type descriptors, as an
// immediate index (the assembler, the verifier and the decoder resolve it).
enum class TypeOperand : std::uint8_t { None, Src, Mid };
constexpr TypeOperand type_operand(Op op) {
  const OpFlags f = op_info(op).flags;
  return has_flag(f, OpFlags::TypeS)   ? TypeOperand::Src
         : has_flag(f, OpFlags::TypeM) ? TypeOperand::Mid
                                       : TypeOperand::None;
}

}  // namespace dis
