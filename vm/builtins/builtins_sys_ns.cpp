// $Sys name space calls: bind, unmount and chdir on the calling thread's
// name space (name_space.h), and the resolution every path-taking builtin
// makes through it (sys_fd.h). mount needs a 9P client the VM does not
// have: it stays unimplemented (raising, as every missing $Sys function).
#include <sys/stat.h>
#include <unistd.h>

#include "sys_fd.h"

namespace dis::vm {

bool concrete_exists(Call& c, const std::string& concrete) {
  if (Devices::stat(c, concrete)) return true;
  struct stat s {};
  return ::stat(c.host_path(concrete).c_str(), &s) == 0;
}

namespace {

NameSpace::Exists exists_fn(Call& c) {
  return [&c](const std::string& p) { return concrete_exists(c, p); };
}

bool concrete_is_dir(Call& c, const std::string& concrete) {
  if (auto d = Devices::stat(c, concrete)) return d->dir;
  struct stat s {};
  return ::stat(c.host_path(concrete).c_str(), &s) == 0 && S_ISDIR(s.st_mode);
}

// bind(source, target, flags): int -- positive on success, as Inferno's.
void sys_bind(Call& c) {
  std::string err;
  std::shared_ptr<NameSpace>& ns = c.name_space();
  if (!ns->bind(c.arg_string(32), c.arg_string(36), c.arg_int(40), exists_fn(c), err)) {
    c.set_error_string(err);
    return c.ret_int(-1);
  }
  c.ret_int(1);
}

// unmount(source, target): int -- source nil undoes every bind on target.
void sys_unmount(Call& c) {
  std::string err;
  if (!c.name_space()->unmount(c.arg_string(32), c.arg_string(36), exists_fn(c), err)) {
    c.set_error_string(err);
    return c.ret_int(-1);
  }
  c.ret_int(0);
}

// chdir(path): int. The name space's current directory moves (shared by
// the threads sharing it); while it names a host directory the host's
// working directory follows, for the paths the loader takes relative.
void sys_chdir(Call& c) {
  const std::string name = c.arg_string(32);
  std::shared_ptr<NameSpace>& ns = c.name_space();
  const std::string abs = ns->absolute(name);
  const bool host_relative = abs.empty() || (abs[0] != '/' && abs[0] != '#');
  const std::string concrete = host_relative ? abs : resolve_path(c, abs);
  if (!concrete_exists(c, concrete)) {
    set_path_errstr(c, name, ENOENT);
    return c.ret_int(-1);
  }
  if (!concrete_is_dir(c, concrete)) {
    set_path_errstr(c, name, ENOTDIR);
    return c.ret_int(-1);
  }
  if (!Devices::stat(c, concrete) && ::chdir(c.host_path(concrete).c_str()) < 0) {
    set_path_errstr(c, name, errno);
    return c.ret_int(-1);
  }
  if (!host_relative) ns->dot = abs;
  c.ret_int(0);
}

}  // namespace

std::string resolve_path(Call& c, const std::string& path) {
  return c.name_space()->resolve(path, exists_fn(c)).front();
}

std::vector<std::string> resolve_union(Call& c, const std::string& path) {
  return c.name_space()->resolve(path, exists_fn(c));
}

std::string create_path(Call& c, const std::string& path) {
  const NameSpace& ns = *c.name_space();
  const std::string abs = ns.absolute(path);
  const std::size_t slash = abs.rfind('/');
  if (slash == std::string::npos || abs[0] == '#') return resolve_path(c, abs);
  const std::string dir = ns.create_target(slash == 0 ? "/" : abs.substr(0, slash), exists_fn(c));
  if (dir.empty()) {
    c.set_error_string("mounted directory forbids creation");
    return "";
  }
  return (dir == "/" ? "" : dir) + abs.substr(slash);
}

void add_sys_ns_functions(Impls& impls) {
  impls["bind"] = sys_bind;
  impls["unmount"] = sys_unmount;
  impls["chdir"] = sys_chdir;
}

}  // namespace dis::vm
