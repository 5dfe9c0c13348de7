// Heap warming for timed runs (warm_heap.h).
#include "warm_heap.h"

#include <malloc.h>

#include <cstdlib>

namespace dis::cost {

bool warm_heap(std::size_t bytes) {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  (void)bytes;
  return false;
#else
  // Blocks up to the largest fixed threshold glibc takes come from the heap
  // (not a fresh mmap each time), and the freed top of the heap stays.
  constexpr int kMmapThreshold = 32 << 20;
  if (bytes > static_cast<std::size_t>(kMmapThreshold) / 2) bytes = kMmapThreshold / 2;
  if (mallopt(M_MMAP_THRESHOLD, kMmapThreshold) == 0 || mallopt(M_TRIM_THRESHOLD, 1 << 30) == 0)
    return false;
  auto* p = static_cast<volatile char*>(std::malloc(bytes));
  if (!p) return false;
  for (std::size_t i = 0; i < bytes; i += 4096) p[i] = 0;
  std::free(const_cast<char*>(p));
  return true;
#endif
}

}  // namespace dis::cost
