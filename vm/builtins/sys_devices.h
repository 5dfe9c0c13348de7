// The VM's own device files, as Inferno's console device (#c) gives them
// under /dev, in the VM's name space rather than the host's: /dev/time,
// cons, consctl, user, sysname, random, null, sysctl, pid and busec; and of
// the program device (#p), /prog/N/wait (also #p/N/wait), whose reads give
// the exits of the threads thread N spawned. Every other path maps to the
// host (Options::root) as before.
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

#include "vm.h"

namespace dis::vm {

constexpr std::int32_t kDevFdBase = 1 << 28;
inline bool is_device_fd(std::int32_t fd) { return fd >= kDevFdBase; }

class Devices {
 public:
  // DIS_FIXED_TIME (microseconds since the epoch), when set, is what
  // /dev/time reads, so that programs printing the date give fixed output.
  Devices();

  // The descriptor for Dis path `path`, or nullopt when it names no device.
  // A /prog/N/wait of no live thread opens nothing, with the error string set.
  std::optional<std::int32_t> open(Call& c, const std::string& path);
  bool is_device_path(const std::string& path) const;
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
    Wait
  };
  struct Open {
    Dev dev;
    std::int64_t offset = 0;
    std::uint32_t pid = 0;  // Wait: whose (a thread id)
  };
  std::int32_t add(Open f);
  std::string text(Call& c, Dev d) const;
  Open* find(Call& c, std::int32_t fd);

  std::map<std::int32_t, Open> open_;
  std::int32_t next_ = kDevFdBase;
  std::chrono::steady_clock::time_point busec_start_ = std::chrono::steady_clock::now();
  std::optional<std::int64_t> fixed_time_;
};

}  // namespace dis::vm
