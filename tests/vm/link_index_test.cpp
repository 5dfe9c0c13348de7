// mframe/mcall with a negative link index call entry -k-1 of the target
// module's own export list (how Limbo's function references reach a
// function without an import table); out of range is `module not loaded`.
#include <gtest/gtest.h>

#include "vm_test_util.h"

namespace {

// init calls its own second export (times6, link -2) through `self`.
std::string program(int k) {
  const std::string ks = std::to_string(k);
  return "\tload\t0(mp),$0,8(mp)\n"
         "\tself\t12(mp)\n"
         "\tmframe\t12(mp),$" +
         ks +
         ",40(fp)\n"
         "\tmovw\t$7,32(40(fp))\n"
         "\tlea\t44(fp),16(40(fp))\n"
         "\tmcall\t40(fp),$" +
         ks +
         ",12(mp)\n"
         "\tframe\t$1,48(fp)\n"
         "\tmovp\t4(mp),32(48(fp))\n"
         "\tmovw\t44(fp),36(48(fp))\n"
         "\tlea\t52(fp),16(48(fp))\n"
         "\tmcall\t48(fp),$0,8(mp)\n"
         "\tret\n"
         "\tmulw\t$6,32(fp),0(16(fp))\n"
         "\tret\n"
         "\tentry\t0, 2\n"
         "\tdesc\t$0,16,\"f0\"\n"
         "\tdesc\t$1,40,\"0080\"\n"
         "\tdesc\t$2,56,\"00c0\"\n"
         "\tdesc\t$3,40,\"\"\n"
         "\tvar\t@mp,16\n"
         "\tstring\t@mp+0,\"$Sys\"\n"
         "\tstring\t@mp+4,\"six times seven is %d\\n\"\n"
         "\tmodule\tNeg\n"
         "\tlink\t2,0,0x4244b354,\"init\"\n"
         "\tlink\t3,12,0x1a2b3c4d,\"times6\"\n"
         "\tldts\t@ldt,1\n"
         "\tword\t@ldt+0,1\n"
         "\text\t@ldt+4,0xac849033,\"print\"\n";
}

TEST(LinkIndex, NegativeIndexCallsTheModulesOwnExport) {
  vmtest::Outcome o = vmtest::run_text(program(-2));
  EXPECT_EQ(o.status, 0) << o.err;
  EXPECT_EQ(o.out, "six times seven is 42\n");
}

TEST(LinkIndex, NegativeIndexPastTheExportsIsModuleNotLoaded) {
  vmtest::Outcome o = vmtest::run_text(program(-3));
  EXPECT_EQ(o.status, 1);
  EXPECT_NE(o.err.find("module not loaded"), std::string::npos) << o.err;
}

}  // namespace
