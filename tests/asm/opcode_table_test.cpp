// The opcode table's flags and meanings (isa/opcodes.def): the lists the
// assembler, verifier and decoder used to write out by hand now come from
// the flags, so the flags must name exactly those opcodes.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "opcodes.h"

namespace {

using dis::Op;
using dis::OpFlags;

std::set<std::string> with(auto pred) {
  std::set<std::string> out;
  for (const dis::OpInfo& i : dis::kOpTable)
    if (pred(i)) out.insert(std::string(i.name));
  return out;
}

TEST(OpcodeTable, TypeOperandsAreTheSourceOrMiddleOfTheAllocatingAndCopyingOps) {
  EXPECT_EQ(
      with([](const dis::OpInfo& i) { return dis::type_operand(i.op) == dis::TypeOperand::Src; }),
      (std::set<std::string>{"frame", "new", "newz", "newcmp"}));
  EXPECT_EQ(
      with([](const dis::OpInfo& i) { return dis::type_operand(i.op) == dis::TypeOperand::Mid; }),
      (std::set<std::string>{"newa", "newaz", "movmp", "consmp", "headmp"}));
}

TEST(OpcodeTable, CallAndIndexFlagsNameTheirFamilies) {
  EXPECT_EQ(with([](const dis::OpInfo& i) { return has_flag(i.flags, OpFlags::Call); }),
            (std::set<std::string>{"call", "frame", "mcall", "mframe", "spawn", "mspawn", "ret",
                                   "load", "exit"}));
  EXPECT_EQ(with([](const dis::OpInfo& i) { return has_flag(i.flags, OpFlags::Index); }),
            (std::set<std::string>{"indx", "indw", "indf", "indb", "indl", "indc", "lena", "lenc",
                                   "lenl"}));
}

TEST(OpcodeTable, EveryOpcodeSaysWhatItDoesInOneShortLine) {
  for (const dis::OpInfo& i : dis::kOpTable) {
    EXPECT_FALSE(i.meaning.empty()) << i.name;
    EXPECT_LE(i.meaning.size(), 70u) << i.name;
    EXPECT_EQ(i.meaning.find('\n'), std::string_view::npos) << i.name;
  }
  EXPECT_EQ(dis::op_info(Op::addw_).meaning, "d = m + s, ints");
}

}  // namespace
