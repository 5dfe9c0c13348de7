// The sampled heap verifier (Options::gc_verify, `dis --gc-verify[=N]`):
// after every step at N = 1, after every Nth step and every epoch's end
// otherwise, once per full collection, and always at the program's end,
// where a heap that does not verify is caught even if no step ran.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "arrays_lists.h"
#include "assembler.h"
#include "dis_runner.h"
#include "gc.h"
#include "runtime.h"
#include "vm.h"
#include "vm_test_util.h"

using namespace dis::vm;

namespace {

// A pinned 5000-pointer array under --gc=ms with 100-unit steps: a pass
// takes some fifty steps, so most steps end no epoch. Runs two epochs and
// gives (steps, steps that ended an epoch or were an Nth, verify runs).
struct Sampled {
  std::uint64_t steps = 0, expected = 0, runs = 0, failures = 0;
};

Sampled run_sampled(std::uint32_t every) {
  Options o;
  o.gc = GcMode::MarkSweep;
  o.gc_quanta = 100;
  o.gc_verify = every;
  VM vm(o);
  Heap& h = vm.heap();
  Collector& gc = *vm.runtime().gc;
  constexpr int kElems = 5000;
  const Ptr arr = array_new(h, kTypePtr, kElems);
  std::uint8_t* elems = h.cage().at(arr) + kArrayHeader;  // the cage does not move
  for (int i = 0; i < kElems; ++i) st<Ptr>(elems + 4 * i, h.alloc(kTypeWord, 4));
  gc.pin(arr);
  Sampled s;
  const std::uint64_t first = gc.epoch();
  while (gc.epoch() < first + 2) {
    const std::uint64_t before = gc.epoch();
    gc.step();
    const std::uint64_t n = gc.stats().steps;
    if (gc.epoch() != before || n % every == 0) ++s.expected;
  }
  s.steps = gc.stats().steps;
  s.runs = gc.stats().verify_runs;
  s.failures = gc.stats().verify_failures;
  gc.unpin(arr);
  return s;
}

TEST(GcVerify, EveryStepAtOne) {
  Sampled s = run_sampled(1);
  EXPECT_GT(s.steps, 50u);
  EXPECT_EQ(s.runs, s.steps);
  EXPECT_EQ(s.failures, 0u);
}

TEST(GcVerify, EveryNthStepAndEveryEpochEnd) {
  Sampled s = run_sampled(7);
  EXPECT_GT(s.steps, 50u);
  EXPECT_EQ(s.runs, s.expected);
  EXPECT_LT(s.runs, s.steps / 4);  // sampled: far fewer than the steps
  EXPECT_GE(s.runs, 2u);           // the two epoch ends at least
  EXPECT_EQ(s.failures, 0u);
}

TEST(GcVerify, FullCollectionVerifiesOnceAtItsEnd) {
  Options o;
  o.gc_verify = 1u << 30;
  VM vm(o);
  Collector& gc = *vm.runtime().gc;
  gc.full_collect();
  EXPECT_GT(gc.stats().epochs, 1u);  // epochs ended inside: not verified each
  EXPECT_EQ(gc.stats().verify_runs, 1u);
  EXPECT_EQ(gc.stats().verify_count_runs, 1u);
}

// A block whose count nothing holds: the heap does not verify. With the
// collector halted no step runs, so only the verification at the
// program's end can see it.
GcStats run_with_leaked_count(std::uint32_t every) {
  std::ostringstream out, err;
  Options o;
  o.out = &out;
  o.err = &err;
  o.gc_verify = every;
  VM vm(o);
  vm.runtime().gc->halt();
  vm.heap().alloc(kTypeWord, 4);
  RunResult r = vm.run_module(dis::assembly::assemble(vmtest::program(""), "t.s"), "t.s", {"t.s"});
  EXPECT_EQ(r.status, 0) << err.str();
  return vm.stats().gc;
}

TEST(GcVerify, ProgramEndCatchesAHeapThatDoesNotVerify) {
  GcStats s = run_with_leaked_count(1000);
  EXPECT_EQ(s.steps, 0u);
  EXPECT_EQ(s.verify_runs, 1u);
  EXPECT_EQ(s.verify_count_runs, 1u);
  EXPECT_EQ(s.verify_failures, 1u);
  EXPECT_NE(s.first_verify_error.find("count 1, references 0"), std::string::npos)
      << s.first_verify_error;
}

TEST(GcVerify, OffMeansNoVerification) {
  GcStats s = run_with_leaked_count(0);
  EXPECT_EQ(s.verify_runs, 0u);
}

// Out of memory, caught, again and again (tests/vm/oom/catch.b in a 1 MiB
// heap): each handled error's full collection is verified, and the end.
TEST(GcVerify, DisSampledVerifierAfterOutOfMemoryAndAtExit) {
  distest::Result r = distest::run_dis(
      "--gc-verify=1073741824 --gc-stats --heap-limit 1 '" DIS_SOURCE_DIR "/tests/vm/oom/catch.b'");
  EXPECT_EQ(r.status, 0) << r.err;
  auto stat = [&](const std::string& name) {
    const std::string all = "\n" + r.err;  // the counters start the output
    auto i = all.find("\n" + name + " ");
    return i == std::string::npos ? 0ull : std::stoull(all.substr(i + name.size() + 2));
  };
  EXPECT_GT(stat("gc full-collections"), 0u) << r.err;
  EXPECT_GE(stat("gc verify-runs"), stat("gc full-collections") + 1) << r.err;
  EXPECT_LT(stat("gc verify-runs"), stat("gc steps")) << r.err;
  EXPECT_EQ(stat("gc verify-failures"), 0u) << r.err;
}

TEST(GcVerify, DisRefusesABadN) {
  for (const char* bad : {"0", "x", "-2", "1073741825"}) {
    distest::Result r = distest::run_dis(std::string("--gc-verify=") + bad +
                                         " '" DIS_SOURCE_DIR "/samples/hello.b'");
    EXPECT_EQ(r.status, 2) << bad;
    EXPECT_NE(r.err.find("--gc-verify"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(std::string("not '") + bad + "'"), std::string::npos) << r.err;
    EXPECT_EQ(r.out, "");
  }
}

}  // namespace

namespace {

// init's argument list made in a heap it overflows: the strings and cells
// made before the failure are dropped, so the heap verifies at the end
// (found by the fault sweep's verifier: each was left with a count and
// nothing holding it).
TEST(GcVerify, ArgumentsThatOverflowTheHeapLeaveNothingCounted) {
  std::ostringstream out, err;
  Options o;
  o.out = &out;
  o.err = &err;
  o.heap_limit = 1u << 20;
  o.gc_verify = 1u << 30;
  VM vm(o);
  std::vector<std::string> args = {"t.s"};
  for (int i = 0; i < 40; ++i) args.push_back(std::string(64 << 10, 'a'));  // 2.5 MiB
  RunResult r = vm.run_module(dis::assembly::assemble(vmtest::program(""), "t.s"), "t.s", args);
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.message.find("out of memory"), std::string::npos) << r.message;
  GcStats s = vm.stats().gc;
  EXPECT_GE(s.verify_count_runs, 1u);
  EXPECT_EQ(s.verify_failures, 0u) << s.first_verify_error;
}

}  // namespace
