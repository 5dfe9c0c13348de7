#include "stream_tee.h"

#include <sstream>

namespace dis::cost {

std::string failure_position(const std::string& diagnostics, const std::string& message) {
  if (message.empty()) return "";
  const std::string tail = ": " + message;
  std::istringstream in(diagnostics);
  for (std::string line; std::getline(in, line);)
    if (line.size() > tail.size() &&
        line.compare(line.size() - tail.size(), tail.size(), tail) == 0)
      return line.substr(0, line.size() - tail.size());
  return "";
}

}  // namespace dis::cost
