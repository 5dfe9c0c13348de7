// Fault injection (fault_injection.h): counters, and the replacement of the
// global operator new that fails the chosen host allocation (only when
// DIS_FAULT_INJECTION is defined); the tools' guarded main.
#include "fault_injection.h"

#include <csignal>
#include <cstdlib>
#include <iostream>
#include <new>
#include <string>
#include <vector>

#include "fault_server.h"

int dis::vm::fault::guarded_main(const char* tool, int (*run)(int, char**), int argc, char** argv) {
  arm();
  // `dis prog | head` ends quietly, as other Unix tools do, even when started
  // with SIGPIPE ignored. Dis pipes (socket pairs) never raise it: a write
  // there whose reader has gone fails instead (sys_fd.h, host_write).
  std::signal(SIGPIPE, SIG_DFL);
  std::vector<std::string> served;  // a fork server's child: the request's arguments
  std::vector<char*> served_argv;
  if constexpr (kEnabled) {
    if (const char* server = std::getenv("DIS_FAULT_SERVER"); server && *server == '1') {
      serve(argv[0], served, served_argv);
      argc = static_cast<int>(served.size());
      argv = served_argv.data();
    }
  }
  try {
    const int rc = run(argc, argv);
    if (!std::cout.flush()) {
      // The program's writes failed (a full disk, a closed pipe): its output
      // is cut short, so the run did not do its job whatever it returned.
      std::cerr << tool << ": write error on standard output\n";
      return rc != 0 ? rc : 1;
    }
    return rc;
  } catch (const std::bad_alloc&) {
    std::cout.flush();
    std::cerr << tool << ": out of memory\n";
    return 1;
  }
}

#if defined(DIS_FAULT_INJECTION)

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <string_view>

namespace dis::vm::fault {
namespace {

// Kernel processes allocate on their own host threads: atomic counters.
std::atomic<bool> armed{false};
std::atomic<std::uint64_t> cage_count{0}, host_count{0};
std::uint64_t cage_fail = 0, host_fail = 0;
std::string report_path;  // empty: no report
bool report_registered = false;
bool started = false;  // program_starts() was called
std::uint64_t cage_start = 0, host_start = 0;

std::uint64_t env_number(const char* name) {
  const char* v = std::getenv(name);
  return v ? std::strtoull(v, nullptr, 10) : 0;
}

void write_report() {
  armed = false;
  if (std::FILE* f = std::fopen(report_path.c_str(), "w")) {
    auto ull = [](std::uint64_t n) { return static_cast<unsigned long long>(n); };
    std::fprintf(f, "cage %llu\nhost %llu\ncage_start %llu\nhost_start %llu\n",
                 ull(cage_count.load()), ull(host_count.load()), ull(cage_start), ull(host_start));
    std::fclose(f);
  }
}

}  // namespace

void arm() {
  const char* report = std::getenv("DIS_FAULT_REPORT");
  arm(env_number("DIS_FAULT_CAGE"), env_number("DIS_FAULT_HOST"), report ? report : "");
}

void arm(std::uint64_t cage, std::uint64_t host, const std::string& report, bool from_zero) {
  armed = false;  // the path's copy is not the program's allocation
  report_path = report;
  if (!report_path.empty() && !report_registered) {
    std::atexit(write_report);
    report_registered = true;
  }
  cage_fail = cage;
  host_fail = host;
  if (from_zero) cage_count = 0, host_count = 0;
  armed = true;
}

void program_starts() {
  if (started || !armed) return;
  started = true;
  cage_start = cage_count;
  host_start = host_count;
  const char* server = std::getenv("DIS_FAULT_SERVER");
  if (server && std::string_view(server) == "program") {
    armed = false;  // the server's own allocations are not the child's
    serve_here(cage_start, host_start);
  }
}

std::uint64_t host_allocations() { return host_count.load(); }

bool cage_alloc_fails() {
  if (!armed.load(std::memory_order_relaxed)) return false;
  return cage_count.fetch_add(1, std::memory_order_relaxed) + 1 == cage_fail;
}

bool host_alloc_fails() {
  if (!armed.load(std::memory_order_relaxed)) return false;
  return host_count.fetch_add(1, std::memory_order_relaxed) + 1 == host_fail;
}

}  // namespace dis::vm::fault

// The replaceable allocation functions. Every form a plain delete may free
// is replaced, the nothrow ones too (std::stable_sort's buffer): under ASan
// a library new freed by this free() is reported as a mismatch. The aligned
// forms keep the library's, which pair with its own aligned deletes.
void* operator new(std::size_t n) {
  if (dis::vm::fault::host_alloc_fails()) throw std::bad_alloc();
  if (n == 0) n = 1;
  for (;;) {
    if (void* p = std::malloc(n)) return p;
    std::new_handler h = std::get_new_handler();
    if (!h) throw std::bad_alloc();
    h();
  }
}
void* operator new[](std::size_t n) { return ::operator new(n); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
  try {
    return ::operator new(n);
  } catch (const std::bad_alloc&) {
    return nullptr;
  }
}
void* operator new[](std::size_t n, const std::nothrow_t& t) noexcept {
  return ::operator new(n, t);
}
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }

#endif
