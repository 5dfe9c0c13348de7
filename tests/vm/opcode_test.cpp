// Per-family opcode tests: small assembly programs whose printed results are
// compared with hand-computed values, edge cases included.
#include <gtest/gtest.h>

#include "interp.h"
#include "vm_test_util.h"

using namespace vmtest;

namespace {

TEST(VmArith, WordOverflowWrapsAndDivisionEdges) {
  auto o =
      run("\tmovw\t$1,40(fp)\n"
          "\tshlw\t$30,40(fp)\n"            // 2^30
          "\taddw\t40(fp),40(fp),44(fp)\n"  // 2^31 wraps to INT_MIN
          "\taddw\t44(fp),44(fp),48(fp)\n"  // INT_MIN + INT_MIN = 0
          "\tmovw\t$-1,52(fp)\n"
          "\tdivw\t52(fp),44(fp),56(fp)\n"  // INT_MIN / -1 = INT_MIN
          "\tmodw\t52(fp),44(fp),60(fp)\n"  // INT_MIN % -1 = 0
          "\tmovw\t$-7,64(fp)\n"
          "\tdivw\t$2,64(fp),68(fp)\n"  // -3 (truncates)
          "\tmodw\t$2,64(fp),72(fp)\n"  // -1
          "\tsubw\t$1,64(fp),76(fp)\n"  // d = m - s = -8
          "\tmulw\t$3,64(fp),80(fp)\n" +
          print_int("44(fp)") + print_int("48(fp)") + print_int("56(fp)") + print_int("60(fp)") +
          print_int("68(fp)") + print_int("72(fp)") + print_int("76(fp)") + print_int("80(fp)"));
  EXPECT_EQ(o.status, 0) << o.err;
  EXPECT_EQ(o.out, "-2147483648\n0\n-2147483648\n0\n-3\n-1\n-8\n-21\n");
}

TEST(VmArith, ShiftsTakeCountModuloWidth) {
  auto o =
      run("\tmovw\t$1,40(fp)\n"
          "\tshlw\t$33,40(fp),44(fp)\n"  // 1 << (33 & 31) = 2
          "\tmovw\t$-16,48(fp)\n"
          "\tshrw\t$2,48(fp),52(fp)\n"   // arithmetic: -4
          "\tlsrw\t$28,48(fp),56(fp)\n"  // logical: 15
          "\tshrw\t$32,48(fp),60(fp)\n"  // count 0: -16
          "\tshlw\t$31,40(fp),64(fp)\n" +
          print_int("44(fp)") + print_int("52(fp)") + print_int("56(fp)") + print_int("60(fp)") +
          print_int("64(fp)"));
  EXPECT_EQ(o.status, 0) << o.err;
  EXPECT_EQ(o.out, "2\n-4\n15\n-16\n-2147483648\n");
}

TEST(VmArith, BytesAreUnsignedAndWrap) {
  auto o =
      run("\tmovw\t$250,40(fp)\n"
          "\tcvtwb\t40(fp),44(fp)\n"
          "\taddb\t$10,44(fp),45(fp)\n"  // 260 & 255 = 4
          "\tcvtbw\t45(fp),48(fp)\n"
          "\tsubb\t44(fp),45(fp),46(fp)\n"  // 4 - 250 = 10 (mod 256)
          "\tcvtbw\t46(fp),52(fp)\n"
          "\tshrb\t$4,44(fp),47(fp)\n"  // 250 >> 4 = 15
          "\tcvtbw\t47(fp),56(fp)\n" +
          print_int("48(fp)") + print_int("52(fp)") + print_int("56(fp)"));
  EXPECT_EQ(o.status, 0) << o.err;
  EXPECT_EQ(o.out, "4\n10\n15\n");
}

TEST(VmArith, BigArithmeticAndEdges) {
  auto o =
      run("\tmovl\t32(mp),40(fp)\n"  // INT64_MIN
          "\tmovl\t48(mp),48(fp)\n"  // -1
          "\tdivl\t48(fp),40(fp),56(fp)\n"
          "\tmodl\t48(fp),40(fp),64(fp)\n"
          "\tmovl\t40(mp),72(fp)\n"           // 5
          "\tshll\t$65,72(fp),80(fp)\n"       // count 1 -> 10
          "\taddl\t48(fp),40(fp),88(fp)\n" +  // INT64_MIN - 1 wraps to max
              print_big("56(fp)") +
              print_big("64(fp)") + print_big("80(fp)") + print_big("88(fp)"),
          "\tlong\t@mp+32,-9223372036854775808\n\tlong\t@mp+40,5\n\tlong\t@mp+48,-1\n");
  EXPECT_EQ(o.status, 0) << o.err;
  EXPECT_EQ(o.out, "-9223372036854775808\n0\n10\n9223372036854775807\n");
}

TEST(VmArith, ZeroDivideIsAnException) {
  for (const char* op : {"divw", "modw", "divb", "modb"}) {
    auto o = run(std::string("\tmovw\t$0,40(fp)\n\t") + op + "\t40(fp),44(fp),48(fp)\n");
    EXPECT_EQ(o.status, 1) << op;
    EXPECT_NE(o.err.find("zero divide"), std::string::npos) << op << ": " << o.err;
  }
  auto o = run("\tdivl\t40(fp),48(fp),56(fp)\n");
  EXPECT_EQ(o.status, 1);
  EXPECT_NE(o.err.find("zero divide"), std::string::npos);
}

TEST(VmConvert, RealToIntRoundsHalvesAwayFromZero) {
  EXPECT_EQ(dis::vm::real_to_int(2.5), 3);
  EXPECT_EQ(dis::vm::real_to_int(-2.5), -3);
  EXPECT_EQ(dis::vm::real_to_int(0.5), 1);
  EXPECT_EQ(dis::vm::real_to_int(-0.5), -1);
  EXPECT_EQ(dis::vm::real_to_int(2.4999), 2);
  EXPECT_EQ(dis::vm::real_to_big(-3.5), -4);
  auto o = run("\tcvtfw\t32(mp),40(fp)\n\tcvtfw\t40(mp),44(fp)\n\tcvtfl\t40(mp),48(fp)\n" +
                   print_int("40(fp)") + print_int("44(fp)") + print_big("48(fp)"),
               "\treal\t@mp+32,1.5\n\treal\t@mp+40,-1.5\n");
  EXPECT_EQ(o.status, 0) << o.err;
  EXPECT_EQ(o.out, "2\n-2\n-2\n");
}

// cvtfr narrows to a short real as the x87 store does: a value that fits
// round-trips; one too large overflows and one too small underflows, and
// both trap under Inferno's default floating-point control.
TEST(VmConvert, ShortRealNarrowingTrapsOnOverflowAndUnderflow) {
  auto fits = run("\tcvtfr\t32(mp),40(fp)\n\tcvtrf\t40(fp),48(fp)\n" + print_real("48(fp)"),
                  "\treal\t@mp+32,-1.5\n");
  EXPECT_EQ(fits.status, 0) << fits.err;
  EXPECT_EQ(fits.out, "-1.5\n");
  for (const char* big_or_tiny : {"1e300", "-1e300", "1e-300"}) {
    auto o = run("\tcvtfr\t32(mp),40(fp)\n" + print_int("$7"),
                 std::string("\treal\t@mp+32,") + big_or_tiny + "\n");
    EXPECT_EQ(o.status, 1) << big_or_tiny;
    EXPECT_NE(o.err.find("sys: fp: exception"), std::string::npos) << big_or_tiny << o.err;
    EXPECT_EQ(o.out, "") << big_or_tiny;
  }
  // Zero stays exact: nothing is raised.
  auto zero = run("\tcvtfr\t32(mp),40(fp)\n" + print_int("$7"), "\treal\t@mp+32,0.0\n");
  EXPECT_EQ(zero.status, 0) << zero.err;
  EXPECT_EQ(zero.out, "7\n");
}

TEST(VmConvert, StringNumberConversions) {
  auto o =
      run("\tmovw\t$-42,40(fp)\n"
          "\tcvtwc\t40(fp),128(fp)\n"
          "\tcvtcw\t24(mp),44(fp)\n"    // "12abc" -> 12
          "\tcvtcw\t28(mp),48(fp)\n" +  // "2147483648" clamps
              print_str("128(fp)") +
              print_int("44(fp)") + print_int("48(fp)"),
          "\tstring\t@mp+24,\"12abc\"\n\tstring\t@mp+28,\"2147483648\"\n");
  EXPECT_EQ(o.status, 0) << o.err;
  EXPECT_EQ(o.out, "-42\n12\n2147483647\n");
}

TEST(VmConvert, StringNumberConversionsAtTheLimitsAndOnRunes) {
  // The extremes both ways, and digits in a rune string (parsed through
  // UTF-8, where a narrow string is parsed in place): leading blanks
  // skipped, the parse stops at the first non-digit.
  auto o =
      run("\tmovw\t$1,40(fp)\n\tshlw\t$31,40(fp)\n"
          "\tcvtwc\t40(fp),128(fp)\n\tcvtcw\t128(fp),44(fp)\n"
          "\tcvtlc\t32(mp),132(fp)\n\tcvtcl\t132(fp),48(fp)\n"
          "\tcvtcw\t24(mp),56(fp)\n\tcvtcl\t24(mp),64(fp)\n\tcvtcw\t28(mp),60(fp)\n" +
              print_str("128(fp)") + print_int("44(fp)") + print_str("132(fp)") +
              print_big("48(fp)") + print_int("56(fp)") + print_big("64(fp)") + print_int("60(fp)"),
          "\tlong\t@mp+32,-9223372036854775808\n\tstring\t@mp+24,\"  -77\u03bb9\"\n"
          "\tstring\t@mp+28,\"+15x\"\n");
  EXPECT_EQ(o.status, 0) << o.err;
  EXPECT_EQ(o.out,
            "-2147483648\n-2147483648\n-9223372036854775808\n-9223372036854775808\n-77\n-77\n15\n");
}

TEST(VmStrings, RuneStringsIndexInsertSliceCompare) {
  // 24(mp) = "héllo" (runes), 28(mp) = "abc".
  auto o =
      run("\tlenc\t24(mp),40(fp)\n"
          "\tindc\t24(mp),$1,44(fp)\n"  // é = 233
          "\tmovp\t28(mp),128(fp)\n"
          "\tinsc\t$955,$3,128(fp)\n"  // append λ
          "\tlenc\t128(fp),48(fp)\n"
          "\tslicec\t$1,$4,128(fp)\n"        // "bcλ"
          "\taddc\t28(mp),24(mp),132(fp)\n"  // "héllo" + "abc"
          "\tmovw\t$0,52(fp)\n"
          "\tbltc\t28(mp),24(mp),$@less\n"  // "abc" < "héllo"
          "\tmovw\t$7,52(fp)\n"
          "L:less\n"
          "\tlenc\t136(fp),56(fp)\n" +  // nil string: 0
              print_int("40(fp)") +
              print_int("44(fp)") + print_int("48(fp)") + print_str("128(fp)") +
              print_str("132(fp)") + print_int("52(fp)") + print_int("56(fp)"),
          "\tstring\t@mp+24,\"h\xc3\xa9llo\"\n\tstring\t@mp+28,\"abc\"\n");
  EXPECT_EQ(o.status, 0) << o.err;
  EXPECT_EQ(o.out, "5\n233\n4\nbc\xce\xbb\nh\xc3\xa9lloabc\n0\n0\n");
}

TEST(VmStrings, IndexOutOfRangeIsBoundsError) {
  auto o = run("\tindc\t28(mp),$3,40(fp)\n", "\tstring\t@mp+28,\"abc\"\n");
  EXPECT_EQ(o.status, 1);
  EXPECT_NE(o.err.find("array bounds error"), std::string::npos) << o.err;
}

TEST(VmArrays, NewIndexSliceLengthAndNil) {
  auto o =
      run("\tnewa\t$5,$2,128(fp)\n"  // array of 5 (type 2 is 40 bytes: fine for lena)
          "\tlena\t128(fp),40(fp)\n"
          "\tnewa\t$4,$5,132(fp)\n"  // 4 ints (desc 5: 4 bytes)
          "\tindw\t132(fp),44(fp),$2\n"
          "\tmovw\t$77,0(44(fp))\n"
          "\tmovp\t132(fp),136(fp)\n"
          "\tslicea\t$1,$4,136(fp)\n"  // [1:4]: elements 1,2,3
          "\tlena\t136(fp),48(fp)\n"
          "\tindw\t136(fp),52(fp),$1\n"  // original element 2
          "\tlena\t140(fp),56(fp)\n" +   // nil: 0
              print_int("40(fp)") +
              print_int("48(fp)") + print_int("0(52(fp))") + print_int("56(fp)"),
          "");
  EXPECT_EQ(o.status, 0) << o.err;
  EXPECT_EQ(o.out, "5\n3\n77\n0\n");
}

TEST(VmArrays, BoundsAndNegativeSize) {
  auto o = run("\tnewa\t$2,$5,128(fp)\n\tindw\t128(fp),40(fp),$2\n");
  EXPECT_EQ(o.status, 1);
  EXPECT_NE(o.err.find("array bounds error"), std::string::npos) << o.err;
  o = run("\tnewa\t$-1,$5,128(fp)\n");
  EXPECT_EQ(o.status, 1);
  EXPECT_NE(o.err.find("negative array size"), std::string::npos) << o.err;
  o = run("\tindw\t128(fp),40(fp),$0\n");  // nil array
  EXPECT_EQ(o.status, 1);
  EXPECT_NE(o.err.find("array bounds error"), std::string::npos) << o.err;
}

TEST(VmLists, ConsHeadTailLength) {
  auto o = run(
      "\tconsw\t$3,128(fp)\n"
      "\tconsw\t$2,128(fp)\n"
      "\tconsw\t$1,128(fp)\n"
      "\tlenl\t128(fp),40(fp)\n"
      "\theadw\t128(fp),44(fp)\n"
      "\ttail\t128(fp),132(fp)\n"
      "\theadw\t132(fp),48(fp)\n"
      "\tconsp\t28(mp),136(fp)\n"
      "\theadp\t136(fp),140(fp)\n" +
          print_int("40(fp)") + print_int("44(fp)") + print_int("48(fp)") + print_str("140(fp)"),
      "\tstring\t@mp+28,\"abc\"\n");
  EXPECT_EQ(o.status, 0) << o.err;
  EXPECT_EQ(o.out, "3\n1\n2\nabc\n");
  o = run("\theadw\t128(fp),40(fp)\n");
  EXPECT_EQ(o.status, 1);
  EXPECT_NE(o.err.find("dereference of nil"), std::string::npos) << o.err;
}

TEST(VmPointers, NilIndirectionRaisesNeverWraps) {
  auto o = run("\tmovw\t4(128(fp)),40(fp)\n");
  EXPECT_EQ(o.status, 1);
  EXPECT_NE(o.err.find("dereference of nil"), std::string::npos) << o.err;
}

TEST(VmControl, CaseTableBoundsAndDefault) {
  // case table at 32(mp): 2 entries [0,10)->A, [10,20)->B, default C.
  std::string body =
      "\tmovw\t$15,40(fp)\n"
      "\tcase\t40(fp),32(mp)\n"
      "L:A\n\tmovw\t$1,44(fp)\n\tjmp\t$@end\n"
      "L:B\n\tmovw\t$2,44(fp)\n\tjmp\t$@end\n"
      "L:C\n\tmovw\t$3,44(fp)\n"
      "L:end\n" +
      print_int("44(fp)");
  // Instruction numbers: load=0, movw=1, case=2, A=3, B=5, C=7.
  auto o = run(body, "\tword\t@mp+32,2,0,10,3,10,20,5,7\n");
  EXPECT_EQ(o.status, 0) << o.err;
  EXPECT_EQ(o.out, "2\n");
  std::string b2 = body;
  b2.replace(b2.find("$15"), 3, "$20");  // hi is exclusive: default
  o = run(b2, "\tword\t@mp+32,2,0,10,3,10,20,5,7\n");
  EXPECT_EQ(o.out, "3\n");
}

TEST(VmControl, ExceptionCaughtByHandler) {
  std::string text = program(
      "\tmovw\t$0,40(fp)\n"
      "\tdivw\t40(fp),40(fp),44(fp)\n"  // pc 2
      "\tret\n" +
          print_str("128(fp)"),  // handler at pc 4
      "", "",
      "\texceptions\t1\n\texception\t2, 3, 128, -1, 1, 0\n\texctab\t\"zero*\", 4\n\texctab\t*, "
      "-1\n");
  auto o = run_text(text);
  EXPECT_EQ(o.status, 0) << o.err;
  EXPECT_EQ(o.out, "zero divide\n");
}

TEST(VmControl, FailExceptionIsSilentStatusOne) {
  auto o = run("\traise\t28(mp)\n", "\tstring\t@mp+28,\"fail:quiet\"\n");
  EXPECT_EQ(o.status, 1);
  EXPECT_EQ(o.err, "");
  o = run("\traise\t28(mp)\n", "\tstring\t@mp+28,\"loud\"\n");
  EXPECT_EQ(o.status, 1);
  // The diagnostic names the .s line of the raise.
  EXPECT_EQ(o.err.rfind("t.s:", 0), 0u) << o.err;
  EXPECT_NE(o.err.find(": loud\n"), std::string::npos) << o.err;
}

TEST(VmControl, StackOverflowAndInstructionLimit) {
  // f calls itself forever: frame $1 then call.
  dis::vm::Options opts;
  opts.stack_limit = 1 << 20;
  auto o = run("L:f\n\tframe\t$1,192(fp)\n\tcall\t192(fp),$@f\n", "", opts);
  EXPECT_EQ(o.status, 1);
  EXPECT_NE(o.err.find("stack overflow"), std::string::npos) << o.err;
  dis::vm::Options lim;
  lim.max_instructions = 10000;
  o = run("L:loop\n\tjmp\t$@loop\n", "", lim);
  EXPECT_EQ(o.status, 1);
  EXPECT_NE(o.err.find("instruction limit"), std::string::npos) << o.err;
}

// An embedder's limit near 2^64 is no limit: the stack's fast-path bound
// once wrapped below the stack pointer, and every push retried forever.
TEST(VmControl, HugeStackLimitIsNoLimit) {
  dis::vm::Options opts;
  opts.stack_limit = ~std::uint64_t{0} - 5;
  opts.max_instructions = 100000;
  auto o = run("L:f\n\tframe\t$1,192(fp)\n\tcall\t192(fp),$@f\n", "", opts);
  EXPECT_EQ(o.status, 1);
  EXPECT_NE(o.err.find("instruction limit"), std::string::npos) << o.err;
}

TEST(VmControl, DeepCallsAcrossStackChunks) {
  // f(n) = n by n nested calls of 256-byte frames (pointer slots at 32 and
  // 36): depths 250..289 return across the first 64 KiB chunk's end again
  // and again, then 3000 crosses a dozen chunks. A return that kept the
  // wrong chunk or stack pointer corrupts a frame or the sums.
  auto o =
      run("\tmovw\t$0,48(fp)\n"
          "\tmovw\t$0,52(fp)\n"
          "L:loop\n"
          "\tframe\t$1,200(fp)\n"
          "\taddw\t$250,52(fp),40(200(fp))\n"
          "\tlea\t56(fp),16(200(fp))\n"
          "\tcall\t200(fp),$@main_f\n"
          "\taddw\t56(fp),48(fp)\n"
          "\taddw\t$1,52(fp)\n"
          "\tbltw\t52(fp),$40,$@loop\n" +
          print_int("48(fp)") +
          "\tframe\t$1,200(fp)\n"
          "\tmovw\t$3000,40(200(fp))\n"
          "\tlea\t56(fp),16(200(fp))\n"
          "\tcall\t200(fp),$@main_f\n" +
          print_int("56(fp)") +
          "\tret\n"
          "L:main_f\n"
          "\tbeqw\t40(fp),$0,$@base\n"
          "\tframe\t$1,200(fp)\n"
          "\tsubw\t$1,40(fp),40(200(fp))\n"
          "\tlea\t44(fp),16(200(fp))\n"
          "\tcall\t200(fp),$@main_f\n"
          "\taddw\t$1,44(fp),0(16(fp))\n"
          "\tret\n"
          "L:base\n"
          "\tmovw\t$0,0(16(fp))\n");
  EXPECT_EQ(o.status, 0) << o.err;
  EXPECT_EQ(o.out, "10780\n3000\n");
}

// `call` makes the running activation the frame's caller (dis.txt: frame(src)
// = fp), whoever pushed the frame. main pushes G and F, gives G the address
// of F, calls G (at @g, 10 instructions on: pc 11) and prints 333; `then`
// follows (G's code from @g, F's from @f).
std::string g_calls_f_pushed_by_main(const std::string& then) {
  return "\tframe\t$1,200(fp)\n"
         "\tframe\t$1,204(fp)\n"
         "\tmovw\t204(fp),40(200(fp))\n"
         "\tcall\t200(fp),$@g\n" +
         print_int("$333") + "\tret\n" + then;
}

// F returns into G, not into main.
TEST(VmControl, ReturnGoesToTheCallerNotThePusher) {
  auto o =
      run(g_calls_f_pushed_by_main("L:g\n"
                                   "\tcall\t40(fp),$@f\n" +
                                   print_int("$111") +
                                   "\tret\n"
                                   "L:f\n" +
                                   print_int("$222")));
  EXPECT_EQ(o.status, 0) << o.err;
  EXPECT_EQ(o.out, "222\n111\n333\n");
}

// F raises: the handler search walks from F to the activation that called
// it (G, whose handler covers its call at pc 11), not to main.
TEST(VmControl, ExceptionUnwindsToTheCallerNotThePusher) {
  std::string text = program(g_calls_f_pushed_by_main("L:g\n"
                                                      "\tcall\t40(fp),$@f\n"
                                                      "\tret\n" +
                                                      print_str("128(fp)") +  // pc 13
                                                      "\tret\n"
                                                      "L:f\n"
                                                      "\tmovw\t$0,40(fp)\n"
                                                      "\tdivw\t40(fp),40(fp),44(fp)\n"),
                             "", "",
                             "\texceptions\t1\n\texception\t11, 12, 128, -1, 1, 0\n"
                             "\texctab\t\"zero*\", 13\n\texctab\t*, -1\n");
  auto o = run_text(text);
  EXPECT_EQ(o.status, 0) << o.err;
  EXPECT_EQ(o.out, "zero divide\n333\n");
}

TEST(VmThreads, DeadlockEndsWithStatusOne) {
  auto o = run("\tnewcw\t128(fp)\n\trecv\t128(fp),40(fp)\n");
  EXPECT_EQ(o.status, 1);
  EXPECT_NE(o.err.find("deadlock"), std::string::npos) << o.err;
}

TEST(VmThreads, SpawnedSenderAndBufferedChannel) {
  // Thread at @child sends 42 on the channel in its frame at 32.
  auto o =
      run("\tnewcw\t128(fp)\n"
          "\tframe\t$4,192(fp)\n"
          "\tmovp\t128(fp),36(192(fp))\n"
          "\tspawn\t192(fp),$@child\n"
          "\trecv\t128(fp),40(fp)\n" +
          print_int("40(fp)") +
          "\tmovw\t$2,44(fp)\n"
          "\tnewcw\t44(fp),132(fp)\n"
          "\tsend\t$5,132(fp)\n"
          "\tsend\t$6,132(fp)\n"
          "\trecv\t132(fp),48(fp)\n" +
          print_int("48(fp)") + "\tret\nL:child\n\tsend\t$42,36(fp)\n");
  EXPECT_EQ(o.status, 0) << o.err;
  EXPECT_EQ(o.out, "42\n5\n");
}

}  // namespace

namespace {

TEST(VmLimits, HeapLimitRaisesOutOfMemory) {
  dis::vm::Options opts;
  opts.heap_limit = 1 << 20;
  auto o = run("\tnewa\t$1000000,$5,128(fp)\n", "", opts);
  EXPECT_EQ(o.status, 1);
  EXPECT_NE(o.err.find("out of memory: heap"), std::string::npos) << o.err;
}

TEST(VmDefence, CorruptedArrayHeaderCannotReachOutsideTheCage) {
  // Overwrite the length word of an array of bigs with a huge count.
  auto o =
      run("\tnewa\t$2,$6,128(fp)\n"
          "\tmovw\t$536870911,0(128(fp))\n"
          "\tindl\t128(fp),40(fp),$536870910\n");
  EXPECT_EQ(o.status, 1);
  EXPECT_NE(o.err.find("array bounds error"), std::string::npos) << o.err;
}

TEST(VmDefence, IntegerStoredAsPointerIsNotAnObject) {
  // movp of a made-up pointer: the header check refuses it.
  auto o = run("\tmovw\t$70000,40(fp)\n\tmovp\t40(fp),128(fp)\n");
  EXPECT_EQ(o.status, 1);
  EXPECT_NE(o.err.find("dereference of nil"), std::string::npos) << o.err;
}

}  // namespace

namespace {

TEST(VmBuiltins, SleepSuspendsTheThreadForAtLeastTheTime) {
  std::string text = program(
      "\tmframe\t4(mp),$2,192(fp)\n"
      "\tlea\t40(fp),16(192(fp))\n"
      "\tmcall\t192(fp),$2,4(mp)\n"  // t0 = millisec()
      "\tmframe\t4(mp),$1,192(fp)\n"
      "\tmovw\t$30,32(192(fp))\n"
      "\tlea\t196(fp),16(192(fp))\n"
      "\tmcall\t192(fp),$1,4(mp)\n"  // sleep(30)
      "\tmframe\t4(mp),$2,192(fp)\n"
      "\tlea\t44(fp),16(192(fp))\n"
      "\tmcall\t192(fp),$2,4(mp)\n"  // t1 = millisec()
      "\tsubw\t40(fp),44(fp),48(fp)\n"
      "\tmovw\t$0,52(fp)\n"
      "\tblew\t48(fp),$29,$@short\n"
      "\tmovw\t$1,52(fp)\n"
      "L:short\n" +
      print_int("52(fp)"));
  std::string one = "\tword\t@ldt+0,1\n\text\t@ldt+4,0xac849033,\"print\"\n";
  text.replace(text.find(one), one.size(),
               "\tword\t@ldt+0,3\n\text\t@ldt+4,0xac849033,\"print\"\n"
               "\text\t@ldt+12,0xe67bf126,\"sleep\"\n\text\t@ldt+24,0x616977e8,\"millisec\"\n");
  auto o = run_text(text);
  EXPECT_EQ(o.status, 0) << o.err;
  EXPECT_EQ(o.out, "1\n");
}

}  // namespace
