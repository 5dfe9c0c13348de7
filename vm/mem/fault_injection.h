// Fault injection for tests, compiled only into Debug and sanitizer builds
// (DIS_FAULT_INJECTION, set by CMake): the release build has none of it.
// arm() reads the environment and starts counting (a tool calls it first):
//   DIS_FAULT_CAGE=N    the Nth cage allocation (heap object, stack chunk)
//                       raises "out of memory: heap"
//   DIS_FAULT_HOST=N    the Nth host allocation (operator new) throws
//                       std::bad_alloc
//   DIS_FAULT_REPORT=F  at exit, writes "cage C\nhost H\n" to F: how many
//                       allocations of each kind were counted (and
//                       cage_start, host_start: program_starts())
// scripts/fault_sweep.py counts a program's allocations once, then fails
// each in turn.
// With DIS_FAULT_SERVER=1 the tool is instead a fork server for the sweep
// (fault_server.h).
#pragma once

#include <cstdint>
#include <string>

namespace dis::vm::fault {

#if defined(DIS_FAULT_INJECTION)
inline constexpr bool kEnabled = true;
void arm();
// As arm() with those values (0: none; empty: no report), counting from 0
// or from the counts so far.
void arm(std::uint64_t cage_fail, std::uint64_t host_fail, const std::string& report,
         bool from_zero = true);
// The tool starts the program (VM::run_file, run_module): the report's
// cage_start/host_start are the counts so far (what came before is the
// same for every program: options, the VM's construction). Under
// DIS_FAULT_SERVER=program a fork server starts here (fault_server.h).
void program_starts();
// Counts a cage allocation; true when it is the one to fail.
bool cage_alloc_fails();
// Host allocations counted since the last arm() from zero.
std::uint64_t host_allocations();
#else
inline constexpr bool kEnabled = false;
inline void arm() {}
inline void program_starts() {}
constexpr bool cage_alloc_fails() { return false; }
#endif

// A tool's main: arms the injection, runs `run`, and turns a host
// std::bad_alloc outside the program's threads (options, loading,
// compiling, reporting) into status 1 and "TOOL: out of memory"; output
// that could not be written (std::cout failed) ends a run that returned 0
// with status 1 and "TOOL: write error on standard output".
int guarded_main(const char* tool, int (*run)(int, char**), int argc, char** argv);

}  // namespace dis::vm::fault
