// Fault injection for tests, compiled only into Debug and sanitizer builds
// (DIS_FAULT_INJECTION, set by CMake): the release build has none of it.
// arm() reads the environment and starts counting (a tool calls it first):
//   DIS_FAULT_CAGE=N    the Nth cage allocation (heap object, stack chunk)
//                       raises "out of memory: heap"
//   DIS_FAULT_HOST=N    the Nth host allocation (operator new) throws
//                       std::bad_alloc
//   DIS_FAULT_REPORT=F  at exit, writes "cage C\nhost H\n" to F: how many
//                       allocations of each kind were counted
// scripts/fault_sweep.py counts a program's allocations once, then fails
// each in turn.
#pragma once

namespace dis::vm::fault {

#if defined(DIS_FAULT_INJECTION)
inline constexpr bool kEnabled = true;
void arm();
// Counts a cage allocation; true when it is the one to fail.
bool cage_alloc_fails();
#else
inline constexpr bool kEnabled = false;
inline void arm() {}
constexpr bool cage_alloc_fails() { return false; }
#endif

// A tool's main: arms the injection, runs `run`, and turns a host
// std::bad_alloc outside the program's threads (options, loading,
// compiling, reporting) into status 1 and "TOOL: out of memory".
int guarded_main(const char* tool, int (*run)(int, char**), int argc, char** argv);

}  // namespace dis::vm::fault
