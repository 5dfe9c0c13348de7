#include "dis_string.h"

#include <cstring>

namespace dis::vm {

StrView str_view(Heap& h, Ptr s) {
  StrView v;
  if (s == H) return v;
  BlockHeader* bh = h.checked_header(s);
  if (!bh || bh->type != kTypeString) raise_error("dereference of nil");
  std::uint8_t* d = h.cage().at(s);
  std::int32_t len = ld<std::int32_t>(d);
  // The length word is Dis-writable: keep the view inside the block.
  if (len == INT32_MIN) raise_error("array bounds error");
  v.wide = len < 0;
  v.n = v.wide ? -len : len;
  std::uint64_t room = (block_room(*bh) - 8) / (v.wide ? 4 : 1);
  if (std::uint64_t(v.n) > room) raise_error("array bounds error");
  v.p = d + 8;
  return v;
}

std::int32_t str_len(Heap& h, Ptr s) { return str_view(h, s).n; }

std::string str_utf8(Heap& h, Ptr s) {
  StrView v = str_view(h, s);
  std::string out;
  if (!v.wide) return std::string(reinterpret_cast<const char*>(v.p), v.n);
  for (std::int32_t i = 0; i < v.n; ++i) utf8_append(out, static_cast<std::uint32_t>(v.at(i)));
  return out;
}

std::u32string str_runes(Heap& h, Ptr s) {
  StrView v = str_view(h, s);
  std::u32string out;
  out.reserve(v.n);
  for (std::int32_t i = 0; i < v.n; ++i) out += static_cast<char32_t>(v.at(i));
  return out;
}

namespace {

// A string of n characters, narrow or wide, with room for `cap` characters.
Ptr alloc_string(Heap& h, std::int32_t n, bool wide, std::int32_t cap) {
  std::uint64_t bytes = 8 + std::uint64_t(cap) * (wide ? 4 : 1);
  if (bytes > 0x7FFFFFFF) raise_error("out of memory: heap");
  Ptr s = h.alloc(kTypeString, static_cast<std::uint32_t>(bytes));
  std::uint8_t* d = h.cage().at(s);
  st<std::int32_t>(d, wide ? -n : n);
  st<std::int32_t>(d + 4, cap);
  return s;
}

}  // namespace

Ptr str_from_runes(Heap& h, std::u32string_view r) {
  if (r.empty()) return H;
  bool wide = false;
  for (char32_t c : r)
    if (c >= 0x80) wide = true;
  auto n = static_cast<std::int32_t>(r.size());
  Ptr s = alloc_string(h, n, wide, n);
  std::uint8_t* p = h.cage().at(s) + 8;
  for (std::int32_t i = 0; i < n; ++i) {
    if (wide)
      st<std::int32_t>(p + 4 * i, static_cast<std::int32_t>(r[i]));
    else
      p[i] = static_cast<std::uint8_t>(r[i]);
  }
  return s;
}

Ptr str_from_utf8(Heap& h, std::string_view utf8) {
  bool ascii = true;
  for (char c : utf8)
    if (static_cast<unsigned char>(c) >= 0x80) ascii = false;
  if (!ascii) return str_from_runes(h, utf8_to_runes(utf8));
  if (utf8.empty()) return H;
  auto n = static_cast<std::int32_t>(utf8.size());
  Ptr s = alloc_string(h, n, false, n);
  std::memcpy(h.cage().at(s) + 8, utf8.data(), utf8.size());
  return s;
}

Ptr str_concat(Heap& h, Ptr m, Ptr s) {
  StrView a = str_view(h, m), b = str_view(h, s);
  if (a.n == 0 && b.n == 0) return H;
  if (b.n == 0) {
    h.incref(m);
    return m;
  }
  if (a.n == 0) {
    h.incref(s);
    return s;
  }
  bool wide = a.wide || b.wide;
  std::int64_t n64 = std::int64_t(a.n) + b.n;
  if (n64 > 0x1FFFFFFF) raise_error("out of memory: heap");
  auto n = static_cast<std::int32_t>(n64);
  Ptr r = alloc_string(h, n, wide, n);
  // Views may move? No: the cage never moves; re-read after alloc anyway.
  a = str_view(h, m);
  b = str_view(h, s);
  std::uint8_t* p = h.cage().at(r) + 8;
  if (!wide) {
    std::memcpy(p, a.p, a.n);
    std::memcpy(p + a.n, b.p, b.n);
  } else {
    for (std::int32_t i = 0; i < a.n; ++i) st<std::int32_t>(p + 4 * i, a.at(i));
    for (std::int32_t i = 0; i < b.n; ++i) st<std::int32_t>(p + 4 * (a.n + i), b.at(i));
  }
  return r;
}

Ptr str_slice(Heap& h, Ptr s, std::int32_t a, std::int32_t b) {
  StrView v = str_view(h, s);
  if (a < 0 || b < a || b > v.n) raise_error("array bounds error");
  if (a == b) return H;
  bool wide = false;
  if (v.wide)
    for (std::int32_t i = a; i < b; ++i)
      if (v.at(i) >= 0x80) wide = true;
  Ptr r = alloc_string(h, b - a, wide, b - a);
  v = str_view(h, s);
  std::uint8_t* p = h.cage().at(r) + 8;
  for (std::int32_t i = a; i < b; ++i) {
    if (wide)
      st<std::int32_t>(p + 4 * (i - a), v.at(i));
    else
      p[i - a] = static_cast<std::uint8_t>(v.at(i));
  }
  return r;
}

Ptr str_insert(Heap& h, Ptr d, std::int32_t i, std::int32_t rune, bool& in_place) {
  StrView v = str_view(h, d);
  in_place = false;
  if (i < 0 || i > v.n) raise_error("array bounds error");
  if (d != H && i < v.n && h.refcounting() && h.header(d)->ref == 1 && (v.wide || rune < 0x80)) {
    std::uint8_t* p = const_cast<std::uint8_t*>(v.p);
    if (v.wide)
      st<std::int32_t>(p + 4 * i, rune);
    else
      p[i] = static_cast<std::uint8_t>(rune);
    in_place = true;
    return d;
  }
  if (d != H && i == v.n && h.refcounting() && h.header(d)->ref == 1 && (v.wide || rune < 0x80)) {
    std::int32_t cap = ld<std::int32_t>(h.cage().at(d) + 4);
    // The capacity word is Dis-writable: the block's room bounds it.
    const std::uint64_t room = (block_room(*h.header(d)) - 8) / (v.wide ? 4 : 1);
    if (cap > v.n && std::uint64_t(v.n) + 1 <= room) {
      std::uint8_t* base = h.cage().at(d);
      if (v.wide) {
        st<std::int32_t>(base + 8 + 4 * i, rune);
        st<std::int32_t>(base, -(v.n + 1));
      } else {
        base[8 + i] = static_cast<std::uint8_t>(rune);
        st<std::int32_t>(base, v.n + 1);
      }
      in_place = true;
      return d;
    }
  }
  std::int32_t n = i == v.n ? v.n + 1 : v.n;
  bool wide = v.wide || rune >= 0x80;
  std::int32_t cap = i == v.n ? n + n / 4 + 4 : n;  // room to append again in place
  Ptr r = alloc_string(h, n, wide, cap);
  v = str_view(h, d);
  std::uint8_t* p = h.cage().at(r) + 8;
  for (std::int32_t k = 0; k < n; ++k) {
    std::int32_t c = k == i ? rune : v.at(k);
    if (wide)
      st<std::int32_t>(p + 4 * k, c);
    else
      p[k] = static_cast<std::uint8_t>(c);
  }
  return r;
}

int str_compare(Heap& h, Ptr a, Ptr b) {
  StrView x = str_view(h, a), y = str_view(h, b);
  std::int32_t n = x.n < y.n ? x.n : y.n;
  if (!x.wide && !y.wide) {
    int c = n ? std::memcmp(x.p, y.p, n) : 0;
    if (c) return c < 0 ? -1 : 1;
  } else {
    for (std::int32_t i = 0; i < n; ++i) {
      std::int32_t c = x.at(i), d = y.at(i);
      if (c != d) return c < d ? -1 : 1;
    }
  }
  return x.n < y.n ? -1 : x.n > y.n ? 1 : 0;
}

}  // namespace dis::vm
