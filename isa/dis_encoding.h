// The variable-length "operand" integer of .dis files (man6-dis.txt,
// DIS-FACTS.md section 2), shared by the .dis reader/writer, the assembler
// and tests. Encoding: big-endian; the top two bits of the first byte give
// the width: 0x (1 byte, 7-bit signed), 10 (2 bytes, 14-bit signed),
// 11 (4 bytes, 30-bit signed). The encoder always picks the shortest form,
// as Inferno's compiler does; the decoder accepts any form.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace dis {

inline constexpr std::int32_t kOperandMin = -(1 << 29);     // -536870912
inline constexpr std::int32_t kOperandMax = (1 << 29) - 1;  //  536870911

// A Module that cannot be written as a .dis file (a value outside its
// field's range, an operand the opcode does not allow, ...).
class EncodeError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

constexpr bool operand_fits(std::int64_t v) { return v >= kOperandMin && v <= kOperandMax; }

// Bytes the shortest encoding of v takes (v must fit).
constexpr std::size_t operand_length(std::int64_t v) {
  if (v >= -64 && v <= 63) return 1;
  if (v >= -8192 && v <= 8191) return 2;
  return 4;
}

// Appends the shortest encoding of v; EncodeError naming `what` if v needs
// more than 30 bits.
inline void put_operand(std::vector<std::uint8_t>& out, std::int64_t v,
                        const char* what = "operand") {
  if (!operand_fits(v))
    throw EncodeError(std::string(what) + " " + std::to_string(v) +
                      " does not fit in a 30-bit operand");
  const auto u = static_cast<std::uint32_t>(static_cast<std::int32_t>(v));
  switch (operand_length(v)) {
    case 1:
      out.push_back(static_cast<std::uint8_t>(u & 0x7F));
      break;
    case 2:
      out.push_back(static_cast<std::uint8_t>(((u >> 8) & 0x3F) | 0x80));
      out.push_back(static_cast<std::uint8_t>(u));
      break;
    default:
      out.push_back(static_cast<std::uint8_t>(((u >> 24) & 0x3F) | 0xC0));
      out.push_back(static_cast<std::uint8_t>(u >> 16));
      out.push_back(static_cast<std::uint8_t>(u >> 8));
      out.push_back(static_cast<std::uint8_t>(u));
      break;
  }
}

inline std::vector<std::uint8_t> encode_operand(std::int64_t v) {
  std::vector<std::uint8_t> out;
  put_operand(out, v);
  return out;
}

struct DecodedOperand {
  std::int32_t value = 0;
  std::size_t length = 0;  // bytes consumed
};

// Decodes the operand starting at bytes[pos]; nullopt if it is truncated.
constexpr std::optional<DecodedOperand> decode_operand(std::span<const std::uint8_t> bytes,
                                                       std::size_t pos) {
  if (pos >= bytes.size()) return std::nullopt;
  const std::uint32_t c = bytes[pos];
  const std::size_t len = (c & 0x80) == 0 ? 1 : (c & 0x40) == 0 ? 2 : 4;
  if (bytes.size() - pos < len) return std::nullopt;
  std::uint32_t u;
  int bits;
  if (len == 1) {
    u = c & 0x7F;
    bits = 7;
  } else {
    u = c & 0x3F;
    for (std::size_t i = 1; i < len; ++i) u = (u << 8) | bytes[pos + i];
    bits = len == 2 ? 14 : 30;
  }
  const std::uint32_t sign = 1u << (bits - 1);
  const std::int64_t v = (u & sign) ? static_cast<std::int64_t>(u) - (std::int64_t{1} << bits)
                                    : static_cast<std::int64_t>(u);
  return DecodedOperand{static_cast<std::int32_t>(v), len};
}

// Plain 4-byte big-endian words (signatures, data words).
inline void put_word(std::vector<std::uint8_t>& out, std::uint32_t w) {
  out.push_back(static_cast<std::uint8_t>(w >> 24));
  out.push_back(static_cast<std::uint8_t>(w >> 16));
  out.push_back(static_cast<std::uint8_t>(w >> 8));
  out.push_back(static_cast<std::uint8_t>(w));
}

}  // namespace dis
