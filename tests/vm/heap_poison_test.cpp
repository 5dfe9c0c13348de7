// Use after free and overruns inside our own allocator. In sanitizer builds
// the free blocks and the red zone ending every live block are poisoned, so
// AddressSanitizer stops a read of a freed block or a write past a live
// block's end (death tests); every build checks the allocator's own view
// (a freed block is no longer live, its data reused by the next block of its
// size; a block's room is what was asked, rounded to 8, and no more).
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
  Heap& h = vm.heap();
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

TEST(HeapPoison, ABlocksRoomEndsWhereItsRedZoneBegins) {
  VM vm;
  Heap& h = vm.heap();
  Ptr a = h.alloc(kTypeByte, 21), b = h.alloc(kTypeByte, 21);
  EXPECT_EQ(block_room(*h.header(a)), 24u);
  EXPECT_EQ(b - a, kBlockHeader + 24 + kRedZone);
  EXPECT_EQ(h.header(a)->size, b - a);
  Ptr s = h.alloc_stack(100);
  EXPECT_EQ(block_room(*h.header(s)), 104u);
  h.free_stack(s);
  h.decref(a);
  h.decref(b);
}

#if defined(DIS_SANITIZE)
static_assert(kRedZone >= 8, "sanitizer builds end every block with a red zone");

// A write just past the room of a live block (into its red zone, before
// the next block's header): ASan must stop it. `reuse` takes the block
// from the free list instead of the top of the heap.
void expect_overrun_caught(std::uint32_t bytes, bool reuse) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(
      {
        VM vm;
        Heap& h = vm.heap();
        Ptr p = h.alloc(kTypeByte, bytes);
        if (reuse) {
          h.decref(p);
          p = h.alloc(kTypeByte, bytes);
        }
        Ptr next = h.alloc(kTypeByte, bytes);
        std::uint8_t* end = h.cage().at(p) + block_room(*h.header(p));
        *reinterpret_cast<volatile std::uint32_t*>(end) = 0xDEAD;
        std::printf("%u %u\n", read_word(end), next);
      },
      "use-after-poison");
}

TEST(HeapPoisonDeathTest, OverrunOfALiveBlockIsCaught) { expect_overrun_caught(24, false); }

TEST(HeapPoisonDeathTest, OverrunOfAReusedBlockIsCaught) { expect_overrun_caught(24, true); }

TEST(HeapPoisonDeathTest, OverrunOfALargeBlockIsCaught) { expect_overrun_caught(200000, false); }

// Frees a block of `bytes` and reads its data at `at`: ASan must stop it.
void expect_read_after_free_caught(std::uint32_t type, std::uint32_t bytes, std::uint32_t at) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(
      {
        VM vm;
        Heap& h = vm.heap();
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
    Heap& h = vm.heap();
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
