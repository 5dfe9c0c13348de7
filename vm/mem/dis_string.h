// Dis strings in the heap: {len, max, chars}. len >= 0: 8-bit characters,
// used only when every character is below 0x80; len < 0: -len 32-bit runes.
// The empty string is normally nil (H): constructors return H for "".
// Every returned Ptr carries one reference owned by the caller.
#pragma once

#include <string>
#include <string_view>

#include "heap.h"
#include "utf8.h"  // utf8_append/utf8_decode for the builtins

namespace dis::vm {

struct StrView {
  std::int32_t n = 0;  // characters
  bool wide = false;   // runes (4 bytes each) rather than bytes
  const std::uint8_t* p = nullptr;
  std::int32_t at(std::int32_t i) const { return wide ? ld<std::int32_t>(p + 4 * i) : p[i]; }
};

StrView str_view(Heap& h, Ptr s);
std::int32_t str_len(Heap& h, Ptr s);
std::string str_utf8(Heap& h, Ptr s);
std::u32string str_runes(Heap& h, Ptr s);

Ptr str_from_utf8(Heap& h, std::string_view utf8);
Ptr str_from_runes(Heap& h, std::u32string_view runes);
Ptr str_concat(Heap& h, Ptr m, Ptr s);
Ptr str_slice(Heap& h, Ptr s, std::int32_t a, std::int32_t b);  // bounds-checked
// d with character i replaced (i == len appends); d itself when it can be
// changed in place (sole reference, narrow stays narrow); else a new string.
Ptr str_insert(Heap& h, Ptr d, std::int32_t i, std::int32_t rune, bool& in_place);
int str_compare(Heap& h, Ptr a, Ptr b);

}  // namespace dis::vm
