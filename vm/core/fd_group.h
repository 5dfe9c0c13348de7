// A Dis thread's file descriptor table (Inferno's Fgrp): Dis descriptors are
// small integers indexing it. A spawned thread shares its parent's table;
// Sys->pctl's FORKFD gives the caller a copy and NEWFD a table holding only
// the listed descriptors. Entries are shared references to open files
// (Inferno's Chan), so a host descriptor closes when the last table (or
// blocked transfer) holding it lets go. Only the thread holding the
// interpreter reads or changes a table.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

namespace dis::vm {

// What a descriptor refers to. `desc` is a host descriptor, or one the
// builtins give their own meaning (devices); 0, 1 and 2 are the VM's
// standard input, output and error, which this base never closes. A
// subclass owning its descriptor closes it in its destructor.
class OpenFile {
 public:
  explicit OpenFile(std::int32_t d) : desc(d) {}
  virtual ~OpenFile() = default;
  OpenFile(const OpenFile&) = delete;
  OpenFile& operator=(const OpenFile&) = delete;
  const std::int32_t desc;
};
using FileRef = std::shared_ptr<OpenFile>;

class FdGroup {
 public:
  // The largest descriptor a table holds (Inferno bounds its tables too).
  static constexpr std::int32_t kMaxFd = 4096;

  // A table whose 0, 1 and 2 are the VM's standard streams (a first thread's).
  static std::shared_ptr<FdGroup> standard();

  FileRef get(std::int32_t fd) const;  // nullptr when fd is not open
  // Puts f at the lowest free descriptor; -1 when the table is full.
  std::int32_t add(FileRef f);
  // Puts f at fd, replacing what was there; false when fd is out of range.
  bool set(std::int32_t fd, FileRef f);
  bool close(std::int32_t fd);  // false when fd was not open
  std::shared_ptr<FdGroup> copy() const;
  // A new table holding only the listed descriptors (those open here).
  std::shared_ptr<FdGroup> keeping(const std::vector<std::int32_t>& fds) const;

 private:
  std::vector<FileRef> slots_;
};

}  // namespace dis::vm
