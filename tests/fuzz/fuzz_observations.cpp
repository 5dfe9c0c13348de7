// libFuzzer target: observation lines (bench's output, bstat's and plot's
// input) on arbitrary text must either parse or throw InputError. A line
// that parses must format as a line that parses to the same values.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>

#include "diag.h"
#include "observations.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  std::vector<dis::cost::Observation> all;
  try {
    all = dis::cost::read_observations(in, "fuzz.obs");
  } catch (const dis::InputError&) {
    return 0;
  }
  for (const auto& obs : all) {
    const std::string line = dis::cost::format_observation_line(obs);
    dis::cost::Observation back;
    try {
      back = dis::cost::parse_observation_line(line, "formatted.obs", 1);
    } catch (const dis::InputError& e) {
      std::fprintf(stderr, "formatted line refused: %s\n%s\n", e.what(), line.c_str());
      std::abort();
    }
    if (dis::cost::format_observation_line(back) != line) {
      std::fprintf(stderr, "formatting a parsed formatted line changed it:\n%s\n", line.c_str());
      std::abort();
    }
  }
  return 0;
}
