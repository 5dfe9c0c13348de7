// The embedding API: a host-registered builtin module linked by name and
// signature, output captured, statistics read; a signature mismatch fails
// the load (the program then finds the module nil).
#include <gtest/gtest.h>

#include "signature.h"
#include "vm_test_util.h"

namespace {

std::string caller(std::uint32_t sig) {
  char s[16];
  std::snprintf(s, sizeof s, "0x%x", sig);
  // 24(mp) = "$Twice", the loaded module at 28(mp); twice(21) -> 40(fp).
  return vmtest::program(
      "\tload\t24(mp),$1,28(mp)\n"
      "\tmframe\t28(mp),$0,192(fp)\n"
      "\tmovw\t$21,32(192(fp))\n"
      "\tlea\t40(fp),16(192(fp))\n"
      "\tmcall\t192(fp),$0,28(mp)\n" +
          vmtest::print_int("40(fp)"),
      "\tstring\t@mp+24,\"$Twice\"\n", "",
      "\tword\t@ldt+12,1\n\text\t@ldt+16," + std::string(s) + ",\"twice\"\n");
}

dis::vm::NativeFunction twice() {
  return {"twice", "f(i)i", 0, 40, {}, [](dis::vm::Call& c) { c.ret_int(2 * c.arg_int(32)); }};
}

TEST(Embed, HostModuleIsCalledAndOutputCaptured) {
  std::ostringstream out, err;
  dis::vm::Options o;
  o.out = &out;
  o.err = &err;
  dis::vm::VM vm(o);
  vm.register_module("$Twice", {twice()});
  std::string text = caller(dis::type_sig("f(i)i"));
  // The import table header says 2 tables.
  text.replace(text.find("ldts\t@ldt,1"), 11, "ldts\t@ldt,2");
  auto r = vm.run_module(dis::assembly::assemble(text, "e.s"), "e.s", {"e.s"});
  EXPECT_EQ(r.status, 0) << err.str();
  EXPECT_EQ(out.str(), "42\n");
  auto s = vm.stats();
  EXPECT_GT(s.instructions, 5u);
  EXPECT_EQ(s.heap.allocs, s.heap.frees);  // nothing leaked
}

TEST(Embed, SignatureMismatchFailsTheLoad) {
  std::ostringstream out, err;
  dis::vm::Options o;
  o.out = &out;
  o.err = &err;
  dis::vm::VM vm(o);
  vm.register_module("$Twice", {twice()});
  std::string text = caller(dis::type_sig("f(r)i"));
  text.replace(text.find("ldts\t@ldt,1"), 11, "ldts\t@ldt,2");
  auto r = vm.run_module(dis::assembly::assemble(text, "e.s"), "e.s", {"e.s"});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(err.str().find("module not loaded"), std::string::npos) << err.str();
}

}  // namespace
