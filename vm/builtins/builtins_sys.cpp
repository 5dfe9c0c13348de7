// $Sys: printing, strings and UTF-8, files on the host file system (relative
// to the working directory), time. Registered through the embedding API with
// the rows of builtin_types (Inferno's signatures and frames); functions not
// implemented here raise "sys: not implemented" when called.
#include <fcntl.h>
#include <sched.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iostream>
#include <map>
#include <thread>

#include "builtin_types.h"
#include "builtins.h"
#include "format.h"
#include "sys_fd.h"

namespace dis::vm {

// The varargs of a print-family call, read from the caller-built frame.
class FrameArgs : public FormatArgs {
 public:
  FrameArgs(Call& c, std::uint32_t start) : c_(c), off_(start) {
    Ptr f = c.frame_ptr();
    BlockHeader* h = nullptr;
    (void)h;
    // The frame's size bounds the arguments (its type is in the header word).
    std::uint32_t t = ld<std::uint32_t>(c.frame() + 12);
    end_ = t < c.heap().num_types() ? c.heap().type(t).size : start;
    (void)f;
  }
  std::int32_t next_int() override {
    align(4);
    if (off_ + 4 > end_) return 0;
    std::int32_t v = c_.arg_int(off_);
    off_ += 4;
    return v;
  }
  std::int64_t next_big() override {
    align(8);
    if (off_ + 8 > end_) return 0;
    std::int64_t v = c_.arg_big(off_);
    off_ += 8;
    return v;
  }
  double next_real() override {
    align(8);
    if (off_ + 8 > end_) return 0;
    double v = c_.arg_real(off_);
    off_ += 8;
    return v;
  }
  std::string next_string() override {
    align(4);
    if (off_ + 4 > end_) return "";
    std::string v = c_.arg_string(off_);
    off_ += 4;
    return v;
  }
  HeapInfo next_heap() override {
    align(4);
    HeapInfo h;
    if (off_ + 4 > end_) return h;
    Ptr p = c_.arg_ptr(off_);
    off_ += 4;
    if (BlockHeader* b = p == H ? nullptr : c_.heap().checked_header(p)) {
      h.ref = static_cast<std::int32_t>(b->ref);
      h.type = b->type;
    }
    return h;
  }
  bool exhausted() const override { return off_ >= end_; }

 private:
  void align(std::uint32_t a) { off_ = (off_ + a - 1) & ~(a - 1); }
  Call& c_;
  std::uint32_t off_;
  std::uint32_t end_;
};

void set_errstr(Call& c, int error) { c.set_error_string(std::strerror(error)); }

void set_path_errstr(Call& c, const std::string& path, int error) {
  if (error == ENOENT)
    c.set_error_string("'" + path + "' file does not exist");
  else
    set_errstr(c, error);
}

std::uint8_t* array_bytes(Call& c, Ptr a, std::int32_t& n) {
  ArrayRef r = array_ref(c.heap(), a);
  if (n > r.len) n = r.len;
  if (n < 0) n = 0;
  return c.heap().cage().at(r.data);
}

std::int64_t write_file(Call& c, SysState& sys, const OpenFile& f, const void* p, std::size_t n) {
  const auto* bytes = static_cast<const std::uint8_t*>(p);
  if (f.desc < 0) return -1;  // not open: file_of set the error string
  if (is_device_fd(f.desc)) return sys.dev.write(c, f.desc, bytes, static_cast<std::int32_t>(n));
  std::int64_t r = 0;
  int error = 0;
  if (f.desc == 1 || f.desc == 2) {
    r = c.write_fd(f.desc, p, n);
    error = errno;
  } else {
    c.blocking([&] {
      r = host_write(f.desc, p, n);
      error = errno;
    });
    if (r < 0 && error == EPIPE) closed_pipe(c);
  }
  if (r < 0) set_errstr(c, error);
  return r;
}

ssize_t host_write(int fd, const void* p, std::size_t n) {
  ssize_t r = ::send(fd, p, n, MSG_NOSIGNAL);
  if (r >= 0 || errno != ENOTSOCK) return r;
  return ::write(fd, p, n);
}

void closed_pipe(Call& c) {
  static const std::string kWhy = "write on closed pipe";
  c.set_error_string(kWhy);
  c.raise(kWhy);
}

namespace {

std::string do_format(Call& c, std::uint32_t fmt_off) {
  FrameArgs args(c, fmt_off + 4);
  return format(c.arg_string(fmt_off), args, c.error_string());
}

// print writes to descriptor 1 of the calling thread's table, wherever dup
// has pointed it.
void sys_print(Call& c, SysState& sys) {
  std::string s = do_format(c, 32);
  FileRef f = c.fd_group()->get(1);
  std::int64_t r = f ? write_file(c, sys, *f, s.data(), s.size()) : -1;
  c.ret_int(static_cast<std::int32_t>(r < 0 ? -1 : r));
}

void sys_fprint(Call& c, SysState& sys) {
  FileRef f = file_of(c, 32);
  std::string s = do_format(c, 36);
  std::int64_t r = write_file(c, sys, *f, s.data(), s.size());
  c.ret_int(static_cast<std::int32_t>(r < 0 ? -1 : r));
}

void sys_sprint(Call& c) { c.ret_string(do_format(c, 32)); }

void sys_aprint(Call& c) {
  std::string s = do_format(c, 32);
  c.ret_ptr(array_of_bytes(c.heap(), s.data(), s.size()));
}

// byte2char(buf, n): (char, bytes used, valid). As Inferno: fewer bytes
// than the first announces give (Runeerror, 0, 0); an invalid sequence
// (Runeerror, 1, 0).
void sys_byte2char(Call& c) {
  Ptr a = c.arg_ptr(32);
  std::int32_t n = c.arg_int(36);
  ArrayRef r = array_ref(c.heap(), a);
  if (n < 0 || n >= r.len) c.raise("array bounds error");
  const std::uint8_t* p = c.heap().cage().at(r.data) + n;
  const auto avail = static_cast<std::size_t>(r.len - n);
  std::uint32_t rune = kRuneError;
  std::int32_t len = 0, status = 0;
  if (utf8_announced_len(p[0]) <= avail) {
    len = utf8_decode(p, avail, rune);
    status = rune == kRuneError && len == 1 ? 0 : 1;
  }
  if (auto* res = c.result()) {
    st<std::int32_t>(res, static_cast<std::int32_t>(rune));
    st<std::int32_t>(res + 4, len);
    st<std::int32_t>(res + 8, status);
  }
}

// char2byte(c, buf, n): the bytes written, 0 when they do not fit. As
// Inferno: n must index buf, and c < 0 or c >= 16r10FFFF is Runeerror.
void sys_char2byte(Call& c) {
  std::int32_t ch = c.arg_int(32);
  Ptr a = c.arg_ptr(36);
  std::int32_t n = c.arg_int(40);
  ArrayRef r = array_ref(c.heap(), a);
  if (n < 0 || n >= r.len) c.raise("array bounds error");
  if (ch < 0 || static_cast<std::uint32_t>(ch) >= kRuneMax)
    ch = static_cast<std::int32_t>(kRuneError);
  std::string u;
  utf8_append(u, static_cast<std::uint32_t>(ch));
  if (static_cast<std::int64_t>(u.size()) > r.len - n) {
    c.ret_int(0);
    return;
  }
  std::memcpy(c.heap().cage().at(r.data) + n, u.data(), u.size());
  c.ret_int(static_cast<std::int32_t>(u.size()));
}

// utfbytes(buf, n): the bytes of buf[0:n] up to an incomplete last
// character; n beyond buf is a bounds error, as Inferno.
void sys_utfbytes(Call& c) {
  Ptr a = c.arg_ptr(32);
  std::int32_t n = c.arg_int(36);
  ArrayRef r = array_ref(c.heap(), a);
  if (n < 0 || n > r.len) c.raise("array bounds error");
  const char* p = reinterpret_cast<const char*>(c.heap().cage().at(r.data));
  c.ret_int(static_cast<std::int32_t>(
      utf8_complete_prefix(std::string_view(p, static_cast<std::size_t>(n)))));
}

void sys_tokenize(Call& c) {
  std::u32string s = str_runes(c.heap(), c.arg_ptr(32));
  std::u32string delim = str_runes(c.heap(), c.arg_ptr(36));
  std::vector<std::u32string> toks;
  std::size_t i = 0;
  // Inferno: no delimiters ("" is nil), no tokens.
  while (!delim.empty() && i < s.size()) {
    while (i < s.size() && delim.find(s[i]) != std::u32string::npos) ++i;
    if (i >= s.size()) break;
    std::size_t j = i;
    while (j < s.size() && delim.find(s[j]) == std::u32string::npos) ++j;
    toks.push_back(s.substr(i, j - i));
    i = j;
  }
  Ptr list = list_of_new(c.heap(), toks.size(),
                         [&](std::size_t k) { return str_from_runes(c.heap(), toks[k]); });
  if (auto* r = c.result()) st<std::int32_t>(r, static_cast<std::int32_t>(toks.size()));
  c.ret_ptr(list, 4);
}

int open_flags(std::int32_t mode) {
  int f;
  switch (mode & 3) {
    case 0:
      f = O_RDONLY;
      break;
    case 1:
      f = O_WRONLY;
      break;
    default:
      f = O_RDWR;
  }
  if (mode & 16) f |= O_TRUNC;  // Sys->OTRUNC
  return f | O_CLOEXEC;
}

// A union directory's first member opens; dirread goes on to the others.
void sys_open(Call& c, SysState& sys) {
  std::string path = c.arg_string(32);
  std::int32_t mode = c.arg_int(36);
  std::vector<std::string> members = resolve_union(c, path);
  std::optional<std::int32_t> dev = sys.dev.open(c, members.front());
  if (dev && *dev < 0) return c.ret_ptr(H);
  int fd = dev ? *dev : -1;
  if (!dev) {
    const std::string host = c.host_path(members.front());
    fd = host_open(c, [&] { return ::open(host.c_str(), open_flags(mode)); });
    if (fd < 0) {
      set_path_errstr(c, path);
      c.ret_ptr(H);
      return;
    }
  }
  // "/" lists the VM's device directories too ("#/", sys_devices.h).
  if (members.back() == "/") members.push_back("#/");
  if (members.size() > 1) sys.dev.set_union(fd, {members.begin() + 1, members.end()});
  c.ret_ptr(new_fd(c, sys, fd));
}

void sys_create(Call& c, SysState& sys) {
  std::string path = c.arg_string(32);
  std::int32_t mode = c.arg_int(36);
  std::int32_t perm = c.arg_int(40);
  const std::string to = create_path(c, path);
  if (to.empty()) return c.ret_ptr(H);
  const std::string host = c.host_path(to);
  int fd;
  if (perm & static_cast<std::int32_t>(0x80000000u))  // Sys->DMDIR
    fd = ::mkdir(host.c_str(), static_cast<mode_t>(perm & 0777)) == 0
             ? ::open(host.c_str(), O_RDONLY | O_CLOEXEC)
             : -1;
  else
    fd = host_open(c, [&] {
      return ::open(host.c_str(), open_flags(mode) | O_CREAT | O_TRUNC,
                    static_cast<mode_t>(perm & 0777));
    });
  if (fd < 0) {
    set_path_errstr(c, path);
    c.ret_ptr(H);
    return;
  }
  c.ret_ptr(new_fd(c, sys, fd));
}

// Reads, writes and seeks of files and devices block: they run with the
// interpreter released (Call::blocking), as Inferno's Sys_read does, so other
// Dis threads or idle GC run meanwhile. Output to fds 1 and 2 goes to the
// VM's streams, which are VM state: it keeps the interpreter.
void sys_read(Call& c, SysState& sys) {
  FileRef file = file_of(c, 32);
  std::int32_t fd = file->desc;
  Ptr a = c.arg_ptr(36);
  std::int32_t n = c.arg_int(40);
  std::uint8_t* p = array_bytes(c, a, n);
  if (fd < 0) return c.ret_int(-1);  // not open: file_of set the error string
  if (is_device_fd(fd)) {
    c.ret_int(static_cast<std::int32_t>(sys.dev.read(c, fd, p, n)));
    return;
  }
  if (fd == 1 || fd == 2) c.flush_output();
  ssize_t r = 0;
  int error = 0;
  c.blocking([&] {
    r = ::read(fd, p, static_cast<std::size_t>(n));
    error = errno;
  });
  if (r < 0) set_errstr(c, error);
  c.ret_int(static_cast<std::int32_t>(r));
}

void sys_write(Call& c, SysState& sys) {
  FileRef file = file_of(c, 32);
  Ptr a = c.arg_ptr(36);
  std::int32_t n = c.arg_int(40);
  std::uint8_t* p = array_bytes(c, a, n);
  c.ret_int(static_cast<std::int32_t>(write_file(c, sys, *file, p, static_cast<std::size_t>(n))));
}

void sys_seek(Call& c, SysState& sys) {
  FileRef file = file_of(c, 32);
  std::int32_t fd = file->desc;
  std::int64_t off = c.arg_big(40);
  std::int32_t start = c.arg_int(48);
  int whence = start == 1 ? SEEK_CUR : start == 2 ? SEEK_END : SEEK_SET;
  if (is_device_fd(fd)) {
    c.ret_big(sys.dev.seek(c, fd, off, whence));
    return;
  }
  off_t r = 0;
  int error = 0;
  c.blocking([&] {
    r = ::lseek(fd, static_cast<off_t>(off), whence);
    error = errno;
  });
  if (r < 0) set_errstr(c, error);
  c.ret_big(r);
}

void sys_remove(Call& c) {
  const std::string name = c.arg_string(32);
  int r = ::remove(c.host_path(resolve_path(c, name)).c_str());
  if (r < 0) set_path_errstr(c, name);
  c.ret_int(r < 0 ? -1 : 0);
}

// Sleeping blocks too (Inferno: release, sleep, acquire). Past
// kMaxSleepingKprocs released threads, further sleepers wait in the
// scheduler's Sleeping state instead, which holds no host thread.
constexpr int kMaxSleepingKprocs = 64;

void sys_sleep(Call& c) {
  std::int32_t ms = c.arg_int(32);
  if (c.released_threads() < kMaxSleepingKprocs)
    c.blocking([ms, &c] {
      if (ms <= 0) sched_yield();
      // In steps, so that a kill ends it soon (Inferno's swiproc).
      const auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
      for (auto now = std::chrono::steady_clock::now(); now < end && !c.kill_requested();
           now = std::chrono::steady_clock::now())
        std::this_thread::sleep_for(std::min<std::chrono::steady_clock::duration>(
            end - now, std::chrono::milliseconds(20)));
    });
  else
    c.sleep_ms(ms);
  c.ret_int(0);
}

void sys_millisec(Call& c) {
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                std::chrono::steady_clock::now().time_since_epoch())
                .count();
  c.ret_int(static_cast<std::int32_t>(ms));
}

void sys_werrstr(Call& c) {
  c.set_error_string(c.arg_string(32));
  c.ret_int(0);
}

}  // namespace

void register_table(VM& vm, std::string_view path, const Impls& impls) {
  const BuiltinModule* bm = find_builtin_module(path);
  std::vector<NativeFunction> fns;
  for (const BuiltinFunc& f : bm->funcs) {
    NativeFunction n;
    n.name = std::string(f.name);
    n.type = std::string(f.canonical);
    n.sig = f.sig;
    n.frame_size = f.frame_size;
    n.map.assign(f.map, f.map + f.np);
    auto it = impls.find(f.name);
    if (it != impls.end())
      n.fn = it->second;
    else
      n.fn = [name = std::string(path) + "->" + std::string(f.name)](Call& c) {
        c.raise("sys: not implemented: " + name);
      };
    fns.push_back(std::move(n));
  }
  vm.register_module(std::string(path), std::move(fns));
}

void register_sys(VM& vm, const std::shared_ptr<SysState>& sys) {
  Impls impls{
      {"sprint", sys_sprint},       {"aprint", sys_aprint},     {"byte2char", sys_byte2char},
      {"char2byte", sys_char2byte}, {"utfbytes", sys_utfbytes}, {"tokenize", sys_tokenize},
      {"remove", sys_remove},       {"sleep", sys_sleep},       {"millisec", sys_millisec},
      {"werrstr", sys_werrstr},
  };
  for (auto [name, f] : {std::pair<std::string_view, SysFn>{"open", sys_open},
                         {"create", sys_create},
                         {"read", sys_read},
                         {"readn", sys_read},
                         {"write", sys_write},
                         {"print", sys_print},
                         {"fprint", sys_fprint},
                         {"seek", sys_seek}})
    impls[name] = with_state(sys, f);
  add_sys_fd_functions(vm, impls, sys);
  add_sys_file_functions(vm, impls, sys);
  add_sys_ns_functions(impls);
  add_sys_io_functions(impls, sys);
  register_table(vm, "$Sys", impls);
}

NativeFn sys_read_fn(const std::shared_ptr<SysState>& sys) { return with_state(sys, sys_read); }

void register_builtins(VM& vm) {
  const auto sys = std::make_shared<SysState>();
  register_sys(vm, sys);
  register_math(vm);
  register_bench(vm, sys);
  register_crypto_modules(vm);
}

}  // namespace dis::vm
