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

// Waits for the child until the deadline; kills it then.
std::string await(pid_t pid, double timeout, const sigset_t& chld) {
  timespec end;
  ::clock_gettime(CLOCK_MONOTONIC, &end);
  end.tv_sec += static_cast<time_t>(timeout);
  end.tv_nsec +=
      static_cast<long>((timeout - static_cast<double>(static_cast<time_t>(timeout))) * 1e9);
  if (end.tv_nsec >= 1000000000L) end.tv_sec++, end.tv_nsec -= 1000000000L;
  for (;;) {
    int status;
    pid_t got = ::waitpid(pid, &status, WNOHANG);
    if (got == pid) {
      if (WIFSIGNALED(status)) return "signal " + std::to_string(WTERMSIG(status));
      return "exit " + std::to_string(WEXITSTATUS(status));
    }
    timespec now;
    ::clock_gettime(CLOCK_MONOTONIC, &now);
    long left_ns = (end.tv_sec - now.tv_sec) * 1000000000L + (end.tv_nsec - now.tv_nsec);
    if (left_ns <= 0) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      return "hang";
    }
    timespec wait{left_ns / 1000000000L, left_ns % 1000000000L};
    ::sigtimedwait(&chld, nullptr, &wait);  // SIGCHLD, or the deadline
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

void serve_here() {
  Request r = fork_next();
  arm(r.cage, r.host, r.report == "-" ? std::string() : r.report, false);
}

}  // namespace dis::vm::fault

#endif
