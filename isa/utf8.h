// UTF-8 as Inferno's libc does it (chartorune/runetochar): shared by the
// Limbo lexer, the VM's strings and its print formatter, so that a string
// means the same runes everywhere.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace dis {

inline constexpr std::uint32_t kRuneMax = 0x10FFFF;
inline constexpr std::uint32_t kRuneError = 0xFFFD;

// Appends the encoding of `rune`; values beyond U+10FFFF and surrogates
// become U+FFFD.
void utf8_append(std::string& out, std::uint32_t rune);

// Decodes one character of p[0..n). Returns the bytes consumed (0 only when
// n == 0); an invalid or truncated sequence gives U+FFFD and consumes 1.
int utf8_decode(const std::uint8_t* p, std::size_t n, std::uint32_t& rune);

std::u32string utf8_to_runes(std::string_view s);

// How many bytes a sequence starting with `lead` takes, as Inferno's
// fullrune reads it (an invalid lead counts as a two-byte one).
inline std::size_t utf8_announced_len(std::uint8_t lead) {
  return lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4;
}

// The length of s without an incomplete last character: decoding stops
// where a byte announces a longer sequence than the bytes left (Inferno's
// fullrune, which looks at that first byte alone), as its byte-array to
// string conversion does.
std::size_t utf8_complete_prefix(std::string_view s);

}  // namespace dis
