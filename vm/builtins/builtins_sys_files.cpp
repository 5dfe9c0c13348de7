// $Sys file metadata on the host file system: stat, fstat, wstat, fwstat,
// dirread. Paths go through the name space as open's do (builtins_sys_ns.cpp),
// then to a device or the host. Local
// metadata calls do not block, so they keep the interpreter.
//
// Dir as 32-bit Dis lays it out (big at 8-byte alignment): name 0, uid 4,
// gid 8, muid 12, qid.path 16, qid.vers 24, qid.qtype 28, mode 32, atime 36,
// mtime 40, length 48, dtype 56, dev 60; 64 bytes. In a (int, Dir) result
// the Dir starts at 8.
#include <dirent.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <map>
#include <string_view>

#include "arrays_lists.h"
#include "dis_string.h"
#include "sys_fd.h"
#include "unfinished.h"

namespace dis::vm {

namespace {

constexpr std::uint32_t kDirSize = 64;
constexpr std::uint32_t kTupleDir = 8;  // offset of Dir in (int, Dir)
constexpr std::uint32_t kDMDIR = 0x80000000u;
constexpr std::int32_t kQTDIR = 0x80;

struct HostDir {
  std::string name, uid, gid, muid;
  std::int64_t qid_path = 0;
  std::int32_t qid_vers = 0, qid_type = 0;
  std::uint32_t mode = 0;
  std::int32_t atime = 0, mtime = 0;
  std::int64_t length = 0;
  std::int32_t dtype = 0, dev = 0;
};

std::string user_name(uid_t uid) {
  struct passwd pw, *res = nullptr;
  char buf[1024];
  if (getpwuid_r(uid, &pw, buf, sizeof buf, &res) == 0 && res) return pw.pw_name;
  return std::to_string(uid);
}

std::string group_name(gid_t gid) {
  struct group gr, *res = nullptr;
  char buf[1024];
  if (getgrgid_r(gid, &gr, buf, sizeof buf, &res) == 0 && res) return gr.gr_name;
  return std::to_string(gid);
}

// The last element of a path, as Inferno's stat names a file.
std::string last_element(std::string_view path) {
  while (path.size() > 1 && path.back() == '/') path.remove_suffix(1);
  std::size_t slash = path.rfind('/');
  if (slash == std::string_view::npos || path.size() == 1) return std::string(path);
  return std::string(path.substr(slash + 1));
}

HostDir from_stat(const struct stat& s, std::string name) {
  HostDir d;
  d.name = std::move(name);
  d.uid = user_name(s.st_uid);
  d.gid = group_name(s.st_gid);
  d.muid = d.uid;
  d.qid_path = static_cast<std::int64_t>(s.st_ino);
  d.qid_vers = static_cast<std::int32_t>(s.st_mtime);
  bool dir = S_ISDIR(s.st_mode);
  d.qid_type = dir ? kQTDIR : 0;
  d.mode = (dir ? kDMDIR : 0) | (s.st_mode & 0777);
  d.atime = static_cast<std::int32_t>(s.st_atime);
  d.mtime = static_cast<std::int32_t>(s.st_mtime);
  d.length = dir ? 0 : static_cast<std::int64_t>(s.st_size);  // Plan 9: directories are 0 long
  d.dtype = 'U';                                              // Inferno's host file device
  d.dev = static_cast<std::int32_t>(s.st_dev);
  return d;
}

// Writes d into a Dir at host address `at`, releasing the strings it held.
void store_dir(Heap& h, std::uint8_t* at, const HostDir* d) {
  const std::string* strs[4] = {nullptr, nullptr, nullptr, nullptr};
  if (d) strs[0] = &d->name, strs[1] = &d->uid, strs[2] = &d->gid, strs[3] = &d->muid;
  for (int i = 0; i < 4; ++i) {
    Ptr s = strs[i] ? str_from_utf8(h, *strs[i]) : H;
    Ptr old = ld<Ptr>(at + 4 * i);
    st<Ptr>(at + 4 * i, s);
    h.decref(old);
  }
  HostDir zero;
  if (!d) d = &zero;
  st<std::int64_t>(at + 16, d->qid_path);
  st<std::int32_t>(at + 24, d->qid_vers);
  st<std::int32_t>(at + 28, d->qid_type);
  st<std::uint32_t>(at + 32, d->mode);
  st<std::int32_t>(at + 36, d->atime);
  st<std::int32_t>(at + 40, d->mtime);
  st<std::int64_t>(at + 48, d->length);
  st<std::int32_t>(at + 56, d->dtype);
  st<std::int32_t>(at + 60, d->dev);
}

// Returns (0, d) or (-1, nil Dir) with errstr set.
void ret_stat(Call& c, int r, const struct stat& s, std::string name, const std::string& path) {
  if (r < 0) set_path_errstr(c, path, errno);
  std::uint8_t* res = c.result();
  if (!res) return;
  st<std::int32_t>(res, r < 0 ? -1 : 0);
  if (r < 0) {
    store_dir(c.heap(), res + kTupleDir, nullptr);
  } else {
    HostDir d = from_stat(s, std::move(name));
    store_dir(c.heap(), res + kTupleDir, &d);
  }
}

HostDir from_device(const DevDir& d, const std::string& user) {
  HostDir h;
  h.name = d.name;
  h.uid = h.gid = h.muid = user;
  h.qid_path = static_cast<std::int64_t>(d.qid_path);
  h.qid_type = d.dir ? kQTDIR : 0;
  h.mode = (d.dir ? kDMDIR : 0) | d.perm;
  h.dtype = d.type;
  return h;
}

void sys_stat(Call& c, SysState& sys) {
  std::string path = c.arg_string(32);
  const std::string concrete = resolve_path(c, path);
  if (sys.dev.is_device_path(concrete)) {
    std::optional<DevDir> d = Devices::stat(c, concrete);
    std::uint8_t* res = c.result();
    if (!d) set_path_errstr(c, path, ENOENT);
    if (!res) return;
    st<std::int32_t>(res, d ? 0 : -1);
    HostDir h = d ? from_device(*d, user_name(::getuid())) : HostDir{};
    store_dir(c.heap(), res + kTupleDir, d ? &h : nullptr);
    return;
  }
  struct stat s {};
  int r = ::stat(c.host_path(concrete).c_str(), &s);
  ret_stat(c, r, s, last_element(path), path);
}

// The host path an open descriptor refers to; "" if unknown.
std::string fd_host_path(int fd) {
  char buf[4096];
  std::string link = "/proc/self/fd/" + std::to_string(fd);
  ssize_t n = ::readlink(link.c_str(), buf, sizeof buf - 1);
  if (n <= 0) return "";
  return std::string(buf, static_cast<std::size_t>(n));
}

void sys_fstat(Call& c) {
  FileRef file = file_of(c, 32);
  std::int32_t fd = file->desc;
  struct stat s {};
  int r = ::fstat(fd, &s);
  ret_stat(c, r, s, r < 0 ? "" : last_element(fd_host_path(fd)), "");
}

// wstat: Dir fields holding "leave unchanged" (nil strings, ~0 numbers) are
// skipped. Supported: name (rename in the same directory), mode's permission
// bits, length (truncate), mtime. A uid or gid change fails.
int apply_wstat(Call& c, const std::string& host, int fd, std::uint32_t dir_off) {
  std::uint8_t* d = c.frame() + dir_off;
  std::string name = c.arg_string(dir_off);
  if (name.find('/') != std::string::npos) {  // checked first: nothing changes
    errno = EINVAL;
    return -1;
  }
  std::string uid = c.arg_string(dir_off + 4), gid = c.arg_string(dir_off + 8);
  if (!uid.empty() || !gid.empty()) {
    struct stat s {};
    if ((fd >= 0 ? ::fstat(fd, &s) : ::stat(host.c_str(), &s)) < 0) return -1;
    if ((!uid.empty() && uid != user_name(s.st_uid)) ||
        (!gid.empty() && gid != group_name(s.st_gid))) {
      errno = EPERM;
      return -1;
    }
  }
  std::uint32_t mode = ld<std::uint32_t>(d + 32);
  if (mode != ~0u) {
    auto perm = static_cast<mode_t>(mode & 0777);
    if ((fd >= 0 ? ::fchmod(fd, perm) : ::chmod(host.c_str(), perm)) < 0) return -1;
  }
  std::int64_t length = ld<std::int64_t>(d + 48);
  if (length != ~std::int64_t{0}) {
    if ((fd >= 0 ? ::ftruncate(fd, length) : ::truncate(host.c_str(), length)) < 0) return -1;
  }
  std::int32_t mtime = ld<std::int32_t>(d + 40);
  if (mtime != ~0) {
    struct timespec ts[2] = {{0, UTIME_OMIT}, {mtime, 0}};
    if ((fd >= 0 ? ::futimens(fd, ts) : ::utimensat(AT_FDCWD, host.c_str(), ts, 0)) < 0) return -1;
  }
  if (!name.empty()) {
    std::string trimmed = fd >= 0 ? fd_host_path(fd) : host;
    if (trimmed.empty()) {
      errno = EBADF;
      return -1;
    }
    while (trimmed.size() > 1 && trimmed.back() == '/') trimmed.pop_back();
    std::size_t slash = trimmed.rfind('/');
    std::string to = slash == std::string::npos ? name : trimmed.substr(0, slash + 1) + name;
    if (to != trimmed) {
      struct stat s {};
      if (::lstat(to.c_str(), &s) == 0) {  // as Inferno: never replaces a file
        errno = EEXIST;
        return -1;
      }
      if (::rename(trimmed.c_str(), to.c_str()) < 0) return -1;
    }
  }
  return 0;
}

void sys_wstat(Call& c) {
  std::string host = c.host_path(resolve_path(c, c.arg_string(32)));
  int r = apply_wstat(c, host, -1, 40);
  if (r < 0) set_errstr(c, errno);
  c.ret_int(r);
}

void sys_fwstat(Call& c) {
  FileRef file = file_of(c, 32);
  std::int32_t fd = file->desc;
  int r = apply_wstat(c, "", fd, 40);
  if (r < 0) set_errstr(c, errno);
  c.ret_int(r);
}

// One chunk of entries per call, read from the directory FD's own offset
// (getdents64), so successive calls continue and the end returns 0. "." and
// ".." are not entries, as in Inferno.
struct LinuxDirent64 {
  std::uint64_t d_ino;
  std::int64_t d_off;
  unsigned short d_reclen;
  unsigned char d_type;
  char d_name[1];
};

// The entries of host directory fd from its offset on: one chunk, none at
// the end; false with errno set on failure.
bool host_entries(int fd, std::vector<HostDir>& entries) {
  alignas(8) char buf[8192];
  while (entries.empty()) {
    long n = ::syscall(SYS_getdents64, fd, buf, sizeof buf);
    if (n < 0) return false;
    if (n == 0) break;
    for (long off = 0; off < n;) {
      auto* e = reinterpret_cast<LinuxDirent64*>(buf + off);
      off += e->d_reclen;
      std::string name = e->d_name;
      if (name == "." || name == "..") continue;
      struct stat s {};
      if (::fstatat(fd, name.c_str(), &s, 0) < 0 &&
          ::fstatat(fd, name.c_str(), &s, AT_SYMLINK_NOFOLLOW) < 0)
        continue;  // vanished meanwhile
      entries.push_back(from_stat(s, std::move(name)));
    }
  }
  return true;
}

bool entries_of(Call& c, SysState& sys, std::int32_t fd, std::vector<HostDir>& entries) {
  if (!is_device_fd(fd)) return host_entries(fd, entries);
  const std::string user = user_name(::getuid());
  for (const DevDir& d : sys.dev.dirread(c, fd)) entries.push_back(from_device(d, user));
  return true;
}

// A union directory (Devices::UnionRead) reads its members one after another.
void sys_dirread(Call& c, SysState& sys, std::uint32_t dir_type) {
  FileRef file = file_of(c, 32);
  std::vector<HostDir> entries;
  Devices::UnionRead* u = sys.dev.union_read(file->desc);
  bool ok = entries_of(c, sys, u && u->cur >= 0 ? u->cur : file->desc, entries);
  while (ok && entries.empty() && u && !u->rest.empty()) {
    const std::string next = u->rest.front();
    u->rest.erase(u->rest.begin());
    if (is_device_fd(u->cur))
      sys.dev.close(u->cur);
    else if (u->cur > 2)
      ::close(u->cur);
    std::optional<std::int32_t> dev = sys.dev.open(c, next);
    u->cur = dev ? *dev : host_open(c, [&] {
      return ::open(c.host_path(next).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    });
    if (u->cur < 0) continue;  // a member gone meanwhile
    ok = entries_of(c, sys, u->cur, entries);
  }
  if (!ok) {
    set_errstr(c, errno);
    c.ret_int(-1);
    c.ret_ptr(H, 4);
    return;
  }
  Heap& h = c.heap();
  Ptr arr = H;
  if (!entries.empty()) {
    Unfinished a(h, array_new(h, dir_type, static_cast<std::int32_t>(entries.size())));
    std::uint8_t* data = h.cage().at(array_ref(h, a.get()).data);
    for (std::size_t i = 0; i < entries.size(); ++i) store_dir(h, data + i * kDirSize, &entries[i]);
    arr = a.done();
  }
  c.ret_int(static_cast<std::int32_t>(entries.size()));
  c.ret_ptr(arr, 4);
}

}  // namespace

void add_sys_file_functions(VM& vm, Impls& impls, const std::shared_ptr<SysState>& sys) {
  std::uint32_t dir_type = vm.heap().add_type(kDirSize, {0xf0}, "Sys.Dir");
  impls["fstat"] = sys_fstat;
  impls["wstat"] = sys_wstat;
  impls["fwstat"] = sys_fwstat;
  impls["stat"] = [sys](Call& c) { sys_stat(c, *sys); };
  impls["dirread"] = [dir_type, sys](Call& c) { sys_dirread(c, *sys, dir_type); };
}

}  // namespace dis::vm
