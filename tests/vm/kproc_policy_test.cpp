// Kernel processes under the built `dis`: every corpus program and the GC
// programs (cycles, long lists, pointer arrays, channels of pointers between
// threads) give the same output, diagnostics and status under
// --idle-gc=old and fixed, on all processors and with --cpus 1, as in a
// plain run (whose correctness corpus_test and gc_test check).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "dis_runner.h"
#include "shared_corpus.h"

namespace fs = std::filesystem;

namespace {

struct Program {
  std::string name;  // test name
  std::string args;  // the program and its arguments, shell-quoted
};

std::vector<Program> programs() {
  std::vector<Program> v;
  for (auto& e : distest::entries_of(distest::shared_limbo_dir()))
    if (e.is_directory() && fs::exists(e.path() / "expected.out")) {
      std::string n = e.path().filename().string();
      v.push_back({n, "'" + (e.path() / (n + ".dis")).string() + "'"});
    }
  std::sort(v.begin(), v.end(), [](const Program& a, const Program& b) { return a.name < b.name; });
  const fs::path gc = fs::path(DIS_SOURCE_DIR) / "tests" / "vm" / "gc";
  for (auto [file, args] : {std::pair{"cycles", " 20"}, std::pair{"longlist", " 2000"},
                            std::pair{"ptrarray", " 3"}, std::pair{"chanptr", " 300"}})
    v.push_back(
        {std::string("gc_") + file, "'" + (gc / (std::string(file) + ".b")).string() + "'" + args});
  return v;
}

class KprocPolicies : public ::testing::TestWithParam<Program> {};

TEST_P(KprocPolicies, SameResultInEveryPolicyAndOnOneCpu) {
  const distest::Result base = distest::run_dis(GetParam().args);
  for (const char* flags :
       {"--idle-gc=old", "--idle-gc=fixed", "--idle-gc=old --cpus 1", "--idle-gc fixed --cpus 1"}) {
    distest::Result r = distest::run_dis(std::string(flags) + " " + GetParam().args);
    EXPECT_EQ(r.out, base.out) << flags;
    EXPECT_EQ(r.err, base.err) << flags;
    EXPECT_EQ(r.status, base.status) << flags;
  }
}

INSTANTIATE_TEST_SUITE_P(Programs, KprocPolicies, ::testing::ValuesIn(programs()),
                         [](const auto& p) { return p.param.name; });

TEST(KprocOptions, BadValuesAreUsageErrors) {
  const std::string prog =
      "'" + (fs::path(DIS_SOURCE_DIR) / "tests" / "vm" / "gc" / "cycles.b").string() + "' 2";
  EXPECT_EQ(distest::run_dis("--idle-gc=new " + prog).status, 2);
  EXPECT_EQ(distest::run_dis("--cpus 0 " + prog).status, 2);
  distest::Result many = distest::run_dis("--cpus 1024 " + prog);
  EXPECT_EQ(many.status, 2);
  EXPECT_NE(many.err.find("--cpus 1024: cannot confine the VM to 1024 processors"),
            std::string::npos)
      << many.err;
  EXPECT_EQ(many.out, "");
}

}  // namespace
