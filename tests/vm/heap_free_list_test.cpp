// The allocator's free lists and counters: freed blocks are reused last
// freed first, per block size, small and large; a small record from
// new_object is written whole (zero words, H pointer slots) even over a
// reused block's old data; the heap's counters stay exact through long
// alloc/free cycles; trims cut the lists without losing a block below the
// new top; and the verifier notices a damaged free list.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <vector>

#include "heap_verify.h"
#include "runtime.h"
#include "vm.h"

using namespace dis::vm;

namespace {

class HeapFreeList : public ::testing::Test {
 protected:
  VM vm;
  Heap& h = vm.heap();
};

// Host-held blocks have counts no block accounts for: the counts are not checked.
std::vector<std::string> verify(VM& vm) { return verify_heap(vm.runtime(), false).errors; }

TEST_F(HeapFreeList, ReuseIsLastFreedFirstAndPerSize) {
  Ptr a = h.alloc(kTypeWord, 24), b = h.alloc(kTypeWord, 24), c = h.alloc(kTypeWord, 24);
  Ptr other = h.alloc(kTypeWord, 40);
  h.decref(a);
  h.decref(c);
  h.decref(other);
  EXPECT_TRUE(verify(vm).empty());
  const Ptr top = h.top();
  Ptr d = h.alloc(kTypeWord, 32);  // a size with nothing free: from the top
  EXPECT_EQ(d, top + kBlockHeader);
  EXPECT_EQ(h.alloc(kTypeWord, 24), c);
  EXPECT_EQ(h.alloc(kTypeWord, 24), a);
  const Ptr top2 = h.top();
  EXPECT_EQ(h.alloc(kTypeWord, 24), top2 + kBlockHeader);  // list empty again
  EXPECT_EQ(h.alloc(kTypeWord, 40), other);
  (void)b;
  EXPECT_TRUE(verify(vm).empty());
}

TEST_F(HeapFreeList, LargeBlocksAreReusedBySize) {
  Ptr a = h.alloc(kTypeByte, 10000), b = h.alloc(kTypeByte, 10000), c = h.alloc(kTypeByte, 20000);
  h.decref(a);
  h.decref(b);
  h.decref(c);
  EXPECT_TRUE(verify(vm).empty());
  EXPECT_EQ(h.alloc(kTypeByte, 20000), c);
  EXPECT_EQ(h.alloc(kTypeByte, 10000), b);
  EXPECT_EQ(h.alloc(kTypeByte, 10000), a);
  EXPECT_TRUE(verify(vm).empty());
}

// Checks a new record of type t (size bytes, pointer slots ptrs) written
// over the block of a freed one that held other integers.
void expect_fresh_record(VM& vm, std::uint32_t t, std::uint32_t size,
                         const std::vector<std::uint32_t>& ptrs) {
  Heap& h = vm.heap();
  ASSERT_EQ(h.type(t).ptrs, ptrs);
  auto is_ptr = [&](std::uint32_t off) {
    return std::find(ptrs.begin(), ptrs.end(), off) != ptrs.end();
  };
  auto expect_clean = [&](Ptr p) {
    for (std::uint32_t off = 0; off < size; off += 4)
      EXPECT_EQ(ld<Ptr>(h.cage().at(p + off)), is_ptr(off) ? H : 0u) << off;
  };
  Ptr p = h.new_object(t);
  expect_clean(p);
  // Integers in the other words: no child to release, and the stale bytes
  // must not show through the next record in the block.
  for (std::uint32_t off = 0; off < size; off += 4)
    if (!is_ptr(off)) st<std::uint32_t>(h.cage().at(p + off), 0x5A5A5A5A);
  h.decref(p);
  Ptr q = h.new_object(t);
  ASSERT_EQ(q, p);
  expect_clean(q);
  EXPECT_EQ(h.header(q)->ref, 1u);
  EXPECT_EQ(h.header(q)->type, t);
  EXPECT_EQ(h.header(q)->colour, h.mutator_colour());
  h.decref(q);
  EXPECT_TRUE(verify(vm).empty());
}

TEST_F(HeapFreeList, ANewRecordOverAReusedBlockIsZeroWithHPointers) {
  // Pointer words 1, 4 and 9: a small record, written in one pass.
  std::uint32_t small = h.add_type(40, {0x48, 0x40}, "small");
  EXPECT_TRUE(h.type(small).flags & kSmallRecord);
  expect_fresh_record(vm, small, 40, {4, 16, 36});
  // A word past kSmallRecordMax: the general path.
  std::uint32_t big = h.add_type(100, {0x80, 0, 0x01}, "big");
  EXPECT_FALSE(h.type(big).flags & kSmallRecord);
  expect_fresh_record(vm, big, 100, {0, 92});
}

TEST_F(HeapFreeList, ARecordShorterThanItsTypeReleasesOnlyItsOwnSlots) {
  std::uint32_t pair = h.add_type(16, {0xA0}, "pair");  // pointers at 0 and 8
  ASSERT_EQ(h.type(pair).ptrs, (std::vector<std::uint32_t>{0, 8}));
  Ptr child = h.new_object(kTypePtr);
  Ptr shortrec = h.alloc(pair, 8);  // room for the first slot only
  Ptr next = h.alloc(kTypeWord, 8);
  st<Ptr>(h.cage().at(shortrec), child);
  h.incref(child);
  // The word where the type's second slot would be is the next block's
  // count (sanitizer builds: its red zone, which ASan guards): make it look
  // like a reference to child, which a release of that slot would drop.
  if constexpr (kRedZone == 0) {
    ASSERT_EQ(shortrec + 8, next - kBlockHeader);
    h.header(next)->ref = child;
  }
  h.decref(shortrec);
  EXPECT_EQ(h.header(child)->ref, 1u);
  EXPECT_EQ(h.header(child)->magic, kLive);
  if constexpr (kRedZone == 0) h.header(next)->ref = 1;
  EXPECT_TRUE(verify(vm).empty());
}

TEST_F(HeapFreeList, CountersStayExactThroughAllocFreeCycles) {
  const HeapStats base = h.stats();
  std::uint32_t rec = h.add_type(24, {0xC0}, "rec");
  std::mt19937 rng(7);
  std::map<Ptr, std::uint32_t> live;  // block -> its size
  std::uint64_t allocs = 0, frees = 0, allocated = 0, peak_live = 0, live_bytes = 0;
  for (int i = 0; i < 20000; ++i) {
    if (live.empty() || rng() % 3 != 0) {
      Ptr p;
      switch (rng() % 3) {
        case 0:
          p = h.new_object(rec);
          break;
        case 1:
          p = h.alloc(kTypeByte, rng() % 200);
          break;
        default:
          p = h.alloc(kTypeByte, 4000 + rng() % 3 * 1000);  // past the small classes
          break;
      }
      live[p] = h.header(p)->size;
      ++allocs;
      allocated += h.header(p)->size;
      live_bytes += h.header(p)->size;
      peak_live = std::max(peak_live, live_bytes);
    } else {
      auto it = std::next(live.begin(), static_cast<long>(rng() % live.size()));
      live_bytes -= it->second;
      h.decref(it->first);
      live.erase(it);
      ++frees;
    }
  }
  const HeapStats& s = h.stats();
  EXPECT_EQ(s.allocs - base.allocs, allocs);
  EXPECT_EQ(s.frees - base.frees, frees);
  EXPECT_EQ(s.freed_refcount - base.freed_refcount, frees);
  EXPECT_EQ(s.live_blocks - base.live_blocks, live.size());
  EXPECT_EQ(s.bytes_allocated - base.bytes_allocated, allocated);
  EXPECT_EQ(s.bytes_live - base.bytes_live, live_bytes);
  EXPECT_GE(s.bytes_peak, base.bytes_live + peak_live);
  EXPECT_TRUE(verify(vm).empty());
  for (auto& [p, size] : live) h.decref(p);
  EXPECT_EQ(h.stats().live_blocks, base.live_blocks);
  EXPECT_EQ(h.stats().bytes_live, base.bytes_live);
  EXPECT_TRUE(verify(vm).empty());
}

TEST_F(HeapFreeList, ATrimCutsTheListsAndKeepsWhatIsBelow) {
  // Freed cells low in the heap, then a long list above them that goes.
  std::vector<Ptr> low;
  for (int i = 0; i < 8; ++i) low.push_back(h.new_object(kTypePtr));
  Ptr keep = h.new_object(kTypePtr);
  for (int i = 0; i < 8; i += 2) h.decref(low[i]);
  Ptr head = H;
  for (int i = 0; i < 300000; ++i) {
    Ptr c = h.new_object(kTypePtr);
    st<Ptr>(h.cage().at(c), head);
    head = c;
  }
  h.decref(head);
  ASSERT_EQ(h.stats().trims, 1u);
  const Ptr top = h.top();
  EXPECT_EQ(top, keep + 8 + kRedZone);  // cut just above the last live block
  EXPECT_TRUE(verify(vm).empty());
  // The low free cells are still listed, last freed first; then the top.
  for (int i = 6; i >= 0; i -= 2) EXPECT_EQ(h.new_object(kTypePtr), low[i]);
  EXPECT_EQ(h.new_object(kTypePtr), top + kBlockHeader);
  EXPECT_TRUE(verify(vm).empty());
}

TEST_F(HeapFreeList, ADamagedLinkIsNotFollowed) {
  Ptr a = h.alloc(kTypeWord, 24), b = h.alloc(kTypeWord, 24), live = h.alloc(kTypeWord, 24);
  h.decref(b);
  h.decref(a);
  // a links to b; make it name the live block, then an address inside it.
  ASSERT_EQ(h.header(a)->type, b - kBlockHeader);
  h.header(a)->type = live - kBlockHeader;
  EXPECT_EQ(h.alloc(kTypeWord, 24), a);
  const Ptr top = h.top();
  Ptr c = h.alloc(kTypeWord, 24);  // not the live block: the list was dropped
  EXPECT_NE(c, live);
  EXPECT_EQ(c, top + kBlockHeader);
  h.decref(c);
  h.header(c)->type = live - 4;                     // unaligned, inside a live block
  std::uint32_t rec = h.add_type(24, {}, "rec24");  // new_object's path, same size
  EXPECT_EQ(h.new_object(rec), c);
  const Ptr top2 = h.top();
  EXPECT_EQ(h.new_object(rec), top2 + kBlockHeader);
  EXPECT_EQ(h.header(live)->magic, kLive);
  EXPECT_EQ(h.header(live)->ref, 1u);
}

TEST_F(HeapFreeList, TheVerifierFindsADamagedList) {
  Ptr a = h.alloc(kTypeWord, 24), live = h.alloc(kTypeWord, 24);
  h.decref(a);
  ASSERT_TRUE(verify(vm).empty());
  h.header(a)->type = live - kBlockHeader;  // the free a links to a live block
  EXPECT_FALSE(verify(vm).empty());
  h.header(a)->type = a - kBlockHeader;  // a cycle
  EXPECT_FALSE(verify(vm).empty());
  h.header(a)->type = 0;
  EXPECT_TRUE(verify(vm).empty());
  const std::uint64_t n = h.stats().live_blocks;
  const_cast<HeapStats&>(h.stats()).live_blocks = n + 1;  // counters off by one
  EXPECT_FALSE(verify(vm).empty());
  const_cast<HeapStats&>(h.stats()).live_blocks = n;
  EXPECT_TRUE(verify(vm).empty());
}

}  // namespace
