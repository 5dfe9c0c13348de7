// libFuzzer target: read_sbl on arbitrary text must either return the
// symbol tables or throw InputError. What it accepts must write back as a
// file it reads again, and the written form must be a fixed point (writing
// what was read from it gives the same text): the writer's compression of
// positions is canonical.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "diag.h"
#include "sbl.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  dis::Sbl s;
  try {
    s = dis::read_sbl(text, "fuzz.sbl");
  } catch (const dis::InputError&) {
    return 0;
  }
  const std::string once = dis::write_sbl(s);
  std::string twice;
  try {
    twice = dis::write_sbl(dis::read_sbl(once, "written.sbl"));
  } catch (const dis::InputError& e) {
    std::fprintf(stderr, "written .sbl refused on reading: %s\n", e.what());
    std::abort();
  }
  if (twice != once) {
    std::fprintf(stderr, "writing what was read from a written .sbl changed it\n");
    std::abort();
  }
  return 0;
}
