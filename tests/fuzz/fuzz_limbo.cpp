// libFuzzer target: the Limbo compiler on arbitrary source must either
// return a module with its symbol tables or throw InputError (no crash,
// hang, runaway recursion or other exception). A module it returns must
// write as a .dis file that read_dis accepts.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "compiler.h"
#include "diag.h"
#include "dis_file.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string source(reinterpret_cast<const char*>(data), size);
  dis::limbo::CompileOptions opts;
  opts.include_dirs.push_back(DIS_MODULE_DIR);
  dis::Module m;
  try {
    m = dis::limbo::compile_source_with_symbols("fuzz.b", source, opts).module;
  } catch (const dis::InputError&) {
    return 0;
  }
  try {
    (void)dis::read_dis(dis::write_dis(m), "fuzz.dis");
  } catch (const dis::InputError& e) {
    std::fprintf(stderr, "compiled module refused by read_dis: %s\n", e.what());
    std::abort();
  } catch (const dis::EncodeError& e) {
    std::fprintf(stderr, "compiled module cannot be written: %s\n", e.what());
    std::abort();
  }
  return 0;
}
