// Runs the built `dis` as a child process for tests: its exit status, stdout
// and stderr. `shell_prefix` runs first in the same shell (e.g. "ulimit -n
// 100;") so a limit applies to dis alone.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "shared_corpus.h"

namespace distest {

inline std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// An empty directory NAME_<pid> under the system's temporary directory.
inline std::filesystem::path fresh_dir(const std::string& name) {
  namespace fs = std::filesystem;
  fs::path d = fs::temp_directory_path() / (name + "_" + std::to_string(::getpid()));
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

struct Result {
  int status;
  std::string out, err;
};

inline Result run_dis(const std::string& args, const std::string& shell_prefix = "") {
  namespace fs = std::filesystem;
  fs::path tmp = fs::temp_directory_path() / ("dis_test_" + std::to_string(::getpid()));
  std::string cmd = shell_prefix + std::string(DIS_BIN_DIR) + "/dis " + args + " >" + tmp.string() +
                    ".out 2>" + tmp.string() + ".err";
  int rc = std::system(cmd.c_str());
  Result r{WIFEXITED(rc) ? WEXITSTATUS(rc) : -1, slurp(tmp.string() + ".out"),
           slurp(tmp.string() + ".err")};
  fs::remove(tmp.string() + ".out");
  fs::remove(tmp.string() + ".err");
  return r;
}

// The programs of the shared Limbo corpus (directories with an
// expected.out), sorted.
inline std::vector<std::string> corpus_names() {
  namespace fs = std::filesystem;
  std::vector<std::string> names;
  for (auto& e : distest::entries_of(distest::shared_limbo_dir()))
    if (e.is_directory() && fs::exists(e.path() / "expected.out"))
      names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace distest
