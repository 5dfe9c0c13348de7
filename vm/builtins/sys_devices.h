// The VM's own device files, as Inferno's console device (#c) gives them
// under /dev, in the VM's name space rather than the host's: /dev/time,
// cons, consctl, user, sysname, random, null, sysctl, pid and busec; and of
// the program device (#p, also /prog): a directory per live thread N
// holding ctl (write "kill" or "killgrp"), status, ns, fd and wait (the
// exits of the threads N spawned), as Inferno's devprog.c gives them
// (prog_device.cpp). "#c" names /dev. Every other path maps to the host
// (Options::root) as before. Paths here are concrete (name_space.h).
// "#/" is the extra part of "/": a listing of dev and prog where the host
// lacks them, which dirread of "/" reads after the host's entries.
//
// An open device is a pseudo-descriptor (>= kDevFdBase) that the FD object
// holds like a host descriptor; this table keeps its device and offset.
// Text devices read as Inferno's readstr: from the file's offset, so a
// second read at the end gives 0 (end of file). Only the thread holding the
// interpreter uses the table.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "vm.h"

namespace dis::vm {

// "#p..." as "/prog...", "#c..." as "/dev...".
std::string device_alias(const std::string& path);

constexpr std::int32_t kDevFdBase = 1 << 28;
inline bool is_device_fd(std::int32_t fd) { return fd >= kDevFdBase; }

// A device file or directory as stat and dirread give it.
struct DevDir {
  std::string name;
  bool dir = false;
  std::uint32_t perm = 0;  // the permission bits
  std::uint64_t qid_path = 0;
  char type = 'c';  // Inferno's device letter
};

class Devices {
 public:
  // DIS_FIXED_TIME (microseconds since the epoch), when set, is what
  // /dev/time reads, so that programs printing the date give fixed output.
  Devices();

  // The descriptor for Dis path `path`, or nullopt when it names no device.
  // A /prog/N/wait of no live thread opens nothing, with the error string set.
  std::optional<std::int32_t> open(Call& c, const std::string& path);
  static bool is_device_path(const std::string& path);
  // Whether a device path names a live file; and its stat.
  static bool exists(Call& c, const std::string& path);
  static std::optional<DevDir> stat(Call& c, const std::string& path);
  // The next entries of an open device directory (none once read).
  std::vector<DevDir> dirread(Call& c, std::int32_t fd);
  // A device descriptor's mode letters and device letter, for /prog/N/fd.
  std::string mode_text(std::int32_t fd) const;
  char type(std::int32_t fd) const;
  // At the file's offset (which advances) when offset < 0; -1 with the
  // error string set on failure. Reading /dev/cons waits for the VM's stdin.
  std::int64_t read(Call& c, std::int32_t fd, std::uint8_t* p, std::int32_t n,
                    std::int64_t offset = -1);
  std::int64_t write(Call& c, std::int32_t fd, const std::uint8_t* p, std::int32_t n,
                     std::int64_t offset = -1);
  std::int64_t seek(Call& c, std::int32_t fd, std::int64_t off, int whence);
  // The Dis path it was opened by.
  std::string path(std::int32_t fd) const;
  void close(std::int32_t fd);
  // The union members (concrete paths) after the one descriptor fd opened,
  // which dirread reads on to; an empty list forgets them.
  struct UnionRead {
    std::vector<std::string> rest;
    std::int32_t cur = -1;  // the member being read, when not fd's own
  };
  void set_union(std::int32_t fd, std::vector<std::string> rest);
  UnionRead* union_read(std::int32_t fd);
  // /dev/time's text: microseconds since the epoch.
  std::string time_text() const;

 private:
  enum class Dev : std::uint8_t {
    Busec,
    Time,
    Cons,
    Consctl,
    User,
    Sysname,
    Random,
    Null,
    Sysctl,
    Pid,
    Wait,
    DevDir,   // /dev
    RootDir,  // what "/" lists besides the host's: dev and prog
    ProgDir,
    Prog,  // /prog/N
    Ctl,
    Status,
    Ns,
    Fd
  };
  struct Open {
    Dev dev;
    std::int64_t offset = 0;
    std::uint32_t pid = 0;  // /prog/N's files: whose (a thread id)
    bool listed = false;    // a directory whose entries dirread gave
  };
  std::optional<std::int32_t> open_prog(Call& c, const std::string& path);
  std::string prog_text(Call& c, const Open& f) const;
  std::int64_t write_ctl(Call& c, const Open& f, const std::uint8_t* p, std::int32_t n);
  std::int32_t add(Open f);
  std::string text(Call& c, Dev d) const;
  Open* find(Call& c, std::int32_t fd);

  std::map<std::int32_t, Open> open_;
  std::map<std::int32_t, UnionRead> unions_;
  std::int32_t next_ = kDevFdBase;
  std::chrono::steady_clock::time_point busec_start_ = std::chrono::steady_clock::now();
  std::optional<std::int64_t> fixed_time_;
};

}  // namespace dis::vm
