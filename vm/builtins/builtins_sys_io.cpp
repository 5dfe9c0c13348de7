// $Sys pipes and positioned or bulk I/O on host descriptors: pipe, pread,
// pwrite, stream, iounit, fd2path. Transfers block, so they run with the
// interpreter released (Call::blocking), like read and write; output to fds 1
// and 2 goes through the VM's streams, which keep the interpreter.
#include <fcntl.h>
#include <limits.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "arrays_lists.h"
#include "sys_fd.h"

namespace dis::vm {

namespace {

// pipe(fds: array of ref FD): int. Fewer than two slots: -1, as Inferno.
// Inferno's pipes carry data both ways (what p[0] writes p[1] reads, and
// the reverse): a host socket pair, not a one-way host pipe.
void sys_pipe(Call& c, SysState& sys) {
  Ptr a = c.arg_ptr(32);
  ArrayRef r = array_ref(c.heap(), a);
  if (r.len < 2) {
    c.ret_int(-1);
    return;
  }
  int fds[2];
  int ok = host_open(c, [&] { return ::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds); });
  if (ok < 0) {
    set_errstr(c);
    c.ret_int(-1);
    return;
  }
  Heap& h = c.heap();
  for (int i = 0; i < 2; ++i) {
    // A new block has the mutator's colour: storing it needs no barrier.
    Ptr fd = new_fd(c, sys, fds[i]);
    std::uint8_t* slot = h.cage().at(r.data) + 4 * i;
    Ptr old = ld<Ptr>(slot);
    st<Ptr>(slot, fd);
    h.decref(old);
  }
  c.ret_int(0);
}

// pread/pwrite(fd, buf, n, off: big): int.
void positioned(Call& c, SysState& sys, bool write) {
  FileRef file = file_of(c, 32);
  std::int32_t fd = file->desc;
  std::int32_t n = c.arg_int(40);
  std::uint8_t* p = array_bytes(c, c.arg_ptr(36), n);
  std::int64_t off = c.arg_big(48);
  if (is_device_fd(fd)) {
    c.ret_int(static_cast<std::int32_t>(write ? sys.dev.write(c, fd, p, n, off)
                                              : sys.dev.read(c, fd, p, n, off)));
    return;
  }
  ssize_t r = 0;
  int error = 0;
  c.blocking([&] {
    r = write ? ::pwrite(fd, p, static_cast<std::size_t>(n), static_cast<off_t>(off))
              : ::pread(fd, p, static_cast<std::size_t>(n), static_cast<off_t>(off));
    error = errno;
  });
  if (r < 0) set_errstr(c, error);
  c.ret_int(static_cast<std::int32_t>(r));
}

void sys_pread(Call& c, SysState& sys) { positioned(c, sys, false); }
void sys_pwrite(Call& c, SysState& sys) { positioned(c, sys, true); }

// stream(src, dst: ref FD, bufsiz: int): int -- copies until end of file;
// the bytes copied, or -1 on an error.
void sys_stream(Call& c) {
  FileRef src_file = file_of(c, 32), dst_file = file_of(c, 36);
  std::int32_t src = src_file->desc, dst = dst_file->desc;
  std::int32_t bufsiz = c.arg_int(40);
  if (is_device_fd(src) || is_device_fd(dst)) {
    set_errstr(c, EINVAL);
    c.ret_int(-1);
    return;
  }
  constexpr std::int32_t kMaxBuf = 64 * 1024;
  std::vector<char> buf(static_cast<std::size_t>(bufsiz < 1 ? 1 : std::min(bufsiz, kMaxBuf)));
  const bool to_vm_stream = dst == 1 || dst == 2;
  std::int64_t total = 0;
  for (;;) {
    ssize_t got = 0;
    int error = 0;
    c.blocking([&] {
      got = ::read(src, buf.data(), buf.size());
      error = errno;
    });
    if (got > 0 && to_vm_stream) {
      if (c.write_fd(dst, buf.data(), static_cast<std::size_t>(got)) < 0) got = -1, error = errno;
    } else if (got > 0) {
      c.blocking([&] {
        for (ssize_t done = 0; done < got;) {
          ssize_t w = host_write(dst, buf.data() + done, static_cast<std::size_t>(got - done));
          if (w < 0) {
            got = -1, error = errno;
            break;
          }
          done += w;
        }
      });
    }
    if (got < 0 && error == EPIPE && !to_vm_stream) closed_pipe(c);
    if (got < 0) {
      set_errstr(c, error);
      c.ret_int(-1);
      return;
    }
    if (got == 0) break;
    total += got;
  }
  c.ret_int(static_cast<std::int32_t>(total));
}

// iounit(fd): int -- the largest transfer the descriptor performs atomically:
// PIPE_BUF for a pipe (a socket pair) or a host FIFO, 0 (no limit known)
// otherwise.
void sys_iounit(Call& c) {
  FileRef file = file_of(c, 32);
  std::int32_t fd = file->desc;
  struct stat s {};
  if (!is_device_fd(fd) && ::fstat(fd, &s) == 0 && (S_ISFIFO(s.st_mode) || S_ISSOCK(s.st_mode))) {
    c.ret_int(PIPE_BUF);
    return;
  }
  c.ret_int(0);
}

// fd2path(fd): string -- the name the host gives the open file; nil with %r
// set when it has none.
void sys_fd2path(Call& c, SysState& sys) {
  FileRef file = file_of(c, 32);
  std::int32_t fd = file->desc;
  if (is_device_fd(fd)) {
    c.ret_string(sys.dev.path(fd));
    return;
  }
  std::string link = "/proc/self/fd/" + std::to_string(fd);
  std::vector<char> buf(PATH_MAX);
  ssize_t n = ::readlink(link.c_str(), buf.data(), buf.size());
  if (n < 0) {
    set_errstr(c);
    c.ret_ptr(H);
    return;
  }
  c.ret_string(std::string_view(buf.data(), static_cast<std::size_t>(n)));
}

}  // namespace

void add_sys_io_functions(Impls& impls, const std::shared_ptr<SysState>& sys) {
  impls["pipe"] = with_state(sys, sys_pipe);
  impls["pread"] = with_state(sys, sys_pread);
  impls["pwrite"] = with_state(sys, sys_pwrite);
  impls["stream"] = sys_stream;
  impls["iounit"] = sys_iounit;
  impls["fd2path"] = with_state(sys, sys_fd2path);
}

}  // namespace dis::vm
