#include "arrays_lists.h"

#include <cstring>

namespace dis::vm {

ArrayRef array_ref(Heap& h, Ptr a) {
  ArrayRef r;
  if (a == H) return r;
  BlockHeader* bh = h.checked_header(a);
  if (!bh || h.type(bh->type).kind != TypeKind::Array) raise_error("dereference of nil");
  std::uint8_t* d = h.cage().at(a);
  r.len = ld<std::int32_t>(d);
  r.elemtype = ld<std::uint32_t>(d + 4);
  r.data = ld<Ptr>(d + 12);
  if (r.elemtype >= h.num_types()) r.elemtype = kTypeNone;
  // The header is Dis-writable memory: never let it describe bytes outside
  // the cage.
  if (r.len < 0 ||
      std::uint64_t{r.data} + std::uint64_t(r.len) * h.type(r.elemtype).size > Cage::kSize)
    raise_error("array bounds error");
  return r;
}

Ptr array_new(Heap& h, std::uint32_t elemtype, std::int32_t n) {
  if (n < 0) raise_error("negative array size");
  std::uint64_t bytes = kArrayHeader + std::uint64_t(n) * h.type(elemtype).size;
  if (bytes > 0xE0000000u) raise_error("out of memory: heap");
  Ptr a = h.alloc(kTypeArray, static_cast<std::uint32_t>(bytes));
  std::uint8_t* d = h.cage().at(a);
  st<std::int32_t>(d, n);
  st<std::uint32_t>(d + 4, elemtype);
  st<Ptr>(d + 8, H);
  st<Ptr>(d + 12, a + kArrayHeader);
  const TypeInfo& t = h.type(elemtype);
  if (!t.ptrs.empty())
    for (std::int32_t i = 0; i < n; ++i) h.init_record(d + kArrayHeader + i * t.size, elemtype);
  return a;
}

Ptr array_of_bytes(Heap& h, const void* bytes, std::size_t n) {
  if (n > 0x7FFFFFF0u) raise_error("out of memory: heap");
  Ptr a = array_new(h, kTypeByte, static_cast<std::int32_t>(n));
  if (n) std::memcpy(h.cage().at(a) + kArrayHeader, bytes, n);
  return a;
}

Ptr array_slice(Heap& h, Ptr arr, std::int32_t a, std::int32_t b) {
  ArrayRef r = array_ref(h, arr);
  if (a < 0 || b < a || b > r.len) raise_error("array bounds error");
  if (arr == H) return H;
  Ptr root = ld<Ptr>(h.cage().at(arr) + 8);
  if (root == H) root = arr;
  Ptr s = h.alloc(kTypeArray, kArrayHeader);
  std::uint8_t* d = h.cage().at(s);
  st<std::int32_t>(d, b - a);
  st<std::uint32_t>(d + 4, r.elemtype);
  h.incref(root);
  st<Ptr>(d + 8, root);
  st<Ptr>(d + 12, r.data + static_cast<std::uint32_t>(a) * h.type(r.elemtype).size);
  return s;
}

void array_copy_into(Heap& h, Ptr dst, std::int32_t i, Ptr src) {
  ArrayRef d = array_ref(h, dst), s = array_ref(h, src);
  if (i < 0 || std::int64_t(i) + s.len > d.len) raise_error("array bounds error");
  if (s.len == 0) return;
  std::uint32_t size = h.type(d.elemtype).size;
  std::uint8_t* dp = h.cage().at(d.data + static_cast<std::uint32_t>(i) * size);
  std::uint8_t* sp = h.cage().at(s.data);
  if (h.type(d.elemtype).ptrs.empty()) {
    std::memmove(dp, sp, std::size_t(s.len) * size);
    return;
  }
  // Overlapping copies (a slice of the same array) keep order.
  if (dp <= sp)
    for (std::int32_t k = 0; k < s.len; ++k)
      h.copy_record(dp + k * size, sp + k * size, d.elemtype);
  else
    for (std::int32_t k = s.len - 1; k >= 0; --k)
      h.copy_record(dp + k * size, sp + k * size, d.elemtype);
}

Ptr list_cons(Heap& h, std::uint32_t elemtype, std::uint32_t elemsize, const std::uint8_t* elem,
              Ptr tail) {
  // Copy the element out first: the allocation may release pages it sits on.
  std::uint8_t tmp[64];
  std::vector<std::uint8_t> big;
  const std::uint8_t* src = elem;
  if (elemsize <= sizeof tmp) {
    std::memcpy(tmp, elem, elemsize);
    src = tmp;
  } else {
    big.assign(elem, elem + elemsize);
    src = big.data();
  }
  Ptr c = h.alloc(kTypeList, kListHeader + elemsize);
  std::uint8_t* d = h.cage().at(c);
  // The cell takes over the destination's reference to `tail` without an
  // incref, so the write barrier is applied here: the new cell has the
  // mutator colour and will not be scanned, so an unmarked tail would be
  // swept while still reachable through it.
  st<Ptr>(d, tail);
  if (tail != H)
    if (BlockHeader* th = h.checked_header(tail); th && th->colour != h.mutator_colour())
      h.barrier(th);
  st<std::uint32_t>(d + 4, elemtype);
  std::memcpy(d + kListHeader, src, elemsize);
  for (std::uint32_t off : h.type(elemtype).ptrs) h.incref(ld<Ptr>(d + kListHeader + off));
  return c;
}

std::int32_t list_len(Heap& h, Ptr l) {
  std::int32_t n = 0;
  while (l != H) {
    if (!h.checked_header(l)) raise_error("dereference of nil");
    // More cells than blocks ever allocated: a cycle written by raw code.
    if (std::uint64_t(++n) > h.stats().allocs) raise_error("array bounds error");
    l = ld<Ptr>(h.cage().at(l));
  }
  return n;
}

}  // namespace dis::vm
