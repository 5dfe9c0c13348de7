// Dis arrays and lists in the heap.
// Array data: {len, elemtype, root, data, elements...}: a fresh array's
// elements follow the header (data points at them, root is H); a slice is a
// header-only block whose root keeps the original alive and whose data points
// into it. List cell data: {tail, elemtype, element}. Returned Ptrs carry one
// reference owned by the caller.
#pragma once

#include "heap.h"
#include "unfinished.h"

namespace dis::vm {

struct ArrayRef {
  std::int32_t len = 0;
  std::uint32_t elemtype = kTypeNone;
  Ptr data = H;
};

inline constexpr std::uint32_t kArrayHeader = 16;
inline constexpr std::uint32_t kListHeader = 8;

// Element size in bytes of an element type.
inline std::uint32_t elem_size(Heap& h, std::uint32_t t) { return h.type(t).size; }

ArrayRef array_ref(Heap& h, Ptr a);  // len 0 for H
Ptr array_new(Heap& h, std::uint32_t elemtype, std::int32_t n);
Ptr array_of_bytes(Heap& h, const void* bytes, std::size_t n);
// d[a:b], sharing storage.
Ptr array_slice(Heap& h, Ptr arr, std::int32_t a, std::int32_t b);
// Copy src into dst starting at index i (slicela), counts adjusted.
void array_copy_into(Heap& h, Ptr dst, std::int32_t i, Ptr src);

// A new cell holding a copy of `elem` (counts taken for its pointers), with
// `tail` moved in (its reference now belongs to the cell).
Ptr list_cons(Heap& h, std::uint32_t elemtype, std::uint32_t elemsize, const std::uint8_t* elem,
              Ptr tail);
std::int32_t list_len(Heap& h, Ptr l);

// A list of n pointers, make(i) giving the ith as a new reference (moved
// in). When an allocation throws part way, what was made is released
// first: left counted with nothing holding it, it would stay to the end.
template <class Make>
Ptr list_of_new(Heap& h, std::size_t n, Make make) {
  Ptr list = H, p = H;
  try {
    for (std::size_t i = n; i-- > 0;) {
      p = make(i);
      list = list_cons(h, kTypePtr, 4, reinterpret_cast<std::uint8_t*>(&p), list);
      h.decref(p);
      p = H;
    }
  } catch (...) {
    h.decref(p);
    h.decref(list);
    throw;
  }
  return list;
}

}  // namespace dis::vm
