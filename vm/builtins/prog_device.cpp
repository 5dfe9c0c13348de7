// The program device (#p) as Inferno's devprog.c gives it (sys_devices.h):
// /prog lists a directory per live thread, named by its pid, holding ctl,
// status, ns, fd and wait, with devprog's texts.
#include <fcntl.h>
#include <fmt/format.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <optional>
#include <string_view>

#include "sys_devices.h"

namespace dis::vm {

namespace {

struct ProgFile {
  std::string_view name;
  std::uint32_t perm;
};
constexpr std::array<ProgFile, 5> kProgFiles = {
    {{"ctl", 0200}, {"status", 0444}, {"ns", 0400}, {"fd", 0400}, {"wait", 0400}}};

// What a /prog path names: the directory (no id), a thread's directory (no
// file) or one of its files.
struct ProgPath {
  std::optional<std::uint32_t> id;
  std::string file;
};

std::optional<ProgPath> parse_prog(std::string_view path) {
  if (path.substr(0, 5) != "/prog" || (path.size() > 5 && path[5] != '/')) return std::nullopt;
  std::string_view rest = path.substr(std::min<std::size_t>(path.size(), 6));
  ProgPath r;
  if (rest.empty()) return r;
  std::size_t slash = rest.find('/');
  std::string_view num = rest.substr(0, slash);
  std::uint32_t n = 0;
  for (char ch : num) {
    if (ch < '0' || ch > '9' || n > 100000000) return std::nullopt;
    n = n * 10 + static_cast<std::uint32_t>(ch - '0');
  }
  if (num.empty() || n == 0) return std::nullopt;
  r.id = n - 1;
  if (slash == std::string_view::npos) return r;
  r.file = std::string(rest.substr(slash + 1));
  for (const ProgFile& f : kProgFiles)
    if (f.name == r.file) return r;
  return std::nullopt;
}

// Inferno's progtime: minutes, seconds and tenths.
std::string prog_time(std::int64_t ms) {
  const std::int64_t tenths = ms / 100, sec = tenths / 10;
  return fmt::format("{:4}:{:02}.{}", sec / 60, sec % 60, tenths % 10);
}

}  // namespace

std::string device_alias(const std::string& path) {
  if (path.rfind("#p", 0) == 0) return "/prog" + path.substr(2);
  if (path.rfind("#c", 0) == 0) return "/dev" + path.substr(2);
  return path;
}

bool Devices::exists(Call& c, const std::string& path) { return stat(c, path).has_value(); }

std::optional<DevDir> Devices::stat(Call& c, const std::string& path) {
  const std::string p = device_alias(path);
  if (p == "/dev") return DevDir{"dev", true, 0555, 0, 'c'};
  auto pp = parse_prog(p);
  if (!pp) {
    if (p.rfind("/prog", 0) == 0 || !is_device_path(p)) return std::nullopt;
    return DevDir{p.substr(p.rfind('/') + 1), false, 0666, 0, 'c'};
  }
  if (!pp->id) return DevDir{"prog", true, 0555, 0, 'p'};
  ThreadInfo t;
  if (!c.thread(*pp->id, t)) return std::nullopt;
  const std::uint64_t q = std::uint64_t{*pp->id + 1} << 8;
  if (pp->file.empty()) return DevDir{std::to_string(*pp->id + 1), true, 0555, q, 'p'};
  for (std::size_t i = 0; i < kProgFiles.size(); ++i)
    if (kProgFiles[i].name == pp->file)
      return DevDir{pp->file, false, kProgFiles[i].perm, q + i + 1, 'p'};
  return std::nullopt;
}

std::optional<std::int32_t> Devices::open_prog(Call& c, const std::string& path) {
  auto pp = parse_prog(path);
  if (!pp) return std::nullopt;
  if (!pp->id) return add(Open{Dev::ProgDir});
  ThreadInfo t;
  if (!c.thread(*pp->id, t) || (pp->file == "wait" && !c.open_wait(*pp->id))) {
    c.set_error_string("'" + path + "' file does not exist");
    return -1;
  }
  static constexpr std::array<Dev, 5> kDevs = {Dev::Ctl, Dev::Status, Dev::Ns, Dev::Fd, Dev::Wait};
  Dev d = Dev::Prog;
  for (std::size_t i = 0; i < kProgFiles.size(); ++i)
    if (kProgFiles[i].name == pp->file) d = kDevs[i];
  return add(Open{d, 0, *pp->id});
}

std::vector<DevDir> Devices::dirread(Call& c, std::int32_t fd) {
  std::vector<DevDir> out;
  Open* f = find(c, fd);
  if (!f || f->listed) return out;
  f->listed = true;
  if (f->dev == Dev::ProgDir) {
    for (const ThreadInfo& t : c.threads())
      out.push_back(*stat(c, "/prog/" + std::to_string(t.id + 1)));
  } else if (f->dev == Dev::Prog) {
    for (const ProgFile& pf : kProgFiles)
      if (auto d = stat(c, "/prog/" + std::to_string(f->pid + 1) + "/" + std::string(pf.name)))
        out.push_back(*d);
  } else if (f->dev == Dev::RootDir) {
    for (const char* n : {"dev", "prog"}) {
      struct stat st {};
      if (::stat(c.host_path(std::string("/") + n).c_str(), &st) != 0)
        out.push_back(DevDir{n, true, 0555, 0, n[0] == 'd' ? 'c' : 'p'});
    }
  } else if (f->dev == Dev::DevDir) {
    for (const char* n :
         {"busec", "time", "cons", "consctl", "user", "sysname", "random", "null", "sysctl", "pid"})
      out.push_back(DevDir{n, false, 0666, 0, 'c'});
  }
  return out;
}

// The texts as devprog.c formats them; ns gives one line per read (its
// offset counts lines), as Inferno's.
std::string Devices::prog_text(Call& c, const Open& f) const {
  ThreadInfo t;
  if (!c.thread(f.pid, t)) return "";
  if (f.dev == Dev::Status) {
    return fmt::format("{:8} {:8} {:>10} {} {:>10} {:5}K {}", t.id + 1, t.group, text(c, Dev::User),
                       prog_time(t.cpu_ms), t.state, t.bytes / 1024, t.module);
  }
  if (f.dev == Dev::Ns) {
    std::shared_ptr<NameSpace> ns = c.name_space_of(f.pid);
    std::vector<std::string> lines = {"bind / /", "bind -b #c /dev", "bind #p /prog"};
    char cwd[PATH_MAX];
    for (std::string& l : ns->describe(::getcwd(cwd, sizeof cwd) ? cwd : "."))
      lines.push_back(std::move(l));
    return f.offset < static_cast<std::int64_t>(lines.size())
               ? lines[static_cast<std::size_t>(f.offset)] + "\n"
               : "";
  }
  // fd: the current directory, then a line per descriptor.
  std::shared_ptr<NameSpace> ns = c.name_space_of(f.pid);
  std::shared_ptr<FdGroup> g = c.fd_group_of(f.pid);
  char cwd[PATH_MAX];
  std::string out = (ns && !ns->dot.empty() ? ns->dot : (::getcwd(cwd, sizeof cwd) ? cwd : ".")) +
                    std::string("\n");
  for (std::int32_t i = 0; g && i < FdGroup::kMaxFd; ++i) {
    FileRef file = g->get(i);
    if (!file) continue;
    const std::int32_t d = file->desc;
    std::string mode = "rw", name;
    char type = 'U';
    std::uint64_t qid = 0;
    std::int64_t off = 0;
    std::uint32_t qtype = 0;
    if (is_device_fd(d)) {
      mode = mode_text(d);
      type = this->type(d);
      name = path(d);
    } else if (d <= 2) {
      mode = d == 0 ? "r " : "w ";
      type = 'c';
      name = "/dev/cons";
    } else {
      const int fl = ::fcntl(d, F_GETFL);
      mode = (fl & O_ACCMODE) == O_RDONLY ? "r " : (fl & O_ACCMODE) == O_WRONLY ? "w " : "rw";
      struct stat s {};
      if (::fstat(d, &s) == 0) {
        qid = s.st_ino;
        qtype = S_ISDIR(s.st_mode) ? 0x80 : 0;
        if (S_ISSOCK(s.st_mode)) type = '|';
      }
      off = std::max<off_t>(0, ::lseek(d, 0, SEEK_CUR));
      char buf[PATH_MAX];
      const std::string link = "/proc/self/fd/" + std::to_string(d);
      const ssize_t n = ::readlink(link.c_str(), buf, sizeof buf);
      name = type == '|' ? "#|/data" : n > 0 ? std::string(buf, static_cast<std::size_t>(n)) : "";
    }
    out += fmt::format("{:3} {:.2} {} {:4} ({:016x} {:6} {:02x}) {:5} {:8} {}\n", i, mode, type, 0,
                       qid, 0, qtype, 0, off, name);
  }
  return out;
}

std::int64_t Devices::write_ctl(Call& c, const Open& f, const std::uint8_t* p, std::int32_t n) {
  std::string msg(reinterpret_cast<const char*>(p), static_cast<std::size_t>(n));
  while (!msg.empty() && (msg.back() == '\n' || msg.back() == ' ')) msg.pop_back();
  if (msg != "kill" && msg != "killgrp") {
    c.set_error_string("bad process or channel control request");
    return -1;
  }
  return c.kill_thread(f.pid, msg == "killgrp") ? n : -1;
}

std::string Devices::mode_text(std::int32_t fd) const {
  auto it = open_.find(fd);
  if (it == open_.end()) return "r ";
  switch (it->second.dev) {
    case Dev::Ctl:
      return "w ";
    case Dev::Cons:
    case Dev::Consctl:
    case Dev::Null:
    case Dev::Busec:
      return "rw";
    default:
      return "r ";
  }
}

char Devices::type(std::int32_t fd) const {
  auto it = open_.find(fd);
  return it != open_.end() && it->second.dev >= Dev::Wait && it->second.dev != Dev::DevDir ? 'p'
                                                                                           : 'c';
}

}  // namespace dis::vm
