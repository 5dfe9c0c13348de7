// The classes of work the cost tool calibrates its stream base by (what the
// timing probe adds to an instruction depends on what it does: a fenced
// clock read serialises a floating-point latency, the call tracking works
// at calls and returns). From the opcode table (opcodes.def): the Call
// flag makes Call; the Index flag (an address computed, nothing referenced
// or freed) Index; any other string, array, list or pointer operand makes
// Memory (reference counts, allocation, frees); any real operand Real; the
// rest (integer arithmetic, moves, branches) Arith.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "opcodes.h"

namespace dis {

enum class CostClass : std::uint8_t { Arith, Index, Memory, Real, Call };
inline constexpr std::size_t kNumCostClasses = 5;

constexpr std::string_view cost_class_name(CostClass c) {
  constexpr std::string_view names[] = {"arith", "index", "memory", "real", "call"};
  return names[static_cast<std::size_t>(c)];
}

constexpr CostClass cost_class(Op op) {
  const OpInfo& i = op_info(op);
  if (has_flag(i.flags, OpFlags::Call)) return CostClass::Call;
  if (has_flag(i.flags, OpFlags::Index)) return CostClass::Index;
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

}  // namespace dis
