// Use after free inside our own allocator. In sanitizer builds the free
// blocks are poisoned, so AddressSanitizer stops a read of a freed block (a
// death test); every build checks the allocator's own view of that block
// (no longer a live block, its data reused by the next block of its size).
#include <gtest/gtest.h>

#include "runtime.h"
#include "vm.h"

using namespace dis::vm;

namespace {

// A read through a host pointer the compiler cannot elide.
std::uint32_t read_word(const std::uint8_t* p) {
  return *reinterpret_cast<const volatile std::uint32_t*>(p);
}

TEST(HeapPoison, FreedBlockIsNotLiveAndItsMemoryIsReused) {
  VM vm;
  Heap& h = vm.impl().heap;
  Ptr p = h.alloc(kTypeWord, 32);
  st<std::uint32_t>(h.cage().at(p), 0x1234);
  EXPECT_EQ(read_word(h.cage().at(p)), 0x1234u);
  h.decref(p);
  EXPECT_EQ(h.checked_header(p), nullptr);
  EXPECT_EQ(h.header(p)->magic, kFree);
  Ptr q = h.alloc(kTypeWord, 32);
  EXPECT_EQ(q, p);
  EXPECT_EQ(read_word(h.cage().at(q)), 0u);  // handed out again: cleared and readable
  h.decref(q);
}

#if defined(DIS_SANITIZE)
// Frees a block of `bytes` and reads its data at `at`: ASan must stop it.
void expect_read_after_free_caught(std::uint32_t type, std::uint32_t bytes, std::uint32_t at) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(
      {
        VM vm;
        Heap& h = vm.impl().heap;
        Ptr p = h.alloc(type, bytes);
        h.decref(p);
        std::printf("%u\n", read_word(h.cage().at(p) + at));
      },
      "use-after-poison");
}

TEST(HeapPoisonDeathTest, ReadOfAFreedBlockIsCaught) {
  expect_read_after_free_caught(kTypeWord, 32, 8);
}

TEST(HeapPoisonDeathTest, ReadOfAFreedLargeBlockIsCaught) {
  expect_read_after_free_caught(kTypeByte, 200000, 100000);
}

// A new VM maps its cage where the last one was: no stale poison.
TEST(HeapPoison, ANewCageStartsUnpoisoned) {
  for (int i = 0; i < 3; ++i) {
    VM vm;
    Heap& h = vm.impl().heap;
    std::vector<Ptr> ps;
    for (int j = 0; j < 100; ++j) ps.push_back(h.alloc(kTypeWord, 8 + 8 * j));
    for (Ptr p : ps) h.decref(p);
    Ptr s = h.alloc_stack(4096);
    EXPECT_EQ(read_word(h.cage().at(s) + 4000), 0u);
    h.free_stack(s);
  }
}
#endif

}  // namespace
