// A Dis thread's name space (Inferno's Pgrp): its current directory and the
// directories bound over others (Sys->bind). Paths here are Dis paths; a
// "concrete" path is one with every bind undone, which the builtins then
// map to a device or to the host (Options::root). A spawned thread shares
// its parent's name space; Sys->pctl's FORKNS gives the caller a copy and
// NEWNS one with the same directories but no binds. Only the thread holding
// the interpreter reads or changes one.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace dis::vm {

class NameSpace {
 public:
  // sys.m's bind flags.
  static constexpr std::int32_t kMREPL = 0, kMBEFORE = 1, kMAFTER = 2, kMCREATE = 4;
  // Whether a concrete path names a file (walks stop at the first union
  // member holding the next element).
  using Exists = std::function<bool(const std::string& concrete)>;

  // The current directory, absolute and clean; "" while it is still the
  // host's working directory (relative paths are then the host's, and binds
  // made with relative paths apply to them as written).
  std::string dot;

  // Inferno's cleanname: no "." or empty elements, ".." resolved lexically.
  static std::string clean(const std::string& path);
  // `path` against dot, cleaned; relative paths stay relative while dot is "".
  std::string absolute(const std::string& path) const;

  // Where `path` leads: every member of the union directory it ends at, in
  // search order (one path when it is no union), concrete. For a path no
  // member holds, the first member's.
  std::vector<std::string> resolve(const std::string& path, const Exists& exists) const;
  // The member a create in union `path` goes to (the first bound with
  // MCREATE), or "" when the union forbids creation; `path` itself when it
  // is no union.
  std::string create_target(const std::string& dir, const Exists& exists) const;

  // Binds `src` over `on` (both resolved now, as Inferno binds the files
  // they name); false with `err` set when a flag or path is wrong.
  bool bind(const std::string& src, const std::string& on, std::int32_t flags, const Exists& exists,
            std::string& err);
  // Undoes the binds of `src` on `on` (every one when src is "").
  bool unmount(const std::string& src, const std::string& on, const Exists& exists,
               std::string& err);

  // Inferno's /prog/N/ns lines: "bind [-FLAGS] SRC ON" for each member of
  // each union, then "cd DOT" (`host_dot` while dot is the host's).
  std::vector<std::string> describe(const std::string& host_dot) const;

  std::shared_ptr<NameSpace> copy() const { return std::make_shared<NameSpace>(*this); }
  std::shared_ptr<NameSpace> fresh() const;

 private:
  struct Member {
    std::string path;  // concrete
    std::int32_t flags = 0;
  };
  struct Union {
    std::string on;  // concrete: the directory the binds cover
    std::vector<Member> members;
  };
  const Union* find(const std::string& concrete) const;
  // The walk to `path`: the concrete path of its last element before that
  // element's union applies, and the members there.
  std::vector<std::string> walk(const std::string& path, const Exists& exists,
                                std::string* key) const;
  std::vector<Union> unions_;  // in the order first bound
};

}  // namespace dis::vm
