// libFuzzer target: read_dis on arbitrary bytes must either return a Module
// or throw InputError (no crash, hang, huge allocation or other exception).
// A Module it returns must write without EncodeError, and reading that
// output must give the same Module (data items merged as the writer merges
// them; that is the only normalisation the writer performs).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <vector>

#include "diag.h"
#include "dis_file.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  dis::Module m;
  try {
    m = dis::read_dis(std::span<const std::uint8_t>(data, size), "fuzz.dis");
  } catch (const dis::InputError&) {
    return 0;
  }
  std::vector<std::uint8_t> out;
  try {
    out = dis::write_dis(m);
  } catch (const dis::EncodeError& e) {
    std::fprintf(stderr, "module read_dis accepted cannot be written: %s\n", e.what());
    std::abort();
  }
  m.data = dis::merge_data_items(m.data);
  try {
    if (!(dis::read_dis(out, "rewritten.dis") == m)) {
      std::fprintf(stderr, "rewritten module differs from the one read\n");
      std::abort();
    }
  } catch (const dis::InputError& e) {
    std::fprintf(stderr, "rewritten module refused: %s\n", e.what());
    std::abort();
  }
  return 0;
}
