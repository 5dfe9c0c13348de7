// Type signatures of Limbo types (link/import checking, DIS-FACTS section 11).
// The caller builds the canonical type string (e.g. "f*(s)i" for Sys->print);
// type_sig folds its MD5 digest into the 32-bit value Inferno's compiler
// writes into .dis link and import entries.
#pragma once

#include <cstdint>
#include <string_view>

namespace dis {

// MD5 of the bytes of `canonical` (UTF-8, no terminator), the digest read as
// four little-endian u32 words, XORed together.
std::uint32_t type_sig(std::string_view canonical);

}  // namespace dis
