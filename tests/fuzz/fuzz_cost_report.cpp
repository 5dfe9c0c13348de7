// libFuzzer target: cost --diff's report reader on arbitrary text must
// either return a report or throw InputError, and a report it returns must
// compare with itself, by line and by instruction, without any other
// exception or crash.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "cost_diff.h"
#include "diag.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  nlohmann::json j;
  try {
    j = dis::cost::parse_report(text, "fuzz.json");
  } catch (const dis::InputError&) {
    return 0;
  }
  (void)dis::cost::diff_reports(j, j, 95);
  (void)dis::cost::diff_by_instruction(j, j, 95);
  return 0;
}
