// Loading modules as Inferno's compiler expects: another module's variables
// are reached through word 0 of the module value (its MP, `movw 0(m),t` then
// `x(t)`, as mashparse.dis does), and a failed load leaves its reason in the
// error string that %r prints.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "dis_runner.h"
#include "vm_test_util.h"

namespace fs = std::filesystem;

namespace {

// Module B: 7 in its data at 36(mp); get() returns that word.
const char* const kModuleB =
    "\tentry\t-1, -1\n"
    "\tdesc\t$0,40,\"\"\n"
    "\tdesc\t$1,32,\"\"\n"
    "\tvar\t@mp,40\n"
    "\tword\t@mp+36,7\n"
    "\tmodule\tB\n"
    "\tlink\t1,0,0x1234,\"get\"\n"
    "\tmovw\t36(mp),0(16(fp))\n"
    "\tret\n";

// Loads the module at 24(mp) (its path) into 28(mp) with import table 1.
std::string load_b() { return "\tload\t24(mp),$1,28(mp)\n"; }

std::string with_b_import(const std::string& text) {
  std::string t = text;
  t.replace(t.find("ldts\t@ldt,1"), 11, "ldts\t@ldt,2");
  return t;
}

TEST(ModuleData, AnotherModulesVariablesThroughTheModuleValue) {
  fs::path dir = distest::fresh_dir("dis_moddata");
  std::ofstream(dir / "b.s") << kModuleB;
  std::string body = load_b() +
                     // t = B's MP; print B's x, set it to 9.
                     "\tmovw\t0(28(mp)),40(fp)\n" + vmtest::print_int("36(40(fp))") +
                     "\tmovw\t$9,36(40(fp))\n"
                     // B's own code sees the new value.
                     "\tmframe\t28(mp),$0,192(fp)\n"
                     "\tlea\t44(fp),16(192(fp))\n"
                     "\tmcall\t192(fp),$0,28(mp)\n" +
                     vmtest::print_int("44(fp)");
  std::string text = vmtest::program(body, "\tstring\t@mp+24,\"" + (dir / "b.s").string() + "\"\n",
                                     "", "\tword\t@ldt+12,1\n\text\t@ldt+16,0x1234,\"get\"\n");
  vmtest::Outcome o = vmtest::run_text(with_b_import(text));
  EXPECT_EQ(o.status, 0) << o.err;
  EXPECT_EQ(o.out, "7\n9\n");
  fs::remove_all(dir);
}

TEST(ModuleData, NilModuleValueIsADereferenceOfNil) {
  vmtest::Outcome o = vmtest::run("\tmovw\t0(24(mp)),40(fp)\n" + vmtest::print_int("36(40(fp))"));
  EXPECT_EQ(o.status, 1);
  EXPECT_NE(o.err.find("dereference of nil"), std::string::npos) << o.err;
}

// Prints the error string: print("%r\n") with the format at 28(mp).
std::string print_errstr() {
  return "\tframe\t$2,192(fp)\n\tmovp\t28(mp),32(192(fp))\n\tlea\t196(fp),16(192(fp))\n"
         "\tmcall\t192(fp),$0,4(mp)\n";
}

std::string failed_load(const std::string& path) {
  return vmtest::program("\tload\t24(mp),$0,40(fp)\n" + print_errstr(),
                         "\tstring\t@mp+24,\"" + path + "\"\n\tstring\t@mp+28,\"%r\\n\"\n");
}

TEST(ModuleData, FailedLoadOfAMissingFileSaysWhy) {
  vmtest::Outcome o = vmtest::run_text(failed_load("/nonexistent/x.dis"));
  EXPECT_EQ(o.status, 0) << o.err;
  EXPECT_EQ(o.out, "'/nonexistent/x.dis' file does not exist\n");
}

TEST(ModuleData, FailedLoadOfAnUnknownBuiltinSaysWhy) {
  vmtest::Outcome o = vmtest::run_text(failed_load("$Nosuch"));
  EXPECT_EQ(o.status, 0) << o.err;
  EXPECT_EQ(o.out, "no such builtin module $Nosuch\n");
}

}  // namespace
