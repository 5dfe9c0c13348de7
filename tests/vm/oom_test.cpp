// Out of memory is a Dis exception, never a crash (issue 41): a spawn, a
// frame push, a builtin's allocation, string and array growth each raise
// "out of memory: heap" in the thread that asked, which may catch it and go
// on; uncaught, the program ends with status 1 and the message. And a
// blocked thread costs about its first frame, so 100,000 of them fit in
// the default heap.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "dis_runner.h"

namespace fs = std::filesystem;

namespace {

std::string prog(const std::string& name) {
  return "'" + (fs::path(DIS_SOURCE_DIR) / "tests" / "vm" / "oom" / (name + ".b")).string() + "'";
}

// 100,000 threads block on one channel and are received: the sum of
// 0..99999 in a 32-bit int.
TEST(Oom, HundredThousandBlockedThreadsRun) {
  for (const char* mode : {"dis", "ms"}) {
    distest::Result r = distest::run_dis(std::string("--gc=") + mode + " " + prog("spawn"));
    EXPECT_EQ(r.status, 0) << mode << r.err;
    EXPECT_EQ(r.out, "threads 100000 sum 704982704\n") << mode;
    EXPECT_EQ(r.err, "") << mode;
  }
}

// With a 1 MiB heap the spawns run out of memory: the spawning thread gets
// the exception (uncaught: status 1 and the message), and the threads made
// before it are never run half made.
TEST(Oom, SpawnPastTheLimitEndsCleanlyInEveryMode) {
  for (const char* mode : {"dis", "ms", "stress"}) {
    distest::Result r =
        distest::run_dis(std::string("--heap-limit 1 --gc=") + mode + " " + prog("spawn"));
    EXPECT_EQ(r.status, 1) << mode << r.err;
    EXPECT_EQ(r.out, "") << mode;
    EXPECT_NE(r.err.find("spawn.b:29: out of memory: heap\n"), std::string::npos)
        << mode << ": " << r.err;
  }
}

// Each way of running out is caught and the program goes on; the second
// round shows the memory came back. The threads spawned before the failing
// spawn all run to their end.
TEST(Oom, CaughtAndTheProgramGoesOn) {
  const std::string expected_round =
      "adts: caught out of memory: heap\n"
      "string growth: caught out of memory: heap\n"
      "string append: caught out of memory: heap\n"
      "array growth: caught out of memory: heap\n"
      "builtin: caught out of memory: heap\n";
  for (const char* mode : {"dis", "ms"}) {
    distest::Result r =
        distest::run_dis(std::string("--heap-limit 1 --gc=") + mode + " " + prog("catch"));
    EXPECT_EQ(r.status, 0) << mode << r.err;
    EXPECT_EQ(r.out, expected_round + expected_round +
                         "spawn: caught out of memory: heap\n"
                         "released every thread\n"
                         "still running\n")
        << mode;
    EXPECT_EQ(r.err, "") << mode;
  }
}

// Cycles holding 256 KiB arrays, dropped each round, under a 1 MiB heap:
// an allocation past the limit is tried again after a full collection, so
// every round runs in every mode (under dis and ms one raised before).
TEST(Oom, FullCollectionBeforeOutOfMemory) {
  for (const char* mode : {"dis", "ms", "stress"}) {
    distest::Result r =
        distest::run_dis(std::string("--heap-limit 1 --gc=") + mode + " " + prog("refill"));
    EXPECT_EQ(r.status, 0) << mode << r.err;
    EXPECT_EQ(r.out, "rounds 40 sum 1560\n") << mode;
    EXPECT_EQ(r.err, "") << mode;
  }
}

// The heap's address space at its peak, from --gc-stats.
std::uint64_t extent_peak(const std::string& err) {
  const std::string key = "heap extent-peak ";
  auto at = err.find(key);
  if (at == std::string::npos) return 0;
  return std::stoull(err.substr(at + key.size()));
}

// 20,000 blocked threads: their stacks take well under a KiB each of the
// cage (they took a 64 KiB chunk each, so 65,536 threads filled it).
TEST(Oom, BlockedThreadTakesLittleCage) {
  distest::Result r = distest::run_dis("--gc-stats " + prog("spawn") + " 20000");
  ASSERT_EQ(r.status, 0) << r.err;
  const std::uint64_t peak = extent_peak(r.err);
  ASSERT_GT(peak, 0u) << r.err;
  EXPECT_LT(peak / 20000, 512u) << r.err;
}

// Peak RSS in KiB of `dis args...` run to its end (status 0 required).
long peak_rss_kb(std::vector<std::string> args) {
  args.insert(args.begin(), std::string(DIS_BIN_DIR) + "/dis");
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
  // Under ASan freed memory waits in a quarantine (256 MB) before reuse,
  // which would count as ours: the child runs without one.
  std::vector<std::string> env_text;
  for (char** e = environ; *e; ++e) env_text.emplace_back(*e);
#if defined(DIS_SANITIZE)
  const char* asan = std::getenv("ASAN_OPTIONS");
  std::erase_if(env_text, [](const std::string& e) { return e.starts_with("ASAN_OPTIONS="); });
  env_text.push_back(std::string("ASAN_OPTIONS=") + (asan ? std::string(asan) + ":" : "") +
                     "quarantine_size_mb=0:thread_local_quarantine_size_kb=0");
#endif
  std::vector<char*> envp;
  for (std::string& e : env_text) envp.push_back(e.data());
  envp.push_back(nullptr);
  pid_t pid = 0;
  const int rc = posix_spawn(&pid, argv[0], &fa, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0) return -1;
  int status = 0;
  rusage ru{};
  if (wait4(pid, &status, 0, &ru) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
    return -1;
  return ru.ru_maxrss;
}

// Threads that have ended leave nothing behind: 200,000 spawned and ended
// take about what 2,000 do (each kept its stack records, 1.2 GB in all).
TEST(Oom, EndedThreadsLeaveNothingBehind) {
  const std::string prog = (fs::path(DIS_SOURCE_DIR) / "perf" / "threads" / "spawnexit.b").string();
  for (const char* mode : {"--gc=dis", "--gc=ms"}) {
    const long few = peak_rss_kb({mode, prog, "2000"});
    const long many = peak_rss_kb({mode, prog, "200000"});
    ASSERT_GT(few, 0) << mode;
    ASSERT_GT(many, 0) << mode;
    EXPECT_LT(many - few, 16 * 1024) << mode << ": " << few << " KiB, then " << many << " KiB";
  }
}

#if defined(DIS_FAULT_INJECTION)
// A load that runs out of memory leaves nothing behind: failing each cage
// allocation in turn (vm/mem/fault_injection.h) of a program that loads
// itself three times, every run ends with its output or the message, and
// the heap verifies. The fault sweep found the module data of a load whose
// module object could not be had kept with a count of 1 and no reference.
TEST(Oom, EveryFailedCageAllocationOfALoadLeavesAVerifiedHeap) {
  int k = 1;
  for (; k < 200; ++k) {
    distest::Result r = distest::run_dis("--gc=dis --gc-verify --gc-stats " + prog("reload"),
                                         "DIS_FAULT_CAGE=" + std::to_string(k) + " ");
    EXPECT_NE(r.err.find("gc verify-failures 0\n"), std::string::npos) << k << ": " << r.err;
    if (r.status == 0) break;  // k is past the program's allocations
    EXPECT_EQ(r.status, 1) << k << ": " << r.err;
    EXPECT_NE(r.err.find("out of memory: heap\n"), std::string::npos) << k << ": " << r.err;
  }
  EXPECT_EQ(distest::run_dis(prog("reload")).out, "8\n9\n10\n");
  EXPECT_GT(k, 20);  // the loads' allocations were failed in turn
  EXPECT_LT(k, 200);
}
#endif

}  // namespace
