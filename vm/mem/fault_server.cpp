// The fault sweep's fork server (fault_server.h). POSIX only, compiled into
// the fault-injection builds alone.
#include "fault_server.h"

#if defined(DIS_FAULT_INJECTION)

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>

#include "fault_injection.h"

namespace dis::vm::fault {
namespace {

struct Request {
  std::uint64_t cage = 0, host = 0;
  std::string report, cwd, in, out, err;
  double timeout = 60;
  std::vector<std::string> args;
};

// One line from fd 0 without stdio's buffering (the children inherit the
// descriptor, not the buffer); false at end of input.
bool read_line(std::string& line) {
  line.clear();
  char c;
  for (;;) {
    ssize_t n = ::read(0, &c, 1);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return !line.empty();
    if (c == '\n') return true;
    line += c;
  }
}

std::vector<std::string> split_tabs(const std::string& line) {
  std::vector<std::string> fields(1);
  for (char c : line) {
    if (c == '\t')
      fields.emplace_back();
    else
      fields.back() += c;
  }
  return fields;
}

bool parse(const std::string& line, Request& r) {
  std::vector<std::string> f = split_tabs(line);
  if (f.size() < 8) return false;
  r.cage = std::strtoull(f[0].c_str(), nullptr, 10);
  r.host = std::strtoull(f[1].c_str(), nullptr, 10);
  r.report = f[2];
  r.timeout = std::strtod(f[3].c_str(), nullptr);
  r.cwd = f[4];
  r.in = f[5];
  r.out = f[6];
  r.err = f[7];
  r.args.assign(f.begin() + 8, f.end());
  return true;
}

void answer(const std::string& s) {
  std::string line = s + "\n";
  for (std::size_t done = 0; done < line.size();) {
    ssize_t n = ::write(1, line.data() + done, line.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) _exit(1);  // the sweep went away
    done += static_cast<std::size_t>(n);
  }
}

void reopen(int fd, const std::string& path, int flags) {
  int f = ::open(path == "-" ? "/dev/null" : path.c_str(), flags, 0644);
  if (f < 0) {
    std::perror(path.c_str());
    _exit(125);
  }
  ::dup2(f, fd);
  ::close(f);
}

// The CPU time a process has used (all its threads), in seconds; 0 when
// unknown.
double cpu_seconds(pid_t pid) {
  char path[64];
  std::snprintf(path, sizeof path, "/proc/%d/stat", static_cast<int>(pid));
  int fd = ::open(path, O_RDONLY);
  if (fd < 0) return 0;
  char buf[1024];
  ssize_t n = ::read(fd, buf, sizeof buf - 1);
  ::close(fd);
  if (n <= 0) return 0;
  buf[n] = 0;
  const char* p = std::strrchr(buf, ')');  // the name may hold spaces
  unsigned long user = 0, sys = 0;
  if (!p ||
      std::sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &user, &sys) != 2)
    return 0;
  return static_cast<double>(user + sys) / static_cast<double>(::sysconf(_SC_CLK_TCK));
}

timespec after(double seconds) {
  timespec t;
  ::clock_gettime(CLOCK_MONOTONIC, &t);
  auto whole = static_cast<time_t>(seconds);
  t.tv_sec += whole;
  t.tv_nsec += static_cast<long>((seconds - static_cast<double>(whole)) * 1e9);
  if (t.tv_nsec >= 1000000000L) t.tv_sec++, t.tv_nsec -= 1000000000L;
  return t;
}

long ns_until(const timespec& t) {
  timespec now;
  ::clock_gettime(CLOCK_MONOTONIC, &now);
  return (t.tv_sec - now.tv_sec) * 1000000000L + (t.tv_nsec - now.tv_nsec);
}

// Waits for the child; a hang is `timeout` seconds of its CPU time, or ten
// times that of wall time (a deadlock uses none): on a host shared with
// other work a starved run is slow, not hung.
std::string await(pid_t pid, double timeout, const sigset_t& chld) {
  const timespec last = after(10 * timeout);
  timespec check = after(timeout);
  for (;;) {
    int status;
    pid_t got = ::waitpid(pid, &status, WNOHANG);
    if (got == pid) {
      if (WIFSIGNALED(status)) return "signal " + std::to_string(WTERMSIG(status));
      return "exit " + std::to_string(WEXITSTATUS(status));
    }
    long left_ns = ns_until(check);
    if (left_ns <= 0) {
      const double cpu = cpu_seconds(pid);
      if (cpu >= timeout || ns_until(last) <= 0) {
        ::kill(pid, SIGKILL);
        ::waitpid(pid, &status, 0);
        return "hang";
      }
      check = after(timeout - cpu < 1 ? 1 : timeout - cpu);
      continue;
    }
    timespec wait{left_ns / 1000000000L, left_ns % 1000000000L};
    ::sigtimedwait(&chld, nullptr, &wait);  // SIGCHLD, or the next check
  }
}

// Returns only in a child, its descriptors and directory the request's.
Request fork_next() {
  sigset_t chld, old;
  sigemptyset(&chld);
  sigaddset(&chld, SIGCHLD);
  ::sigprocmask(SIG_BLOCK, &chld, &old);
  std::string line;
  while (read_line(line)) {
    Request r;
    if (!parse(line, r)) {
      answer("bad request");
      continue;
    }
    pid_t pid = ::fork();
    if (pid < 0) {
      answer("fork failed");
      continue;
    }
    if (pid == 0) {
      ::sigprocmask(SIG_SETMASK, &old, nullptr);
      if (r.cwd != "-" && ::chdir(r.cwd.c_str()) != 0) {
        std::perror(r.cwd.c_str());
        _exit(125);
      }
      reopen(0, r.in, O_RDONLY);
      reopen(1, r.out, O_WRONLY | O_CREAT | O_TRUNC);
      reopen(2, r.err, O_WRONLY | O_CREAT | O_TRUNC);
      return r;
    }
    answer(await(pid, r.timeout, chld));
  }
  _exit(0);
}

}  // namespace

void serve(const char* argv0, std::vector<std::string>& args, std::vector<char*>& argv) {
  Request r = fork_next();
  args.assign(1, argv0);
  args.insert(args.end(), r.args.begin(), r.args.end());
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  arm(r.cage, r.host, r.report == "-" ? std::string() : r.report);
}

void serve_here(std::uint64_t cage_start, std::uint64_t host_start) {
  answer("start " + std::to_string(cage_start) + " " + std::to_string(host_start));
  Request r = fork_next();
  arm(r.cage ? cage_start + r.cage : 0, r.host ? host_start + r.host : 0,
      r.report == "-" ? std::string() : r.report, false);
}

}  // namespace dis::vm::fault

#endif
