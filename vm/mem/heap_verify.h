// A heap verifier for tests and the debug mode (Options::gc_verify): walks
// every block, checks headers, follows every pointer reachable from the
// roots, and recounts references.
//
// Errors reported: a malformed block header or heap walk; a free list
// entry that is not a free block of the list's size, or free lists that do
// not hold every free block exactly once (Heap::unlisted_free() of them may
// be on none); heap stats (live blocks, bytes
// live) that differ from the walk; a reachable
// pointer that is not a live block, or a field of the wrong kind (an array's
// root that is not an array, a module or channel whose host entry is gone);
// a reachable block of the sweeper colour (the collector would free it); and,
// with check_counts, a reference count different from the number of
// references held by live blocks and frames (module objects, which the VM
// itself also holds, only need at least that many).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "heap.h"

namespace dis::vm {

struct HeapVerifyResult {
  std::vector<std::string> errors;  // at most 20
  std::uint64_t live_blocks = 0, reachable_blocks = 0;
  bool ok() const { return errors.empty(); }
};

// `host` gives the roots and the host side of channels and modules; a
// reachable block of colour `sweeper` is an error (0xFF: no collector).
HeapVerifyResult verify_heap(Heap& heap, HeapHooks& host, std::uint8_t sweeper, bool check_counts);

}  // namespace dis::vm
