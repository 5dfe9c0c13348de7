// Runs a built tool through the shell and captures its stdout and status.
#pragma once

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

namespace dis::cost::test {

struct ToolRun {
  std::string out;
  int status = -1;  // exit status, or -1 when it did not exit normally
};

inline ToolRun run_shell(const std::string& command) {
  ToolRun r;
  FILE* p = popen(command.c_str(), "r");
  if (p == nullptr) return r;
  std::array<char, 4096> buf{};
  std::size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) r.out.append(buf.data(), n);
  int st = pclose(p);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return r;
}

inline std::string tool(const std::string& name) { return std::string(DIS_BIN_DIR) + "/" + name; }

// A file of the source tree, by its path from the top.
inline std::string source(const std::string& rel) {
  return std::string(DIS_SOURCE_DIR) + "/" + rel;
}

inline std::string fixtures() { return std::string(DIS_SOURCE_DIR) + "/tests/cost/fixtures"; }

inline std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace dis::cost::test
