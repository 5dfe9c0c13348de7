#include "warm_heap.h"

#include <gtest/gtest.h>
#include <sys/resource.h>

#include <cstdlib>
#include <vector>

namespace {

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
// A sanitizer's allocator replaces glibc's and ignores mallopt: warm_heap
// says it changed nothing.
TEST(WarmHeap, SaysSoUnderASanitizersAllocator) { EXPECT_FALSE(dis::cost::warm_heap(1 << 20)); }
#else
long minor_faults() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  return ru.ru_minflt;
}

// After warm_heap, a run that allocates and touches less than it warmed
// (here 4 MiB in 64 KiB blocks, 1024 pages) takes no page faults for it.
TEST(WarmHeap, AllocationsWithinTheWarmedHeapTakeNoPageFaults) {
  ASSERT_TRUE(dis::cost::warm_heap(16 << 20));
  std::vector<char*> blocks;
  blocks.reserve(64);
  const long before = minor_faults();
  for (int i = 0; i < 64; ++i) {
    auto* b = static_cast<char*>(std::malloc(64 << 10));
    ASSERT_NE(b, nullptr);
    for (int j = 0; j < (64 << 10); j += 4096) b[j] = static_cast<char>(j);
    blocks.push_back(b);
  }
  const long faults = minor_faults() - before;
  for (char* b : blocks) std::free(b);
  EXPECT_LT(faults, 64) << "1024 pages touched";
}
#endif

}  // namespace
