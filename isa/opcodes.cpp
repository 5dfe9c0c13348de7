#include "opcodes.h"

namespace dis {

std::optional<Op> find_op(std::string_view mnemonic) {
  for (const OpInfo& info : kOpTable)
    if (info.name == mnemonic) return info.op;
  return std::nullopt;
}

}  // namespace dis
