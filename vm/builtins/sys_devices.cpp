// The VM's /dev files (sys_devices.h), with the texts Inferno's devcons.c
// gives: numbers as readnum's 11-wide field and a space, names as is.
#include "sys_devices.h"

#include <pwd.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string_view>
#include <utility>

#include "sys_fd.h"

namespace dis::vm {

namespace {

constexpr std::array<std::string_view, 10> kNames = {
    "/dev/busec",   "/dev/time",   "/dev/cons", "/dev/consctl", "/dev/user",
    "/dev/sysname", "/dev/random", "/dev/null", "/dev/sysctl",  "/dev/pid"};

// Inferno's readnum: the value right-aligned in 11 columns, then a space.
std::string readnum(std::int64_t v) {
  std::string s = std::to_string(v);
  if (s.size() < 11) s.insert(0, 11 - s.size(), ' ');
  return s + " ";
}

std::string host_user() {
  const passwd* pw = ::getpwuid(::getuid());
  if (pw && pw->pw_name) return pw->pw_name;
  const char* u = std::getenv("USER");
  return u ? u : "none";
}

std::string host_name() {
  char buf[256] = {};
  if (::gethostname(buf, sizeof buf - 1) != 0) return "dis";
  return buf;
}

// Serves `t` from `offset` as readstr does.
std::int64_t read_text(const std::string& t, std::int64_t offset, std::uint8_t* p, std::int32_t n) {
  if (offset >= static_cast<std::int64_t>(t.size()) || n <= 0) return 0;
  std::int64_t k = std::min<std::int64_t>(n, static_cast<std::int64_t>(t.size()) - offset);
  std::memcpy(p, t.data() + offset, static_cast<std::size_t>(k));
  return k;
}

std::string busec_text(std::chrono::steady_clock::time_point start) {
  return std::to_string(std::chrono::duration_cast<std::chrono::microseconds>(
                            std::chrono::steady_clock::now() - start)
                            .count());
}

}  // namespace

Devices::Devices() {
  if (const char* t = std::getenv("DIS_FIXED_TIME")) {
    char* end = nullptr;
    long long v = std::strtoll(t, &end, 10);
    if (end != t && *end == '\0') fixed_time_ = v;
  }
}

bool Devices::is_device_path(const std::string& path) {
  const std::string p = device_alias(path);
  for (std::string_view n : kNames)
    if (p == n) return true;
  return p == "/dev" || p == "/prog" || p.rfind("/prog/", 0) == 0;
}

std::int32_t Devices::add(Open f) {
  while (open_.count(next_)) next_ = next_ == INT32_MAX ? kDevFdBase : next_ + 1;
  std::int32_t fd = next_;
  next_ = next_ == INT32_MAX ? kDevFdBase : next_ + 1;
  open_[fd] = f;
  return fd;
}

std::optional<std::int32_t> Devices::open(Call& c, const std::string& path) {
  const std::string p = device_alias(path);
  for (std::size_t i = 0; i < kNames.size(); ++i)
    if (p == kNames[i]) return add(Open{static_cast<Dev>(i)});
  if (p == "/dev") return add(Open{Dev::DevDir});
  if (p == "#/") return add(Open{Dev::RootDir});
  if (auto fd = open_prog(c, p)) return fd;
  if (p.rfind("/prog/", 0) == 0) {
    c.set_error_string("'" + path + "' file does not exist");
    return -1;
  }
  return std::nullopt;
}

Devices::Open* Devices::find(Call& c, std::int32_t fd) {
  auto it = open_.find(fd);
  if (it == open_.end()) {
    c.set_error_string("bad file descriptor");
    return nullptr;
  }
  return &it->second;
}

std::string Devices::time_text() const {
  if (fixed_time_) return std::to_string(*fixed_time_);
  auto us = std::chrono::duration_cast<std::chrono::microseconds>(
                std::chrono::system_clock::now().time_since_epoch())
                .count();
  return std::to_string(us);
}

std::string Devices::text(Call& c, Dev d) const {
  switch (d) {
    case Dev::Busec:
      return busec_text(busec_start_);
    case Dev::Time:
      return time_text();
    case Dev::User:
      return host_user();
    case Dev::Sysname:
      return host_name();
    case Dev::Sysctl:
      return std::string("Dis VM ") + DIS_VERSION;
    case Dev::Pid:
      return readnum(c.thread_id() + 1);
    default:
      return "";
  }
}

std::int64_t Devices::read(Call& c, std::int32_t fd, std::uint8_t* p, std::int32_t n,
                           std::int64_t offset) {
  Open* f = find(c, fd);
  if (!f) return -1;
  if (n < 0) n = 0;
  std::int64_t r = 0;
  switch (f->dev) {
    case Dev::Busec: {
      // Every read gives the current count, whatever the offset (bench reads
      // it again and again without seeking). As every device read in
      // Inferno, it runs with the interpreter released.
      std::string t;
      const auto start = busec_start_;
      c.blocking([&] { t = busec_text(start); });
      return read_text(t, 0, p, n);
    }
    case Dev::Cons: {
      c.flush_output();
      int error = 0;
      ssize_t k = 0;
      c.blocking([&] {
        k = ::read(0, p, static_cast<std::size_t>(n));
        error = errno;
      });
      if (k < 0) set_errstr(c, error);
      return k;
    }
    case Dev::Random:
      c.blocking([&] {
        std::random_device rd;
        for (std::int32_t i = 0; i < n; ++i) p[i] = static_cast<std::uint8_t>(rd());
      });
      r = n;
      break;
    case Dev::Null:
    case Dev::Consctl:
      return 0;
    case Dev::Wait: {
      // One exit line per read, as Inferno's; waits for the next.
      std::uint32_t pid = f->pid;
      std::string line = c.read_wait(pid);
      return read_text(line, 0, p, n);
    }
    case Dev::Status:
    case Dev::Fd:
      r = read_text(prog_text(c, *f), offset < 0 ? f->offset : offset, p, n);
      break;
    case Dev::Ns: {
      // A line per read: the offset counts lines.
      r = read_text(prog_text(c, *f), 0, p, n);
      if (offset < 0 && r > 0) ++f->offset;
      return r;
    }
    case Dev::DevDir:
    case Dev::RootDir:
    case Dev::ProgDir:
    case Dev::Prog:
    case Dev::Ctl:
      c.set_error_string(f->dev == Dev::Ctl ? "permission denied" : "is a directory");
      return -1;
    default:
      r = read_text(text(c, f->dev), offset < 0 ? f->offset : offset, p, n);
  }
  if (offset < 0) f->offset += r;
  return r;
}

std::int64_t Devices::write(Call& c, std::int32_t fd, const std::uint8_t* p, std::int32_t n,
                            std::int64_t offset) {
  (void)offset;
  Open* f = find(c, fd);
  if (!f) return -1;
  if (n < 0) n = 0;
  switch (f->dev) {
    case Dev::Busec:
      busec_start_ = std::chrono::steady_clock::now();
      return n;
    case Dev::Cons: {
      std::int64_t r = c.write_fd(1, p, static_cast<std::size_t>(n));
      if (r < 0) set_errstr(c);
      return r;
    }
    case Dev::Null:
    case Dev::Consctl:  // rawon/rawoff: the VM's stdin has no modes to set
      return n;
    case Dev::Ctl:
      return write_ctl(c, *f, p, n);
    default:
      c.set_error_string("permission denied");
      return -1;
  }
}

std::int64_t Devices::seek(Call& c, std::int32_t fd, std::int64_t off, int whence) {
  Open* f = find(c, fd);
  if (!f) return -1;
  if (whence == SEEK_CUR) off += f->offset;
  if (whence == SEEK_END) off += static_cast<std::int64_t>(text(c, f->dev).size());
  if (off < 0) {
    c.set_error_string("negative i/o offset");
    return -1;
  }
  f->offset = off;
  return off;
}

std::string Devices::path(std::int32_t fd) const {
  auto it = open_.find(fd);
  if (it == open_.end()) return "";
  const Open& f = it->second;
  const std::string prog = "/prog/" + std::to_string(f.pid + 1);
  switch (f.dev) {
    case Dev::Wait:
      return prog + "/wait";
    case Dev::DevDir:
      return "/dev";
    case Dev::RootDir:
      return "#/";
    case Dev::ProgDir:
      return "/prog";
    case Dev::Prog:
      return prog;
    case Dev::Ctl:
      return prog + "/ctl";
    case Dev::Status:
      return prog + "/status";
    case Dev::Ns:
      return prog + "/ns";
    case Dev::Fd:
      return prog + "/fd";
    default:
      return std::string(kNames[static_cast<std::size_t>(f.dev)]);
  }
}

void Devices::close(std::int32_t fd) { open_.erase(fd); }

void Devices::set_union(std::int32_t fd, std::vector<std::string> rest) {
  auto it = unions_.find(fd);
  if (it != unions_.end()) {
    const std::int32_t cur = it->second.cur;
    if (is_device_fd(cur))
      close(cur);
    else if (cur > 2)
      ::close(cur);
    unions_.erase(it);
  }
  if (!rest.empty()) unions_[fd] = UnionRead{std::move(rest), -1};
}

Devices::UnionRead* Devices::union_read(std::int32_t fd) {
  auto it = unions_.find(fd);
  return it == unions_.end() ? nullptr : &it->second;
}

}  // namespace dis::vm
