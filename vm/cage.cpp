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

void Cage::release(Ptr p, std::uint64_t n) {
  const std::uint64_t page = 4096;
  std::uint64_t lo = (std::uint64_t{p} + page - 1) & ~(page - 1);
  std::uint64_t hi = (std::uint64_t{p} + n) & ~(page - 1);
  if (hi > lo) madvise(base_ + lo, hi - lo, MADV_DONTNEED);
}

}  // namespace dis::vm
