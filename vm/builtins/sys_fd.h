// What the $Sys builtins share about Sys->FD: an FD object holds a number in
// the calling thread's descriptor table (fd_group.h, builtins_sys_fds.cpp),
// whose entry holds a host descriptor or a device's pseudo-descriptor
// (sys_devices.h); failures set the error string (%r) from errno.
#pragma once

#include <sys/types.h>

#include <boost/container/flat_map.hpp>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

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

// The file the ref FD argument at frame offset `off` names in the calling
// thread's table, held for as long as the caller keeps the reference (a
// transfer with the interpreter released keeps it open). A number not open
// there gives a file whose desc is -1 (host calls fail with EBADF), the
// error string set; nil or a pointer that is not a heap block raises
// "dereference of nil".
FileRef file_of(Call& c, std::uint32_t off);

// A new FD object: host (or device) descriptor `desc` put at the lowest free
// number of the calling thread's table, closed when no table holds it any
// more. H with the error string set when the table is full.
Ptr new_fd(Call& c, SysState& sys, std::int32_t desc);

// Writes n bytes to f: a device, the VM's output streams (descriptors 1 and
// 2, keeping the interpreter) or a host descriptor (with the interpreter
// released). The count, or -1 with the error string set.
std::int64_t write_file(Call& c, SysState& sys, const OpenFile& f, const void* p, std::size_t n);

// A write to host descriptor fd that cannot raise SIGPIPE when fd is a socket:
// Dis pipes are socket pairs, and a write whose reader has gone must fail
// (EPIPE) rather than end the whole VM. Other descriptors: plain write(2).
ssize_t host_write(int fd, const void* p, std::size_t n);
// Inferno's answer to EPIPE on a Dis pipe: the exception "write on closed
// pipe" in the writing thread (Inferno's sh and echo catch it by name), the
// error string set to the same.
[[noreturn]] void closed_pipe(Call& c);

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
// builtins_sys_fds.cpp: the Sys.FD type, fildes, dup, pctl.
void add_sys_fd_functions(VM& vm, Impls& impls, const std::shared_ptr<SysState>& sys);
// builtins_sys_files.cpp: stat, fstat, wstat, fwstat, dirread.
void add_sys_file_functions(VM& vm, Impls& impls, const std::shared_ptr<SysState>& sys);
// builtins_sys_ns.cpp: bind, unmount, chdir; and Dis paths through the
// calling thread's name space (name_space.h). The concrete path `path`
// names (for a union directory, its first member); every member of the
// union it names; where create(path) goes ("" with the error string set
// when the union forbids creation); whether a concrete path names a file.
void add_sys_ns_functions(Impls& impls);
std::string resolve_path(Call& c, const std::string& path);
std::vector<std::string> resolve_union(Call& c, const std::string& path);
std::string create_path(Call& c, const std::string& path);
bool concrete_exists(Call& c, const std::string& concrete);
// builtins_sys_io.cpp: pipe, pread, pwrite, stream, iounit, fd2path.
void add_sys_io_functions(Impls& impls, const std::shared_ptr<SysState>& sys);
// builtins_math_arrays.cpp: $Math's dot, norm1/2, iamax, sort, gemm and the
// imports and exports.
void add_math_array_functions(Impls& impls);
// Sys->read, which $Bench shares.
NativeFn sys_read_fn(const std::shared_ptr<SysState>& sys);

}  // namespace dis::vm
