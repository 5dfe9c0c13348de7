// libFuzzer target: the assembler on arbitrary text must either return a
// Module or throw InputError; any other exception, crash, hang or huge
// allocation is a bug. A Module it returns must also be writable as .dis and
// readable back (an EncodeError or a refused file would mean the assembler
// accepted something the format cannot hold).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>
#include <vector>

#include "assembler.h"
#include "diag.h"
#include "dis_file.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const dis::Module m = dis::assembly::assemble(text, "fuzz.s");
    const std::vector<std::uint8_t> bytes = dis::write_dis(m);
    try {
      (void)dis::read_dis(bytes, "fuzz.dis");
    } catch (const dis::InputError& e) {
      std::fprintf(stderr, "assembled module refused by read_dis: %s\n", e.what());
      std::abort();
    }
  } catch (const dis::InputError&) {
  }
  return 0;
}
