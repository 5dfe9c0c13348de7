// The fault sweep's fork server (test builds only, DIS_FAULT_INJECTION):
// with DIS_FAULT_SERVER=1 in its environment a tool starts once and then
// forks one child per request, so scripts/fault_sweep.py pays process start
// and sanitizer start-up once per sweep, not once per injected failure.
//
// Requests arrive on stdin, one a line, tab-separated:
//   CAGE_K HOST_K REPORT TIMEOUT_S CWD STDIN STDOUT STDERR [ARG...]
// (0: no failure of that kind; "-": no report, no chdir, /dev/null). The
// child takes that working directory and those files, arms the injection as
// DIS_FAULT_CAGE/HOST/REPORT would, and returns to run the tool with ARGs
// as its arguments: its allocations are numbered exactly as a fresh
// process's. The server answers each request on stdout with one line,
// "exit N", "signal N" or "hang" (killed after TIMEOUT_S seconds of its CPU
// time, or ten times that of wall time), and exits when stdin closes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace dis::vm::fault {

// DIS_FAULT_SERVER=1: serves requests until stdin closes, then _exits. Returns
// only in a child, with `args` (argv[0] first) set to the request's and
// `argv` pointing into them, the injection armed as the request says.
void serve(const char* argv0, std::vector<std::string>& args, std::vector<char*>& argv);

// DIS_FAULT_SERVER=program: the tool runs its own arguments up to the start
// of the program (fault::program_starts) and serves from there: it first
// answers "start C H", the counts so far, and a request's CAGE_K and
// HOST_K count from them (the kth allocation after the start is
// C + CAGE_K); ARGs are ignored. A child so skips the options, the VM's
// construction and the tool's start-up. Returns only in a child.
void serve_here(std::uint64_t cage_start, std::uint64_t host_start);

}  // namespace dis::vm::fault
