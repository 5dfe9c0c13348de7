// The write barrier on references that move without an incref: a cons cell
// takes over its destination's reference to the old list. Lists grown in
// module data and in a heap record must keep every cell in every GC mode and
// with the smallest step budget (many steps interleaved with the mutator).
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "dis_runner.h"

namespace {

std::string prog(const std::string& name) {
  return "'" + (std::filesystem::path(DIS_SOURCE_DIR) / "tests" / "vm" / "gc" / name).string() +
         "'";
}

TEST(GcBarrier, ConsIntoModuleDataAndRecordsKeepsEveryCell) {
  for (const char* mode : {"dis", "ms", "stress"})
    for (const char* quanta : {"0", "50"}) {
      // Stress mode collects at every allocation: a shorter run says as much.
      const int n = std::string(mode) == "stress" ? 400 : 3000;
      // len, sum of a[0] = i, len, sum of b[1] = 2i over i < n.
      const long long sum = static_cast<long long>(n) * (n - 1) / 2;
      const std::string want = std::to_string(n) + " " + std::to_string(sum) + " " +
                               std::to_string(n) + " " + std::to_string(2 * sum) + "\n";
      SCOPED_TRACE(std::string(mode) + " quanta " + quanta);
      // The instruction limit turns a list corrupted into a cycle into a
      // failure instead of a hang.
      distest::Result r = distest::run_dis(std::string("--max-instructions 50000000 --gc=") + mode +
                                           " --gc-quanta " + quanta + " " + prog("consbarrier.b") +
                                           " " + std::to_string(n));
      EXPECT_EQ(r.status, 0) << r.err;
      EXPECT_EQ(r.out, want);
    }
}

}  // namespace
