#include "utf8.h"

namespace dis {

void utf8_append(std::string& out, std::uint32_t r) {
  if (r > kRuneMax || (r >= 0xD800 && r <= 0xDFFF)) r = kRuneError;
  if (r < 0x80) {
    out += static_cast<char>(r);
  } else if (r < 0x800) {
    out += static_cast<char>(0xC0 | (r >> 6));
    out += static_cast<char>(0x80 | (r & 0x3F));
  } else if (r < 0x10000) {
    out += static_cast<char>(0xE0 | (r >> 12));
    out += static_cast<char>(0x80 | ((r >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (r & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (r >> 18));
    out += static_cast<char>(0x80 | ((r >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((r >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (r & 0x3F));
  }
}

int utf8_decode(const std::uint8_t* p, std::size_t n, std::uint32_t& rune) {
  rune = kRuneError;
  if (n == 0) return 0;
  const std::uint8_t c = p[0];
  if (c < 0x80) {
    rune = c;
    return 1;
  }
  int len;
  std::uint32_t r, min;
  if ((c & 0xE0) == 0xC0) {
    len = 2, r = c & 0x1F, min = 0x80;
  } else if ((c & 0xF0) == 0xE0) {
    len = 3, r = c & 0x0F, min = 0x800;
  } else if ((c & 0xF8) == 0xF0) {
    len = 4, r = c & 0x07, min = 0x10000;
  } else {
    return 1;
  }
  if (n < static_cast<std::size_t>(len)) return 1;
  for (int i = 1; i < len; ++i) {
    if ((p[i] & 0xC0) != 0x80) return 1;
    r = (r << 6) | (p[i] & 0x3F);
  }
  if (r < min || r > kRuneMax || (r >= 0xD800 && r <= 0xDFFF)) return 1;
  rune = r;
  return len;
}

std::u32string utf8_to_runes(std::string_view s) {
  std::u32string out;
  out.reserve(s.size());
  auto* p = reinterpret_cast<const std::uint8_t*>(s.data());
  std::size_t i = 0;
  while (i < s.size()) {
    std::uint32_t r;
    i += static_cast<std::size_t>(utf8_decode(p + i, s.size() - i, r));
    out += static_cast<char32_t>(r);
  }
  return out;
}

std::size_t utf8_complete_prefix(std::string_view s) {
  const std::size_t n = s.size();
  auto* p = reinterpret_cast<const std::uint8_t*>(s.data());
  // Only the last three bytes can announce more than is left.
  bool tail_ascii = true;
  for (std::size_t k = n > 3 ? n - 3 : 0; k < n; ++k) tail_ascii = tail_ascii && p[k] < 0x80;
  if (tail_ascii) return n;
  std::size_t i = 0;
  while (i < n) {
    if (utf8_announced_len(p[i]) > n - i) return i;
    std::uint32_t r;
    i += static_cast<std::size_t>(utf8_decode(p + i, n - i, r));
  }
  return n;
}

}  // namespace dis
