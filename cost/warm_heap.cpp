// Heap warming for timed runs (warm_heap.h).
#include "warm_heap.h"

#include <malloc.h>
#include <sys/mman.h>

#include <cstdint>
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
  auto* p = static_cast<char*>(std::malloc(bytes));
  if (!p) return false;
  // Touching page by page cost 45 ms under this project's hypervisor (a
  // fault per 4 KiB); huge pages faulted in by one call cost 4 ms. Either
  // advice may be refused (older kernel, THP off): then the pages are
  // touched one by one.
  constexpr std::uintptr_t kPage = 4096;
  const auto first = (reinterpret_cast<std::uintptr_t>(p) + kPage - 1) & ~(kPage - 1);
  const auto last = (reinterpret_cast<std::uintptr_t>(p) + bytes) & ~(kPage - 1);
  bool populated = false;
#if defined(MADV_HUGEPAGE) && defined(MADV_POPULATE_WRITE)
  if (last > first) {
    auto* a = reinterpret_cast<void*>(first);
    madvise(a, last - first, MADV_HUGEPAGE);
    populated = madvise(a, last - first, MADV_POPULATE_WRITE) == 0;
  }
#endif
  if (!populated) {
    volatile char* v = p;
    for (std::size_t i = 0; i < bytes; i += kPage) v[i] = 0;
  }
  std::free(p);
  return true;
#endif
}

}  // namespace dis::cost
