// Fault injection (fault_injection.h): counters, and the replacement of the
// global operator new that fails the chosen host allocation (only when
// DIS_FAULT_INJECTION is defined); the tools' guarded main.
#include "fault_injection.h"

#include <iostream>
#include <new>

int dis::vm::fault::guarded_main(const char* tool, int (*run)(int, char**), int argc, char** argv) {
  arm();
  try {
    return run(argc, argv);
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
#include <cstdlib>
#include <new>

namespace dis::vm::fault {
namespace {

// Kernel processes allocate on their own host threads: atomic counters.
std::atomic<bool> armed{false};
std::atomic<std::uint64_t> cage_count{0}, host_count{0};
std::uint64_t cage_fail = 0, host_fail = 0;
const char* report_path = nullptr;

std::uint64_t env_number(const char* name) {
  const char* v = std::getenv(name);
  return v ? std::strtoull(v, nullptr, 10) : 0;
}

void write_report() {
  armed = false;
  if (std::FILE* f = std::fopen(report_path, "w")) {
    std::fprintf(f, "cage %llu\nhost %llu\n", static_cast<unsigned long long>(cage_count.load()),
                 static_cast<unsigned long long>(host_count.load()));
    std::fclose(f);
  }
}

}  // namespace

void arm() {
  cage_fail = env_number("DIS_FAULT_CAGE");
  host_fail = env_number("DIS_FAULT_HOST");
  report_path = std::getenv("DIS_FAULT_REPORT");
  if (report_path) std::atexit(write_report);
  armed = true;
}

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
