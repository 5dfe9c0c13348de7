// Memory goes back to the system after large frees: when the free space at
// the top of the heap is large, the heap's top comes down and those pages
// are released. Checked with the heap's own accounting (extent, bytes
// returned) and with the kernel's view of the cage's pages (mincore), for a
// reference-count cascade, for the collector's frees (--gc=ms), across a
// collector walk in progress, and for a Limbo program run by `dis`.
#include <gtest/gtest.h>
#include <sys/mman.h>

#include <filesystem>
#include <string>
#include <vector>

#include "dis_runner.h"
#include "gc.h"
#include "heap_verify.h"
#include "runtime.h"
#include "vm.h"

namespace fs = std::filesystem;
using namespace dis::vm;

namespace {

// Bytes of the cage's heap pages [kHeapStart, kHeapStart + n) resident now.
std::uint64_t resident(Heap& h, std::uint64_t n) {
  const std::uint64_t pages = (n + Cage::kPage - 1) / Cage::kPage;
  std::vector<unsigned char> v(pages);
  EXPECT_EQ(mincore(h.cage().at(kHeapStart), pages * Cage::kPage, v.data()), 0);
  std::uint64_t r = 0;
  for (unsigned char c : v) r += (c & 1) ? Cage::kPage : 0;
  return r;
}

// A list of n one-pointer blocks, the newest (highest) first: one reference.
Ptr build_list(Heap& h, int n) {
  Ptr head = H;
  for (int i = 0; i < n; ++i) {
    Ptr c = h.new_object(kTypePtr);
    st<Ptr>(h.cage().at(c), head);  // the list's reference moves into c
    head = c;
  }
  return head;
}

constexpr int kCells = 1000000;
constexpr std::uint64_t kCellBlock = 24 + kRedZone;  // header, one pointer word rounded to 8

TEST(HeapTrim, DroppingALongListReturnsItsPages) {
  VM vm;
  Heap& h = vm.heap();
  const std::uint64_t before = h.stats().extent;
  Ptr head = build_list(h, kCells);
  const std::uint64_t peak = h.stats().extent;
  EXPECT_GE(peak - before, kCells * kCellBlock);
  const std::uint64_t resident_peak = resident(h, peak);
  EXPECT_GE(resident_peak, kCells * kCellBlock);
  h.decref(head);  // one cascade frees every cell, then trims
  EXPECT_EQ(h.stats().live_blocks, 0u);
  EXPECT_EQ(h.stats().trims, 1u);
  EXPECT_EQ(h.stats().extent_peak, peak);
  EXPECT_LE(h.stats().extent, before);
  EXPECT_GE(h.stats().bytes_returned, peak - before - 2 * Cage::kPage);
  EXPECT_LT(resident(h, peak), resident_peak / 20);
  // The heap grows again from its new top, walkable and verified.
  Ptr again = build_list(h, 1000);
  EXPECT_LT(again - kHeapStart, before + 1000 * kCellBlock + 4096);
  EXPECT_TRUE(verify_heap(vm.runtime(), false).errors.empty());
  h.decref(again);
}

TEST(HeapTrim, SmallFreesDoNotTrim) {
  VM vm;
  Heap& h = vm.heap();
  Ptr head = build_list(h, 1000);  // 24 KiB: below the least worth trimming
  const std::uint64_t top = h.top();
  h.decref(head);
  EXPECT_EQ(h.stats().trims, 0u);
  EXPECT_EQ(h.top(), top);
  EXPECT_EQ(build_list(h, 1000), head);  // the free lists are reused instead
}

TEST(HeapTrim, TheCollectorsFreesTrimUnderMarkSweep) {
  Options o;
  o.gc = GcMode::MarkSweep;
  VM vm(o);
  Heap& h = vm.heap();
  const std::uint64_t before = h.stats().extent;
  build_list(h, kCells);  // unreachable at once: only the collector frees it
  const std::uint64_t peak = h.stats().extent;
  const std::uint64_t resident_peak = resident(h, peak);
  vm.runtime().gc->full_collect();
  EXPECT_EQ(h.stats().live_blocks, 0u);
  EXPECT_GE(h.stats().trims, 1u);
  EXPECT_LE(h.stats().extent, before);
  EXPECT_GE(h.stats().bytes_returned, peak - before - 2 * Cage::kPage);
  EXPECT_LT(resident(h, peak), resident_peak / 20);
}

// A trim under the collector's walk moves the walk down with the top: the
// walk must not resume inside blocks laid out afresh above the new top.
TEST(HeapTrim, ACollectorWalkInProgressSurvivesATrim) {
  VM vm;
  Heap& h = vm.heap();
  Collector& gc = *vm.runtime().gc;
  Ptr head = build_list(h, 300000);
  gc.pin(head);
  for (int i = 0; i < 20; ++i) gc.step();  // the walk is part way up the list
  gc.unpin(head);
  h.decref(head);
  ASSERT_GE(h.stats().trims, 1u);
  // Blocks of another size now cover the old walk position.
  std::vector<Ptr> big;
  for (int i = 0; i < 10000; ++i) big.push_back(h.alloc(kTypeWord, 52));
  for (Ptr p : big) gc.pin(p);
  const std::uint64_t passes = gc.stats().passes;
  for (int i = 0; i < 2000 && gc.stats().passes < passes + 2; ++i) gc.step();
  EXPECT_GE(gc.stats().passes, passes + 2);
  EXPECT_TRUE(verify_heap(vm.runtime(), false).errors.empty());
}

std::uint64_t stat(const std::string& err, const std::string& name) {
  auto i = err.find(name + " ");
  if (i == std::string::npos) {
    ADD_FAILURE() << "no " << name << " in:\n" << err;
    return 0;
  }
  return std::strtoull(err.c_str() + i + name.size() + 1, nullptr, 10);
}

TEST(HeapTrim, ALimboProgramsDroppedTreeAndListGoBack) {
  const std::string prog =
      "'" + (fs::path(DIS_SOURCE_DIR) / "tests" / "vm" / "gc" / "dropbig.b").string() + "'";
  distest::Result r = distest::run_dis("--gc-stats " + prog);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "tree 66846720 list 3750000 small 100\n");
  const std::uint64_t peak = stat(r.err, "heap extent-peak");
  const std::uint64_t extent = stat(r.err, "heap extent");
  // 2^19 tree nodes and 500000 list cells of at least 32 bytes each.
  EXPECT_GT(peak, 32u * ((1u << 19) + 500000));
  EXPECT_LT(extent, peak / 20);
  EXPECT_GE(stat(r.err, "heap trims"), 1u);
  EXPECT_GE(stat(r.err, "heap bytes-returned"), (peak - extent) * 9 / 10);
}

}  // namespace
