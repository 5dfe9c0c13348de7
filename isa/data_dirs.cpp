#include "data_dirs.h"

#include <dlfcn.h>

#include <filesystem>

namespace fs = std::filesystem;

namespace dis {

namespace {

bool inside(const fs::path& p, const fs::path& dir) {
  auto rel = p.lexically_relative(dir);
  return !rel.empty() && *rel.begin() != "..";
}

}  // namespace

std::vector<std::string> data_dirs(const std::string& source_rel, const std::string& share_rel) {
  std::vector<fs::path> cands;
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    fs::path bin = exe.parent_path();
    cands = {bin / ".." / source_rel, bin / ".." / ".." / source_rel,
             bin / ".." / "share" / "dis" / share_rel};
  }
  // The file holding this code: libdisvm.so in an installed tree, found
  // wherever the tree was moved (for a static link it is the executable).
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&data_dirs), &info) && info.dli_fname) {
    fs::path lib = fs::absolute(info.dli_fname, ec).parent_path();
    if (!ec) cands.push_back(lib / ".." / "share" / "dis" / share_rel);
  }
#ifdef DIS_INSTALL_DATADIR
  cands.push_back(fs::path(DIS_INSTALL_DATADIR) / "dis" / share_rel);
#endif
#if defined(DIS_SOURCE_DIR) && defined(DIS_BINARY_DIR)
  if (!ec && inside(exe.lexically_normal(), fs::path(DIS_BINARY_DIR).lexically_normal()))
    cands.push_back(fs::path(DIS_SOURCE_DIR) / source_rel);
#endif
  std::vector<std::string> out;
  for (const auto& c : cands) {
    fs::path d = c.lexically_normal();
    if (!fs::is_directory(d, ec)) continue;
    bool seen = false;
    for (const auto& o : out) seen = seen || o == d.string();
    if (!seen) out.push_back(d.string());
  }
  return out;
}

}  // namespace dis
