// Out of memory while the collector's counters are formatted (`dis
// --gc-stats`): every host allocation of format_gc_stats, failed in turn,
// reaches the caller as std::bad_alloc, never as counters cut short (an
// output stream sets badbit and goes on unless told to throw; the fault
// sweep reads the verifier's counters, which come last). Only fault-
// injection builds (Debug, sanitizers) can fail an allocation on purpose.
#include <gtest/gtest.h>

#include <new>
#include <string>

#include "fault_injection.h"
#include "gc.h"

namespace {

#if defined(DIS_FAULT_INJECTION)

TEST(GcStatsOom, EveryAllocationFailsWholeOrNotAtAll) {
  dis::vm::GcStats s;
  s.verify_runs = 3;
  s.first_verify_error = std::string(300, 'e');  // a line longer than the stream's first buffer
  const std::string whole = dis::vm::format_gc_stats(s);
  ASSERT_NE(whole.find("gc verify-first-error"), std::string::npos);
  std::uint64_t k = 1;
  for (; k < 10000; ++k) {
    dis::vm::fault::arm(0, k, "");
    std::string text;
    bool failed = false;
    try {
      text = dis::vm::format_gc_stats(s);
    } catch (const std::bad_alloc&) {
      failed = true;
    }
    dis::vm::fault::arm(0, 0, "");
    if (!failed) {
      EXPECT_EQ(text, whole) << "allocation " << k;
      break;  // k is past the formatting's allocations
    }
  }
  EXPECT_GT(k, 1u);  // it allocates: the loop failed each allocation in turn
  EXPECT_LT(k, 10000u);
}

#endif

}  // namespace
