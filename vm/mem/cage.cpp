#include "cage.h"

#include <sys/mman.h>

#include <new>

namespace dis::vm {

Cage::Cage() {
  void* p = mmap(nullptr, kSize + kGuard, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) throw std::bad_alloc();
  base_ = static_cast<std::uint8_t*>(p);
}

Cage::~Cage() { munmap(base_, kSize + kGuard); }

std::uint64_t Cage::release(Ptr p, std::uint64_t n) {
  const std::uint64_t span = page_span(p, n);
  if (span == 0) return 0;
  const std::uint64_t lo = (std::uint64_t{p} + kPage - 1) & ~(kPage - 1);
  madvise(base_ + lo, span, MADV_DONTNEED);
  return span;
}

}  // namespace dis::vm
