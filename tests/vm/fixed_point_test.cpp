// The fixed-point family (mulx, divx, cvtxx and their 0 and 1 forms) against
// values computed by hand from Inferno's semantics: the scale p (28(fp) for
// mulx/divx, the middle operand for cvtxx) shifts left when p >= 0 and right
// (arithmetically) when negative; the 0 forms divide (mulx, cvtxx) or
// multiply (divx) by the temporary at 20(fp) and give 0 for a zero operand
// before any division; the 1 forms take rounding flags from the scale's two
// low bits (bit 1: add +-(a-1), or +-1 for divx; bit 0: bias 2^-p - 1 before
// the shift) and shift by scale >> 2.
#include <gtest/gtest.h>

#include <string>

#include "vm_test_util.h"

namespace {

// d = op(s, m) with the frame temporaries 20(fp) = t20, 28(fp) = t28.
vmtest::Outcome fx(const std::string& op, int s, int m, int t20, int t28) {
  auto mov = [](int v, const char* dst) {
    return "\tmovw\t$" + std::to_string(v) + "," + dst + "\n";
  };
  return vmtest::run(mov(t20, "20(fp)") + mov(t28, "28(fp)") + mov(s, "40(fp)") + mov(m, "44(fp)") +
                     "\t" + op + "\t40(fp),44(fp),48(fp)\n" + vmtest::print_int("48(fp)"));
}

std::string value(const std::string& op, int s, int m, int t20, int t28) {
  vmtest::Outcome o = fx(op, s, m, t20, t28);
  EXPECT_EQ(o.status, 0) << op << " " << o.err;
  return o.out;
}

void expect_zero_divide(const std::string& op, int s, int m, int t20, int t28) {
  vmtest::Outcome o = fx(op, s, m, t20, t28);
  EXPECT_EQ(o.status, 1) << op;
  EXPECT_NE(o.err.find("zero divide"), std::string::npos) << op << " " << o.err;
}

TEST(VmFixedPoint, MulxShiftsTheProductByTheScaleAt28) {
  EXPECT_EQ(value("mulx", 5, 3, 0, 2), "60\n");               // 15 << 2
  EXPECT_EQ(value("mulx", 7, 100, 0, -3), "87\n");            // 700 >> 3
  EXPECT_EQ(value("mulx", 7, -100, 0, -3), "-88\n");          // -700 >> 3 rounds down
  EXPECT_EQ(value("mulx", 65536, 65536, 0, -16), "65536\n");  // 64-bit product
}

TEST(VmFixedPoint, DivxShiftsTheDividendFirst) {
  EXPECT_EQ(value("divx", 2, 3, 0, 4), "24\n");    // (3 << 4) / 2
  EXPECT_EQ(value("divx", 2, 7, 0, -1), "1\n");    // (7 >> 1) / 2
  EXPECT_EQ(value("divx", 2, -7, 0, -1), "-2\n");  // (-7 >> 1) = -4, / 2
  expect_zero_divide("divx", 0, 7, 0, 1);
}

TEST(VmFixedPoint, CvtxxShiftsByTheMiddleOperand) {
  EXPECT_EQ(value("cvtxx", 5, 3, 99, 99), "40\n");
  EXPECT_EQ(value("cvtxx", -20, -2, 99, 99), "-5\n");
  EXPECT_EQ(value("cvtxx", -21, -2, 99, 99), "-6\n");
}

TEST(VmFixedPoint, Mulx0DividesByTheTemporaryAt20) {
  EXPECT_EQ(value("mulx0", 7, 6, 4, 1), "21\n");    // (42 << 1) / 4
  EXPECT_EQ(value("mulx0", 7, 6, 3, -1), "7\n");    // (42 >> 1) / 3
  EXPECT_EQ(value("mulx0", 7, -6, 4, 0), "-10\n");  // -42 / 4 truncates
  EXPECT_EQ(value("mulx0", 7, 0, 0, 0), "0\n");     // zero operand: no division
  expect_zero_divide("mulx0", 7, 6, 0, 0);
}

TEST(VmFixedPoint, Divx0MultipliesByTheTemporaryAt20ThenShifts) {
  EXPECT_EQ(value("divx0", 3, 5, 6, 2), "40\n");    // ((6 * 5) << 2) / 3
  EXPECT_EQ(value("divx0", 3, -5, 6, -1), "-5\n");  // (-30 >> 1) / 3
  EXPECT_EQ(value("divx0", 0, 0, 6, 2), "0\n");     // zero dividend: no division
  expect_zero_divide("divx0", 0, 1, 6, 2);
}

TEST(VmFixedPoint, Cvtxx0ShiftsThenDividesByTheTemporaryAt20) {
  EXPECT_EQ(value("cvtxx0", 10, 2, 3, 99), "13\n");    // 40 / 3
  EXPECT_EQ(value("cvtxx0", -10, -1, 3, 99), "-1\n");  // -5 / 3
  EXPECT_EQ(value("cvtxx0", 0, 2, 0, 99), "0\n");
  expect_zero_divide("cvtxx0", 10, 2, 0, 99);
}

// Scale words: (p << 2) | flags, with p = -1.
constexpr int kP = -4, kPw = -3, kPv = -2, kPvw = -1;

TEST(VmFixedPoint, Mulx1RoundingFlags) {
  EXPECT_EQ(value("mulx1", 3, 7, 4, kP), "2\n");      // (21 >> 1) / 4
  EXPECT_EQ(value("mulx1", 3, 7, 4, kPv), "3\n");     // (10 + 3) / 4
  EXPECT_EQ(value("mulx1", 3, -7, 1, kP), "-11\n");   // -21 >> 1
  EXPECT_EQ(value("mulx1", 3, -7, 1, kPw), "-10\n");  // (-21 + 1) >> 1: signs differ
  EXPECT_EQ(value("mulx1", 3, 7, 1, kPw), "10\n");    // same signs: no bias
  EXPECT_EQ(value("mulx1", 3, 7, 4, kPvw), "3\n");    // ((21 + 1) >> 1 + 3) / 4
  EXPECT_EQ(value("mulx1", 3, -7, 4, kPvw), "-3\n");  // (-21 >> 1 - 3) / 4
  EXPECT_EQ(value("mulx1", 0, 7, 0, kPvw), "0\n");
  expect_zero_divide("mulx1", 3, 7, 0, kP);
}

TEST(VmFixedPoint, Divx1RoundingFlags) {
  EXPECT_EQ(value("divx1", 2, 5, 1, kP), "1\n");     // (5 >> 1) / 2
  EXPECT_EQ(value("divx1", 2, 5, 1, kPv), "2\n");    // + 1
  EXPECT_EQ(value("divx1", 2, -5, 1, kPv), "-2\n");  // (-5 >> 1) / 2 - 1
  EXPECT_EQ(value("divx1", 1, -5, 1, kP), "-3\n");   // -5 >> 1
  EXPECT_EQ(value("divx1", 1, -5, 1, kPw), "-2\n");  // (-5 + 1) >> 1: x <= 0
  EXPECT_EQ(value("divx1", 1, 5, 1, kPw), "2\n");    // x > 0: no bias
  EXPECT_EQ(value("divx1", 0, 0, 1, kPw), "0\n");
  expect_zero_divide("divx1", 0, 5, 1, kP);
}

TEST(VmFixedPoint, Cvtxx1RoundingFlags) {
  EXPECT_EQ(value("cvtxx1", 7, kP, 3, 99), "1\n");     // (7 >> 1) / 3
  EXPECT_EQ(value("cvtxx1", 7, kPv, 3, 99), "1\n");    // (3 + 2) / 3
  EXPECT_EQ(value("cvtxx1", 7, kPvw, 3, 99), "2\n");   // ((7 + 1) >> 1 + 2) / 3
  EXPECT_EQ(value("cvtxx1", -7, kP, 1, 99), "-4\n");   // -7 >> 1
  EXPECT_EQ(value("cvtxx1", -7, kPw, 1, 99), "-3\n");  // (-7 + 1) >> 1
  EXPECT_EQ(value("cvtxx1", -7, kPv, 2, 99), "-2\n");  // (-4 - 1) / 2
  EXPECT_EQ(value("cvtxx1", 0, kP, 0, 99), "0\n");
  expect_zero_divide("cvtxx1", 7, kP, 0, 99);
}

}  // namespace
