// What the $Sys builtins share about Sys->FD: an FD object holds a host
// descriptor (or the /dev/busec pseudo-descriptor) and closes it when freed;
// failures set the error string (%r) from errno.
#pragma once

#include <cerrno>
#include <cstdint>

#include "gc.h"
#include "runtime.h"

namespace dis::vm {

constexpr std::int32_t kBusecFd = 1 << 28;  // the /dev/busec pseudo-descriptor

// The descriptor of the ref FD argument at frame offset `off`; raises
// "dereference of nil" for nil or a pointer that is not a heap block.
std::int32_t fd_of(Call& c, std::uint32_t off);

// A new FD object owning host descriptor `fd`.
Ptr new_fd(Impl& vm, std::int32_t fd);

void set_errstr(Impl& vm, int error = errno);

// The first n bytes of byte array a (n clipped to 0..len), as a host pointer.
std::uint8_t* array_bytes(Call& c, Ptr a, std::int32_t& n);

// Opens a host descriptor; when descriptors run out, dropped FDs the collector
// has not reached yet (cycles, or anything under --gc=ms) may hold them, so
// one full collection runs before the single retry.
template <class OpenFn>
int host_open(Impl& vm, OpenFn open_fn) {
  int fd = open_fn();
  if (fd < 0 && (errno == EMFILE || errno == ENFILE) && vm.gc) {
    vm.gc->full_collect(/*safe_point=*/false);
    fd = open_fn();
  }
  return fd;
}

}  // namespace dis::vm
