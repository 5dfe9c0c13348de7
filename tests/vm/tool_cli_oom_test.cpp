// Out of memory while a tool reads its command line (isa/tool_cli.h): every
// host allocation of the parse, failed in turn, reaches the caller as
// std::bad_alloc (the tools' guarded main turns it into "TOOL: out of
// memory", status 1), never std::terminate. Only fault-injection builds
// (Debug, sanitizers) can fail an allocation on purpose; the fault sweep
// found CLI11's get_option_no_throw, noexcept yet allocating, this way.
#include <gtest/gtest.h>

#include <new>
#include <string>
#include <vector>

#include "fault_injection.h"

#ifndef DIS_VERSION
#define DIS_VERSION "test"  // the tools get it from CMake
#endif
#include "run_options.h"
#include "tool_cli.h"

namespace {

#if defined(DIS_FAULT_INJECTION)

// Parses dis's shape of command line; false when an allocation failed.
bool parse_dis_line() {
  try {
    dis::cli::Tool tool("dis", "test", "dis [OPTIONS] FILE [ARGS...]");
    std::string file;
    dis::vm::GcMode gc = dis::vm::GcMode::Dis;
    bool stats = false;
    CLI::Option* file_option = tool.app().add_option("-f,--file", file, "the program");
    dis::vm::add_gc_option(tool.app(), gc);
    tool.app().add_flag("--gc-stats", stats, "counters");
    std::vector<std::string> words = {"dis", "--gc-stats", "--gc", "ms", "prog.dis", "a", "--b"};
    std::vector<char*> argv;
    for (std::string& w : words) argv.push_back(w.data());
    std::vector<std::string> rest;
    std::optional<int> rc =
        tool.parse_program(static_cast<int>(argv.size()), argv.data(), file_option, file, rest);
    EXPECT_FALSE(rc.has_value());
    EXPECT_EQ(file, "prog.dis");
    EXPECT_EQ(rest, (std::vector<std::string>{"a", "--b"}));
    EXPECT_EQ(gc, dis::vm::GcMode::MarkSweep);
    EXPECT_TRUE(stats);
    return true;
  } catch (const std::bad_alloc&) {
    return false;
  }
}

TEST(ToolCliOom, EveryAllocationOfTheParseFailsWithBadAlloc) {
  std::uint64_t k = 1;
  for (; k < 100000; ++k) {
    dis::vm::fault::arm(0, k, "");
    const bool parsed = parse_dis_line();
    dis::vm::fault::arm(0, 0, "");
    if (parsed) break;  // k is past the parse's allocations
  }
  EXPECT_GT(k, 20u);  // the parse allocates: the loop failed each allocation in turn
  EXPECT_LT(k, 100000u);
}

#endif

}  // namespace
