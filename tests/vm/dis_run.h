// Runs the built `dis` tool with a command line and captures its status,
// stdout and stderr (for tests that compare runs under different options).
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace distest {

struct ToolRun {
  int status = -1;
  std::string out, err;
};

inline std::string slurp_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// `args` is appended to the tool's path as shell text (quote file names).
inline ToolRun run_dis_tool(const std::string& args) {
  namespace fs = std::filesystem;
  static int serial = 0;
  fs::path tmp = fs::temp_directory_path() /
                 ("dis_run_" + std::to_string(::getpid()) + "_" + std::to_string(serial++));
  const std::string out = tmp.string() + ".out", err = tmp.string() + ".err";
  std::string cmd = std::string(DIS_BIN_DIR) + "/dis " + args + " >" + out + " 2>" + err;
  int rc = std::system(cmd.c_str());
  ToolRun r{WIFEXITED(rc) ? WEXITSTATUS(rc) : -1, slurp_file(out), slurp_file(err)};
  fs::remove(out);
  fs::remove(err);
  return r;
}

}  // namespace distest
