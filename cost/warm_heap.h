// Keeps the allocator's heap grown and faulted in, so the costed run and the
// plain runs it is compared with meet the same memory.
//
// A first touch of a page is a page fault, about 10 us under a hypervisor
// with nested paging. The plain runs of --accuracy follow the costed run and
// reuse the heap it grew; the costed run, first, would pay for growing it
// (BASE's `load Samples`: 90 faults, 1.2 ms). warm_heap() touches `bytes` of
// heap once and stops the allocator from giving memory back (glibc mallopt),
// so a run that stays within it never faults on the heap. False when the
// allocator cannot be told (a sanitizer's replaces glibc's): nothing changes.
#pragma once

#include <cstddef>

namespace dis::cost {

bool warm_heap(std::size_t bytes);

}  // namespace dis::cost
