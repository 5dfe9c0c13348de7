// What the $Sys builtins share about Sys->FD: an FD object holds a host
// descriptor (or a device's pseudo-descriptor, sys_devices.h) and closes it
// when freed;
// failures set the error string (%r) from errno.
#pragma once

#include <boost/container/flat_map.hpp>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string_view>

#include "sys_devices.h"
#include "vm.h"

namespace dis::vm {

// What $Sys keeps per VM: the type of its FD objects, and the devices.
struct SysState {
  std::uint32_t fd_type = kTypeNone;
  Devices dev;
};
// A $Sys function that uses that state, and one bound to it.
using SysFn = void (*)(Call&, SysState&);
inline NativeFn with_state(const std::shared_ptr<SysState>& sys, SysFn f) {
  return [sys, f](Call& c) { f(c, *sys); };
}

// The descriptor of the ref FD argument at frame offset `off`; raises
// "dereference of nil" for nil or a pointer that is not a heap block.
std::int32_t fd_of(Call& c, std::uint32_t off);

// A new FD object owning host descriptor `fd`.
Ptr new_fd(Call& c, const SysState& sys, std::int32_t fd);

void set_errstr(Call& c, int error = errno);
// The same for an operation on the Dis path `path`: a missing file reads as
// Inferno's "'PATH' file does not exist"; other errors as set_errstr.
void set_path_errstr(Call& c, const std::string& path, int error = errno);

// The first n bytes of byte array a (n clipped to 0..len), as a host pointer.
std::uint8_t* array_bytes(Call& c, Ptr a, std::int32_t& n);

// Opens a host descriptor; when descriptors run out, dropped FDs the collector
// has not reached yet (cycles, or anything under --gc=ms) may hold them, so
// one full collection runs before the single retry.
template <class OpenFn>
int host_open(Call& c, OpenFn open_fn) {
  int fd = open_fn();
  if (fd < 0 && (errno == EMFILE || errno == ENFILE)) {
    c.collector().full_collect(/*safe_point=*/false);
    fd = open_fn();
  }
  return fd;
}

// Rows of a builtin module by name; register_table registers every row of
// its table (builtin_types.h), those without an implementation raising when
// called (the module still links, as against Inferno's tables).
// A flat map: filled once from a list, then only searched.
using Impls = boost::container::flat_map<std::string_view, NativeFn>;
void register_table(VM& vm, std::string_view path, const Impls& impls);

void register_sys(VM& vm, const std::shared_ptr<SysState>& sys);
void register_math(VM& vm);
void register_bench(VM& vm, const std::shared_ptr<SysState>& sys);
// builtins_keyring.cpp: $Keyring, $Crypt, $IPints and $Loader.
void register_crypto_modules(VM& vm);
// builtins_sys_files.cpp: stat, fstat, wstat, fwstat, chdir, dirread.
void add_sys_file_functions(VM& vm, Impls& impls);
// builtins_sys_io.cpp: pipe, pread, pwrite, stream, iounit, fd2path.
void add_sys_io_functions(Impls& impls, const std::shared_ptr<SysState>& sys);
// builtins_math_arrays.cpp: $Math's dot, norm1/2, iamax, sort, gemm and the
// imports and exports.
void add_math_array_functions(Impls& impls);
// Sys->read, which $Bench shares.
NativeFn sys_read_fn(const std::shared_ptr<SysState>& sys);

}  // namespace dis::vm
