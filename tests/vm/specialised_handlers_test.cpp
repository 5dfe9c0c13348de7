// Handlers that decode chooses by operand shape or value (decode.h): each
// must compute exactly what the general handler computes.
#include <gtest/gtest.h>

#include <climits>
#include <cstdint>
#include <cstdio>
#include <string>
#include <tuple>
#include <vector>

#include "runtime.h"
#include "vm_test_util.h"

using namespace vmtest;

namespace {

// Limbo's / and % on 32-bit ints: truncation toward zero.
std::string expected_div_mod(std::int32_t v, std::int32_t k) {
  return std::to_string(v / k) + "\n" + std::to_string(v % k) + "\n";
}

TEST(VmSpecialised, PowerOfTwoDivideAndModMatchTruncation) {
  // Immediates hold 30 bits: the minimum integer is made by a shift.
  const std::int32_t values[] = {0, 1,  -1,       7,         -7,        8,          -8,
                                 9, -9, 16777215, -16777217, 536870911, -536870912, INT32_MIN};
  const std::int32_t divisors[] = {1, 2, 8, 16777216, 1 << 28};
  for (std::int32_t v : values)
    for (std::int32_t k : divisors) {
      const std::string set = v == INT32_MIN ? "\tmovw\t$1,40(fp)\n\tshlw\t$31,40(fp)\n"
                                             : "\tmovw\t$" + std::to_string(v) + ",40(fp)\n";
      // Immediate divisors take the special handlers; the same division by
      // a frame word takes the general one: both must agree with C++.
      auto o = run(set + "\tdivw\t$" + std::to_string(k) + ",40(fp),44(fp)\n\tmodw\t$" +
                   std::to_string(k) + ",40(fp),48(fp)\n\tmovw\t$" + std::to_string(k) +
                   ",60(fp)\n\tdivw\t60(fp),40(fp),52(fp)\n\tmodw\t60(fp),40(fp),56(fp)\n" +
                   print_int("44(fp)") + print_int("48(fp)") + print_int("52(fp)") +
                   print_int("56(fp)"));
      ASSERT_EQ(o.status, 0) << o.err;
      EXPECT_EQ(o.out, expected_div_mod(v, k) + expected_div_mod(v, k)) << v << " / " << k;
    }
}

TEST(VmSpecialised, PowerOfTwoThroughIndirectOperands) {
  // The special handlers also serve doubly indirect operands.
  auto o =
      run("\tnew\t$5,128(fp)\n\tmovw\t$-13,40(fp)\n\tmodw\t$4,40(fp),0(128(fp))\n"
          "\tdivw\t$4,40(fp),44(fp)\n" +
          print_int("0(128(fp))") + print_int("44(fp)"));
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_EQ(o.out, "-1\n-3\n");
}

TEST(VmSpecialised, ShapedWordOpsMatchTheGeneralOnes) {
  // The same operations on frame words and immediates (shaped handlers) and
  // on module data words (general handlers), checked against C++.
  const std::int32_t a = -123457, b = 98765;
  auto ops = [](const std::string& x, const std::string& y, const std::string& t) {
    return "\taddw\t$7," + x + "," + t + "\n" + print_int(t) + "\tsubw\t$7," + x + "," + t + "\n" +
           print_int(t) + "\tmulw\t" + y + "," + x + "," + t + "\n" + print_int(t) + "\tshrw\t$3," +
           x + "," + t + "\n" + print_int(t) + "\tlsrw\t$3," + x + "," + t + "\n" + print_int(t) +
           "\txorw\t$5," + x + "," + t + "\n" + print_int(t);
  };
  auto uw = [](std::int64_t v) { return std::to_string(static_cast<std::int32_t>(v)) + "\n"; };
  const std::string want = uw(a + 7) + uw(a - 7) + uw(std::int64_t{a} * b) + uw(a >> 3) +
                           uw(static_cast<std::uint32_t>(a) >> 3) + uw(a ^ 5);
  auto o = run("\tmovw\t$" + std::to_string(a) + ",40(fp)\n\tmovw\t$" + std::to_string(b) +
               ",44(fp)\n" + ops("40(fp)", "44(fp)", "48(fp)"));
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_EQ(o.out, want);
  o = run("\tmovw\t$" + std::to_string(a) + ",40(mp)\n\tmovw\t$" + std::to_string(b) + ",44(mp)\n" +
          ops("40(mp)", "44(mp)", "48(mp)"));
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_EQ(o.out, want);
}

// blew and bgtw with an immediate first (Inferno's `z < 50` inside a
// condition: blew $50,z) on a frame word (shaped) and on a module data
// word (general), against C++; then a loop whose jump goes to such a test
// (fused with the jmp) runs its body ten times.
TEST(VmSpecialised, ImmediateFirstComparesMatchTheGeneralOnes) {
  auto prog = [](const std::string& x, int v) {
    return "\tmovw\t$" + std::to_string(v) + "," + x + "\n\tmovw\t$0,44(fp)\n\tblew\t$50," + x +
           ",$@a\n\taddw\t$1,44(fp)\nL:a\n\tbgtw\t$50," + x + ",$@b\n\taddw\t$2,44(fp)\nL:b\n" +
           print_int("44(fp)");
  };
  for (int v : {-5, 49, 50, 51}) {
    const std::string want = std::to_string((50 <= v ? 0 : 1) + (50 > v ? 0 : 2)) + "\n";
    for (const char* x : {"40(fp)", "40(mp)"}) {
      auto o = run(prog(x, v));
      ASSERT_EQ(o.status, 0) << o.err;
      EXPECT_EQ(o.out, want) << x << " " << v;
    }
  }
  // i from 0 up while not 10 <= i; i from 10 down while not 1 > i.
  for (const auto& [start, test, step] :
       {std::tuple{0, "blew\t$10", "addw\t$1"}, std::tuple{10, "bgtw\t$1", "subw\t$1"}}) {
    auto o = run("\tmovw\t$" + std::to_string(start) + ",40(fp)\n\tmovw\t$0,44(fp)\nL:t\n\t" +
                 test + ",40(fp),$@out\n\t" + step +
                 ",40(fp)\n\taddw\t$3,44(fp)\n\tjmp\t$@t\nL:out\n" + print_int("44(fp)"));
    ASSERT_EQ(o.status, 0) << o.err;
    EXPECT_EQ(o.out, "30\n") << test;
  }
}

TEST(VmSpecialised, ShapedIndirectionThroughNilRaises) {
  for (const char* body :
       {"\tmovw\t$1,4(128(fp))\n", "\tmovw\t40(fp),4(128(fp))\n", "\tmovw\t4(128(fp)),40(fp)\n",
        "\tlea\t40(fp),4(128(fp))\n", "\taddw\t$1,40(fp),4(128(fp))\n",
        "\tbeqw\t4(128(fp)),$0,$1\n", "\tmovp\t136(fp),4(128(fp))\n", "\tmovb\t$1,4(128(fp))\n",
        "\tmovb\t40(fp),4(128(fp))\n", "\tmovb\t4(128(fp)),40(fp)\n",
        "\tcvtbw\t4(128(fp)),40(fp)\n", "\tcvtwb\t40(fp),4(128(fp))\n",
        "\tbeqb\t4(128(fp)),$0,$1\n", "\tbneb\t4(128(fp)),$0,$1\n",
        "\tmovb\t4(128(fp)),4(128(fp))\n"}) {
    auto o = run(body);
    EXPECT_EQ(o.status, 1) << body;
    EXPECT_NE(o.err.find("dereference of nil"), std::string::npos) << body << o.err;
  }
}

TEST(VmSpecialised, ShapedByteOpsCutAndWidenAsTheGeneralOnes) {
  // Bytes of a record through 128(fp): a word and an immediate cut to a
  // byte (511 and 300: 255 and 44), bytes widened without sign, and byte
  // compares against immediates cut the same way (-1 is 255).
  auto o = run(
      "\tnew\t$6,128(fp)\n\tmovw\t$511,40(fp)\n\tcvtwb\t40(fp),1(128(fp))\n"
      "\tcvtbw\t1(128(fp)),44(fp)\n" +
      print_int("44(fp)") + "\tmovw\t$0,48(fp)\n\tmovb\t1(128(fp)),48(fp)\n" + print_int("48(fp)") +
      "\tmovw\t$-2,52(fp)\n\tmovb\t52(fp),2(128(fp))\n\tcvtbw\t2(128(fp)),56(fp)\n" +
      print_int("56(fp)") + "\tmovb\t$300,3(128(fp))\n\tcvtbw\t3(128(fp)),56(fp)\n" +
      print_int("56(fp)") +
      "\tmovw\t$0,60(fp)\n\tbneb\t1(128(fp)),$-1,$@n1\n\taddw\t$1,60(fp)\nL:n1\n"
      "\tbeqb\t3(128(fp)),$300,$@n2\n\taddw\t$2,60(fp)\nL:n2\n" +
      print_int("60(fp)") + "\tmovb\t2(128(fp)),0(128(fp))\n" + print_int("0(128(fp))"));
  ASSERT_EQ(o.status, 0) << o.err;
  // The record's word: bytes 254 (copied from byte 2), 255, 254, 44 from
  // the lowest.
  EXPECT_EQ(o.out, "255\n255\n254\n44\n1\n" + std::to_string(0x2cfefffe) + "\n");
}

TEST(VmSpecialised, CallOfAnOlderPendingFrame) {
  // Two frames made before either call: the older one is called last, so
  // call must find a frame below the newest.
  auto o =
      run("\tframe\t$2,132(fp)\n"
          "\tframe\t$2,136(fp)\n"
          "\tmovw\t$5,32(132(fp))\n"
          "\tmovw\t$6,32(136(fp))\n"
          "\tlea\t140(fp),16(136(fp))\n"
          "\tcall\t136(fp),$@f\n"
          "\tlea\t144(fp),16(132(fp))\n"
          "\tcall\t132(fp),$@f\n" +
          print_int("140(fp)") + print_int("144(fp)") +
          "\tret\n"
          "L:f\n"
          "\tmulw\t$10,32(fp),0(16(fp))\n");
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_EQ(o.out, "60\n50\n");
}

// Loops whose instructions decode into fused pairs (kFusedPairs in
// decode.cpp): indw then a store or test through the element, addw then
// jmp, lea then call. Each pair must compute what its two instructions do.
const std::string kFillAndScan =
    "\tnewa\t$10,$5,128(fp)\n"
    "\tmovw\t$0,40(fp)\n"
    "L:top1\n"
    "\tbgew\t40(fp),$10,$@out1\n"
    "\tindw\t128(fp),44(fp),40(fp)\n"
    "\tmovw\t$7,0(44(fp))\n"
    "\taddw\t$1,40(fp)\n"
    "\tjmp\t$@top1\n"
    "L:out1\n"
    "\tindw\t128(fp),44(fp),60(fp)\n"  // 60(fp) = 0: clear element 0
    "\tmovw\t$0,0(44(fp))\n"
    "\tmovw\t$0,40(fp)\n"
    "\tmovw\t$0,48(fp)\n"
    "\tmovw\t$0,52(fp)\n"
    "L:top2\n"
    "\tbgew\t40(fp),$10,$@out2\n"
    "\tindw\t128(fp),44(fp),40(fp)\n"
    "\tbeqw\t0(44(fp)),$0,$@skip\n"
    "\taddw\t0(44(fp)),48(fp)\n"
    "\taddw\t40(fp),52(fp)\n"
    "L:skip\n"
    "\taddw\t$1,40(fp)\n"
    "\tjmp\t$@top2\n"
    "L:out2\n";

TEST(VmSpecialised, FusedPairsComputeBothInstructions) {
  auto o = run(kFillAndScan + print_int("48(fp)") + print_int("52(fp)"));
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_EQ(o.out, std::to_string(7 * 9) + "\n" + std::to_string(45) + "\n");
}

TEST(VmSpecialised, FusedIndexPairRaisesOnBoundsAndNil) {
  // Index 10 of a 10-element array, and an index into a nil array: both
  // fault in the indw, before the store that follows it.
  for (const char* index : {"$10", "$-1"}) {
    auto o = run(std::string("\tnewa\t$10,$5,128(fp)\n\tmovw\t") + index +
                 ",40(fp)\n\tindw\t128(fp),44(fp),40(fp)\n\tmovw\t$1,0(44(fp))\n");
    EXPECT_EQ(o.status, 1) << index;
    EXPECT_NE(o.err.find("array bounds error"), std::string::npos) << o.err;
  }
  // A nil array: the same error as the general handler's (module data
  // operands) gives.
  auto general = run("\tindw\t24(mp),44(fp),40(fp)\n");
  auto o = run("\tindw\t128(fp),44(fp),40(fp)\n\tbeqw\t0(44(fp)),$0,$1\n");
  EXPECT_EQ(o.status, 1);
  EXPECT_EQ(o.err, general.err);
}

TEST(VmSpecialised, IndexAnyTypeTakesTheElementSizeFromTheArray) {
  // indx's fast path reads the element type from the array header: element
  // addresses 3 elements apart differ by 3 sizes (4, 8 and 12 bytes), and
  // element 0 of a slice a[2:] is element 2 of a.
  auto o = run_text(program(
      "\tnewa\t$5,$5,128(fp)\n\tnewa\t$5,$6,132(fp)\n\tnewa\t$5,$7,136(fp)\n"
      "\tmovw\t$0,40(fp)\n\tmovw\t$3,44(fp)\n\tmovw\t$2,48(fp)\n"
      "\tindx\t128(fp),52(fp),40(fp)\n\tindx\t128(fp),56(fp),44(fp)\n\tsubw\t52(fp),56(fp),60(fp)\n"
      "\tindx\t132(fp),52(fp),40(fp)\n\tindx\t132(fp),56(fp),44(fp)\n\tsubw\t52(fp),56(fp),64(fp)\n"
      "\tindx\t136(fp),52(fp),40(fp)\n\tindx\t136(fp),56(fp),44(fp)\n\tsubw\t52(fp),56(fp),68(fp)\n"
      "\tmovp\t136(fp),140(fp)\n\tslicea\t$2,$5,140(fp)\n"
      "\tindx\t140(fp),52(fp),40(fp)\n\tindx\t136(fp),56(fp),48(fp)\n\tsubw\t52(fp),56(fp),72(fp)\n"
      "\tmovw\t$77,4(56(fp))\n\tindx\t140(fp),52(fp),40(fp)\n" +
          print_int("60(fp)") + print_int("64(fp)") + print_int("68(fp)") + print_int("72(fp)") +
          print_int("4(52(fp))"),
      "", "\tdesc\t$7,12,\"\"\n"));
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_EQ(o.out, "12\n24\n36\n0\n77\n");
}

TEST(VmSpecialised, IndexAnyTypeRaisesOnBoundsNilAndNonArrays) {
  for (const char* index : {"$5", "$-1"}) {
    auto o = run(std::string("\tnewa\t$5,$6,128(fp)\n\tmovw\t") + index +
                 ",40(fp)\n\tindx\t128(fp),44(fp),40(fp)\n");
    EXPECT_EQ(o.status, 1) << index;
    EXPECT_NE(o.err.find("array bounds error"), std::string::npos) << o.err;
  }
  auto nil = run("\tindx\t128(fp),44(fp),40(fp)\n");
  EXPECT_EQ(nil.status, 1);
  EXPECT_NE(nil.err.find("array bounds error"), std::string::npos) << nil.err;
  auto record = run("\tnew\t$6,128(fp)\n\tindx\t128(fp),44(fp),40(fp)\n");
  EXPECT_EQ(record.status, 1);
  EXPECT_NE(record.err.find("dereference of nil"), std::string::npos) << record.err;
}

// The source line (of t.s) an error message names: each instruction is a
// line of its own, so pc k is on line (line of pc 0) + k.
int reported_line(const std::string& err) {
  const auto at = err.find("t.s:");
  if (at == std::string::npos) return -1;
  return std::stoi(err.substr(at + 4));
}

TEST(VmSpecialised, FusedLeaCallReportsTheFaultingInstruction) {
  // The reference: a nil dereference at pc 1.
  auto o = run("\tmovw\t4(128(fp)),40(fp)\n");
  ASSERT_EQ(o.status, 1);
  const int pc1 = reported_line(o.err);
  ASSERT_GT(pc1, 0) << o.err;
  // The lea through a nil frame pointer faults at pc 1; a call of a word
  // that is no frame (after a good lea) at pc 4.
  o = run("\tlea\t40(fp),16(132(fp))\n\tcall\t132(fp),$1\n");
  EXPECT_EQ(o.status, 1);
  EXPECT_EQ(reported_line(o.err), pc1) << o.err;
  o = run("\tnew\t$2,136(fp)\n\tmovw\t$0,60(fp)\n\tlea\t40(fp),16(136(fp))\n\tcall\t136(fp),$1\n");
  EXPECT_EQ(o.status, 1);
  EXPECT_EQ(reported_line(o.err), pc1 + 3) << o.err;
}

// An instruction limit of k stops before the (k+1)th instruction executed:
// trace[k] is its pc (trace[0] = 0, the first instruction).
// `descs` are types the body needs beyond program()'s.
void expect_limits_stop_at(const std::string& body, const std::vector<int>& trace,
                           const std::string& descs = "") {
  int first = -1;
  for (std::size_t k = 1; k < trace.size(); ++k) {
    dis::vm::Options opts;
    opts.max_instructions = k;
    auto o = run_text(program(body, "", descs), opts);
    ASSERT_NE(o.err.find("instruction limit"), std::string::npos) << k << ": " << o.err;
    if (k == 1) first = reported_line(o.err);
    EXPECT_EQ(reported_line(o.err), first + trace[k] - 1) << k << ": " << o.err;
  }
}

TEST(VmSpecialised, InstructionLimitStopsInsideAFusedPair) {
  // A straight run whose pairs fuse: a limit of k instructions stops at pc k
  // whether or not pc k is the second half of a pair.
  const std::string body =
      "\tnewa\t$10,$5,128(fp)\n"         // pc 1
      "\tindw\t128(fp),44(fp),40(fp)\n"  // pc 2, fused with 3
      "\tmovw\t$1,0(44(fp))\n"           // pc 3
      "\tindw\t128(fp),44(fp),40(fp)\n"  // pc 4, fused with 5
      "\tbeqw\t0(44(fp)),$0,$6\n"        // pc 5
      "\tframe\t$2,136(fp)\n"            // pc 6
      "\tlea\t40(fp),16(136(fp))\n"      // pc 7, fused with 8
      "\tcall\t136(fp),$9\n"             // pc 8
      "\taddw\t$1,40(fp)\n"              // pc 9: the callee, fused with 10
      "\tjmp\t$11\n"                     // pc 10
      "\tmovw\t$0,60(fp)\n";             // pc 11
  expect_limits_stop_at(body, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11});
}

}  // namespace

namespace {

// A counted loop whose increment (addw, immediate or frame word step) and
// jump back decode into a loop-back triple with the loop's test at the
// jump's target. `test` is the compare (a frame word against a frame
// word); the loop counts its iterations in 56(fp).
std::string counted_loop(const std::string& test, int from, int limit, const std::string& step) {
  return "\tmovw\t$" + std::to_string(from) + ",40(fp)\n\tmovw\t$" + std::to_string(limit) +
         ",44(fp)\n\tmovw\t$0,56(fp)\n\tmovw\t$3,52(fp)\nL:top\n\t" + test +
         "\t40(fp),44(fp),$@out\n\taddw\t$1,56(fp)\n\taddw\t" + step +
         ",40(fp)\n\tjmp\t$@top\nL:out\n" + print_int("56(fp)") + print_int("40(fp)");
}

// A loop's test, its start and limit, and its step (an immediate or the
// frame word 52(fp), which holds 3) with the step's value; exit(i, limit)
// is the test.
struct LoopCase {
  const char* test;
  int from, limit;
  const char* step;
  int step_value;
  bool (*exit)(int, int);
};

// The loops over a 10-element array the fill and scan tests run: every
// test, both directions, a step in a frame word, and a loop that never runs.
const LoopCase kArrayLoops[] = {
    {"bgew", 0, 10, "$1", 1, [](int i, int n) { return i >= n; }},
    {"bgtw", 2, 9, "$1", 1, [](int i, int n) { return i > n; }},
    {"bltw", 9, 0, "$-1", -1, [](int i, int n) { return i < n; }},
    {"blew", 9, 0, "$-1", -1, [](int i, int n) { return i <= n; }},
    {"bgew", 1, 10, "52(fp)", 3, [](int i, int n) { return i >= n; }},
    {"bgtw", 0, 9, "52(fp)", 3, [](int i, int n) { return i > n; }},
    {"bgew", 5, 5, "$1", 1, [](int i, int n) { return i >= n; }},
};

TEST(VmSpecialised, LoopBackTriplesCountEveryIteration) {
  const LoopCase cases[] = {
      {"bgew", 0, 10, "$1", 1, [](int i, int n) { return i >= n; }},
      {"bgtw", 0, 10, "$1", 1, [](int i, int n) { return i > n; }},
      {"bltw", 10, 0, "$-1", -1, [](int i, int n) { return i < n; }},
      {"blew", 10, 0, "$-1", -1, [](int i, int n) { return i <= n; }},
      {"bgew", 0, 10, "52(fp)", 3, [](int i, int n) { return i >= n; }},
      {"bgtw", 1, 10, "52(fp)", 3, [](int i, int n) { return i > n; }},
  };
  for (const LoopCase& c : cases) {
    int i = c.from, count = 0;
    while (!c.exit(i, c.limit)) ++count, i += c.step_value;
    auto o = run(counted_loop(c.test, c.from, c.limit, c.step));
    ASSERT_EQ(o.status, 0) << o.err;
    EXPECT_EQ(o.out, std::to_string(count) + "\n" + std::to_string(i) + "\n")
        << c.test << " step " << c.step;
  }
}

TEST(VmSpecialised, LoopBackTripleStopsAtEachInstructionAndRunsFromItsMiddle) {
  // pc 1-2 set up, 3 the test, 4 the increment (fused with 5 and the test
  // at 3), 6 after the loop. An instruction limit of k stops before the
  // (k+1)th instruction executed, wherever it falls in the triple.
  const std::string body =
      "\tmovw\t$2,44(fp)\n"         // pc 1
      "\tmovw\t$0,40(fp)\n"         // pc 2
      "\tbgew\t40(fp),44(fp),$6\n"  // pc 3
      "\taddw\t$1,40(fp)\n"         // pc 4
      "\tjmp\t$3\n"                 // pc 5
      "\tmovw\t$0,60(fp)\n";        // pc 6
  expect_limits_stop_at(body, {0, 1, 2, 3, 4, 5, 3, 4, 5, 3, 6});
  // A branch straight to the jmp (the middle of the triple) runs it alone.
  auto o =
      run("\tmovw\t$5,44(fp)\n\tmovw\t$0,40(fp)\n\tmovw\t$0,56(fp)\n\tjmp\t$@back\n"
          "L:top\n\tbgew\t40(fp),44(fp),$@out\n\taddw\t$1,56(fp)\n\taddw\t$1,40(fp)\n"
          "L:back\n\tjmp\t$@top\nL:out\n" +
          print_int("56(fp)"));
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_EQ(o.out, "5\n");
}

TEST(VmSpecialised, LoopWhoseTestReadsAnotherWordThanTheIncrement) {
  // The increment before the jump is not the word the test compares (no
  // triple: the test must read the other word from the frame).
  auto o = run(
      "\tmovw\t$7,44(fp)\n\tmovw\t$0,40(fp)\n\tmovw\t$0,56(fp)\nL:top\n"
      "\tbgew\t56(fp),44(fp),$@out\n\taddw\t$1,56(fp)\n\taddw\t$2,40(fp)\n\tjmp\t$@top\nL:out\n" +
      print_int("40(fp)") + print_int("56(fp)"));
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_EQ(o.out, "14\n7\n");
}

TEST(VmSpecialised, IndexPairThroughAnotherSlotIsNotFused) {
  // The store goes through 48(fp) (element 3), not the slot the indw
  // just wrote (element 1): both elements are checked.
  auto o =
      run("\tnewa\t$5,$5,128(fp)\n\tmovw\t$3,40(fp)\n\tindw\t128(fp),48(fp),40(fp)\n"
          "\tmovw\t$1,40(fp)\n\tindw\t128(fp),44(fp),40(fp)\n\tmovw\t$9,0(48(fp))\n"
          "\tmovw\t$4,0(44(fp))\n\tindw\t128(fp),44(fp),40(fp)\n\tbeqw\t0(48(fp)),$9,$@yes\n"
          "\tmovw\t$0,60(fp)\n\tjmp\t$@out\nL:yes\n\tmovw\t$1,60(fp)\nL:out\n" +
          print_int("0(44(fp))") + print_int("0(48(fp))") + print_int("60(fp)"));
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_EQ(o.out, "4\n9\n1\n");
}

// An array fill: the loop's test at pc 5, then indw and a store through
// the element (pc 6-7), the increment and the jump back (pc 8-9), which
// decode runs as one loop (indw_FFF_movw_loop). Each element of the
// `len`-element array is printed afterwards, then the index.
std::string fill_loop(const std::string& test, int from, int limit, const std::string& step,
                      int len) {
  std::string body = "\tnewa\t$" + std::to_string(len) + ",$5,128(fp)\n\tmovw\t$" +
                     std::to_string(from) + ",40(fp)\n\tmovw\t$" + std::to_string(limit) +
                     ",48(fp)\n\tmovw\t$3,52(fp)\nL:top\n\t" + test +
                     "\t40(fp),48(fp),$@out\n\tindw\t128(fp),44(fp),40(fp)\n\tmovw\t$7,0(44(fp))\n"
                     "\taddw\t" +
                     step + ",40(fp)\n\tjmp\t$@top\nL:out\n";
  for (int k = 0; k < len; ++k)
    body += "\tmovw\t$" + std::to_string(k) + ",56(fp)\n\tindw\t128(fp),44(fp),56(fp)\n" +
            print_int("0(44(fp))");
  return body + print_int("40(fp)");
}

TEST(VmSpecialised, FillLoopsStoreEveryElementTheirTestReaches) {
  for (const LoopCase& c : kArrayLoops) {
    std::vector<int> elems(10, 0);
    int i = c.from;
    for (; !c.exit(i, c.limit); i += c.step_value) elems[static_cast<std::size_t>(i)] = 7;
    std::string expected;
    for (int e : elems) expected += std::to_string(e) + "\n";
    expected += std::to_string(i) + "\n";
    auto o = run(fill_loop(c.test, c.from, c.limit, c.step, 10));
    ASSERT_EQ(o.status, 0) << o.err;
    EXPECT_EQ(o.out, expected) << c.test << " from " << c.from << " step " << c.step;
  }
}

// A fill loop whose element pointer goes to the limit's word (48(fp)): the
// limit read at each test is the last element's address.
const std::string kFillOverItsLimit =
    "\tnewa\t$10,$5,128(fp)\n\tmovw\t$0,40(fp)\n\tmovw\t$3,48(fp)\nL:top\n"
    "\tbgew\t40(fp),48(fp),$@out\n\tindw\t128(fp),48(fp),40(fp)\n\tmovw\t$7,0(48(fp))\n"
    "\taddw\t$1,40(fp)\n\tjmp\t$@top\nL:out\n" +
    print_int("40(fp)");

TEST(VmSpecialised, FillLoopOverItsLimitReadsTheLimitAtEachTest) {
  // --trace dispatches every instruction on its own: the reference.
  const auto fused = run(kFillOverItsLimit);
  dis::vm::Options traced_opts;
  traced_opts.trace = true;
  const auto traced = run(kFillOverItsLimit, "", traced_opts);
  EXPECT_EQ(fused.status, traced.status);
  EXPECT_EQ(fused.out, traced.out);
  // With the limit read once, the loop would end at 3.
  EXPECT_NE(fused.out, "3\n");
}

TEST(VmSpecialised, FillLoopDecodesIntoOneHandlerOnlyWhenItsTestLeadsBackToIt) {
  dis::vm::Cage cage;
  dis::vm::Heap heap(cage, 1 << 20);
  dis::vm::Program fill;
  fill.mod = dis::assembly::assemble(program(fill_loop("bltw", 9, 0, "$-1", 10)), "t.s");
  dis::vm::decode(fill, heap);
  EXPECT_EQ(fill.code[6].h, dis::vm::kH_indw_FFF_movw_loop);
  EXPECT_EQ(fill.code[6].aux, dis::vm::kLoopLt | dis::vm::kLoopDisjoint);
  // The element pointer stored over the limit: a loop, but not disjoint.
  dis::vm::Program aliased;
  aliased.mod = dis::assembly::assemble(program(kFillOverItsLimit), "t.s");
  dis::vm::decode(aliased, heap);
  EXPECT_EQ(aliased.code[5].h, dis::vm::kH_indw_FFF_movw_loop);
  EXPECT_EQ(aliased.code[5].aux, dis::vm::kLoopGe);
  // An instruction between the test and the pair: the test leads elsewhere.
  dis::vm::Program other;
  other.mod = dis::assembly::assemble(
      program("\tnewa\t$10,$5,128(fp)\n\tmovw\t$0,40(fp)\n\tmovw\t$10,48(fp)\nL:top\n"
              "\tbgew\t40(fp),48(fp),$@out\n\tmovw\t$0,60(fp)\n\tindw\t128(fp),44(fp),40(fp)\n"
              "\tmovw\t$7,0(44(fp))\n\taddw\t$1,40(fp)\n\tjmp\t$@top\nL:out\n"),
      "t.s");
  dis::vm::decode(other, heap);
  EXPECT_EQ(other.code[6].h, dis::vm::kH_indw_FFF_movw);
}

// A scan of a `len`-element array of zeros up to `limit` (bgew), the
// element pointer in `slot`, the beqw going to the label `branch` (next:
// the increment; out: the loop's exit).
std::string zero_scan(int len, int limit, const std::string& slot, const std::string& branch) {
  return "\tnewa\t$" + std::to_string(len) + ",$5,128(fp)\n\tmovw\t$0,40(fp)\n\tmovw\t$" +
         std::to_string(limit) + ",48(fp)\nL:top\n\tbgew\t40(fp),48(fp),$@out\n\tindw\t128(fp)," +
         slot + ",40(fp)\n\tbeqw\t0(" + slot + "),$0,$@" + branch +
         "\n\tmovw\t$1,60(fp)\nL:next\n\taddw\t$1,40(fp)\n\tjmp\t$@top\nL:out\n";
}

// plain_fusion (the cost tool's stream base) marks exactly the pcs the plain
// run executes inside a fused handler, by the handlers decode chose.
TEST(VmSpecialised, PlainFusionMarksTheFusedHandlersInstructions) {
  using dis::vm::Fusion;
  dis::vm::Cage cage;
  dis::vm::Heap heap(cage, 1 << 20);
  auto fusion_of = [&](const std::string& body) {
    dis::vm::Program p;
    p.mod = dis::assembly::assemble(program(body), "t.s");
    dis::vm::decode(p, heap);
    return std::pair{dis::vm::plain_fusion(p), p.code.size()};
  };
  // The fill loop's test (pc 5), pair, increment and jump: Fill. print_int's
  // frame, movp, movw, lea and mcall run alone.
  const auto [fill, fill_n] = fusion_of(fill_loop("bgew", 0, 10, "$1", 1));
  ASSERT_EQ(fill.size(), fill_n);
  for (std::size_t pc = 0; pc < fill.size(); ++pc)
    EXPECT_EQ(fill[pc], pc >= 5 && pc <= 9 ? Fusion::Fill : Fusion::None) << pc;
  // An instruction between the test (pc 4) and the pair (6-7): no fill, but
  // the pair and the loop-back triple (8, 9 and the test at 4) stay fused.
  const auto [other, other_n] = fusion_of(
      "\tnewa\t$10,$5,128(fp)\n\tmovw\t$0,40(fp)\n\tmovw\t$10,48(fp)\nL:top\n"
      "\tbgew\t40(fp),48(fp),$@out\n\tmovw\t$0,60(fp)\n\tindw\t128(fp),44(fp),40(fp)\n"
      "\tmovw\t$7,0(44(fp))\n\taddw\t$1,40(fp)\n\tjmp\t$@top\nL:out\n");
  const std::vector<Fusion> want = {Fusion::None, Fusion::None, Fusion::None, Fusion::None,
                                    Fusion::Pair, Fusion::None, Fusion::Pair, Fusion::Pair,
                                    Fusion::Pair, Fusion::Pair, Fusion::None};
  EXPECT_EQ(other, want);
  ASSERT_EQ(other_n, want.size());
  // The test reads another word than the increment: no triple, but the
  // increment and the jump (pc 6-7) as a pair, and the jump (when it is
  // dispatched) runs the test at its target (pc 4) as jmp_bgew_FFI.
  const auto [pair, pair_n] = fusion_of(
      "\tmovw\t$7,44(fp)\n\tmovw\t$0,40(fp)\n\tmovw\t$0,56(fp)\nL:top\n"
      "\tbgew\t56(fp),44(fp),$@out\n\taddw\t$1,56(fp)\n\taddw\t$2,40(fp)\n\tjmp\t$@top\nL:out\n");
  ASSERT_EQ(pair_n, 9u);
  for (std::size_t pc = 0; pc < pair.size(); ++pc)
    EXPECT_EQ(pair[pc], pc == 4 || pc == 6 || pc == 7 ? Fusion::Pair : Fusion::None) << pc;
  // A jump to a compare with no shaped handler (a real compare) stays a
  // plain jump: nothing fused.
  const auto [real, real_n] = fusion_of(
      "\tmovf\t$0,40(fp)\nL:top\n\tbgef\t40(fp),48(fp),$@out\n\tmovw\t$1,56(fp)\n"
      "\tjmp\t$@top\nL:out\n");
  ASSERT_EQ(real_n, 6u);
  for (std::size_t pc = 0; pc < real.size(); ++pc) EXPECT_EQ(real[pc], Fusion::None) << pc;
  // A scan loop: its test (4), pair (5-6), increment and jump (8-9) take
  // the scan kind; the body (7) runs alone.
  const auto [scan, scan_n] = fusion_of(zero_scan(10, 3, "44(fp)", "next"));
  ASSERT_EQ(scan_n, 11u);
  for (std::size_t pc = 0; pc < scan.size(); ++pc)
    EXPECT_EQ(scan[pc], (pc >= 4 && pc <= 6) || pc == 8 || pc == 9 ? Fusion::Scan : Fusion::None)
        << pc;
}

// `body` raises "array bounds error" at its pc `pc` (the load is pc 0);
// `descs` are types it needs beyond program()'s.
void expect_bounds_error_at(const std::string& body, int pc, const std::string& descs = "") {
  // The reference: a nil dereference at pc 1 (the types are lines too).
  auto o = run_text(program("\tmovw\t4(128(fp)),40(fp)\n", "", descs));
  ASSERT_EQ(o.status, 1);
  const int pc1 = reported_line(o.err);
  ASSERT_GT(pc1, 0) << o.err;
  o = run_text(program(body, "", descs));
  EXPECT_EQ(o.status, 1);
  EXPECT_NE(o.err.find("array bounds error"), std::string::npos) << o.err;
  EXPECT_EQ(reported_line(o.err), pc1 + pc - 1) << o.err;
}

TEST(VmSpecialised, FillLoopRaisesAtItsIndexPastTheEnd) {
  // A 5-element array filled up to 10: the sixth indw (pc 6) faults, after
  // five elements were stored.
  expect_bounds_error_at(fill_loop("bgew", 0, 10, "$1", 5), 6);
}

TEST(VmSpecialised, InstructionLimitStopsInsideAFillLoop) {
  // pc 1-4 set up, 5 the test, 6-9 the body, increment and jump, 10 after.
  const std::string body =
      "\tnewa\t$10,$5,128(fp)\n"         // pc 1
      "\tmovw\t$0,40(fp)\n"              // pc 2
      "\tmovw\t$2,48(fp)\n"              // pc 3
      "\tmovw\t$0,52(fp)\n"              // pc 4
      "\tbgew\t40(fp),48(fp),$10\n"      // pc 5
      "\tindw\t128(fp),44(fp),40(fp)\n"  // pc 6
      "\tmovw\t$7,0(44(fp))\n"           // pc 7
      "\taddw\t$1,40(fp)\n"              // pc 8
      "\tjmp\t$5\n"                      // pc 9
      "\tmovw\t$0,60(fp)\n";             // pc 10
  expect_limits_stop_at(body, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 5, 6, 7, 8, 9, 5, 10});
}

// An array scan: elements `marks` of a 10-element array set to 1, then the
// loop's test at the label top, indw and beqw (element 0: go on to the
// increment), a body that counts and prints each index found, the
// increment and the jump back, which decode runs as one loop
// (indw_FFF_beqw_scan). The index and the count are printed after, and
// with `last` the word at the element pointer.
std::string scan_loop(const std::string& test, int from, int limit, const std::string& step,
                      const std::vector<int>& marks, bool last = true) {
  std::string body = "\tnewa\t$10,$5,128(fp)\n";
  for (int k : marks)
    body += "\tmovw\t$" + std::to_string(k) + ",56(fp)\n\tindw\t128(fp),64(fp),56(fp)\n" +
            "\tmovw\t$1,0(64(fp))\n";
  body += "\tmovw\t$" + std::to_string(from) + ",40(fp)\n\tmovw\t$" + std::to_string(limit) +
          ",48(fp)\n\tmovw\t$3,52(fp)\n\tmovw\t$0,60(fp)\nL:top\n\t" + test +
          "\t40(fp),48(fp),$@out\n\tindw\t128(fp),44(fp),40(fp)\n\tbeqw\t0(44(fp)),$0,$@next\n"
          "\taddw\t$1,60(fp)\n" +
          print_int("40(fp)") + "L:next\n\taddw\t" + step + ",40(fp)\n\tjmp\t$@top\nL:out\n";
  return body + print_int("40(fp)") + print_int("60(fp)") + (last ? print_int("0(44(fp))") : "");
}

TEST(VmSpecialised, ScanLoopsStopAtEveryElementThatDiffers) {
  const std::vector<std::vector<int>> mark_sets = {{}, {0}, {4, 7}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9}};
  dis::vm::Options traced_opts;
  traced_opts.trace = true;
  for (const LoopCase& c : kArrayLoops)
    for (const std::vector<int>& marks : mark_sets) {
      std::vector<int> elems(10, 0);
      for (int k : marks) elems[static_cast<std::size_t>(k)] = 1;
      std::string expected;
      int found = 0, i = c.from, last = -1;
      for (; !c.exit(i, c.limit); i += c.step_value) {
        last = elems[static_cast<std::size_t>(i)];
        if (last != 0) {
          ++found;
          expected += std::to_string(i) + "\n";
        }
      }
      const std::string program_text = scan_loop(c.test, c.from, c.limit, c.step, marks, last >= 0);
      const auto o = run(program_text);
      ASSERT_EQ(o.status, 0) << o.err;
      EXPECT_EQ(o.out, expected + std::to_string(i) + "\n" + std::to_string(found) + "\n" +
                           (last >= 0 ? std::to_string(last) + "\n" : ""))
          << c.test << " from " << c.from << " step " << c.step << " marks " << marks.size();
      // --trace dispatches every instruction on its own: the reference.
      const auto traced = run(program_text, "", traced_opts);
      EXPECT_EQ(traced.out, o.out);
    }
}

TEST(VmSpecialised, ScanLoopDecodesIntoOneHandlerOnlyWhenDisjoint) {
  dis::vm::Cage cage;
  dis::vm::Heap heap(cage, 1 << 20);
  dis::vm::Program scan;
  scan.mod = dis::assembly::assemble(program(scan_loop("bltw", 9, 0, "$-1", {3})), "t.s");
  dis::vm::decode(scan, heap);
  // pc 1 newa, 2-4 the mark, 5-8 the setup, 9 the test, 10 the pair.
  EXPECT_EQ(scan.code[10].h, dis::vm::kH_indw_FFF_beqw_scan);
  EXPECT_EQ(scan.code[10].aux, dis::vm::kLoopLt);
  // The element pointer stored over the limit: the plain pair.
  dis::vm::Program aliased;
  aliased.mod = dis::assembly::assemble(program(zero_scan(10, 3, "48(fp)", "next")), "t.s");
  dis::vm::decode(aliased, heap);
  EXPECT_EQ(aliased.code[5].h, dis::vm::kH_indw_FFF_beqw);
  // The branch to somewhere other than the increment: the plain pair.
  dis::vm::Program other;
  other.mod = dis::assembly::assemble(program(zero_scan(10, 3, "44(fp)", "out")), "t.s");
  dis::vm::decode(other, heap);
  EXPECT_EQ(other.code[5].h, dis::vm::kH_indw_FFF_beqw);
}

TEST(VmSpecialised, ScanLoopRaisesAtItsIndexPastTheEnd) {
  // A 5-element array of zeros scanned up to 10: the sixth indw (pc 5)
  // faults.
  expect_bounds_error_at(zero_scan(5, 10, "44(fp)", "next"), 5);
}

TEST(VmSpecialised, InstructionLimitStopsInsideAScanLoop) {
  // pc 1-6 set up (element 1 is 5), 7 the test, 8-9 the pair, 10 the
  // body, 11-12 the increment and jump, 13 after.
  const std::string body =
      "\tnewa\t$10,$5,128(fp)\n"         // pc 1
      "\tmovw\t$1,40(fp)\n"              // pc 2
      "\tindw\t128(fp),44(fp),40(fp)\n"  // pc 3
      "\tmovw\t$5,0(44(fp))\n"           // pc 4
      "\tmovw\t$0,40(fp)\n"              // pc 5
      "\tmovw\t$3,48(fp)\n"              // pc 6
      "\tbgew\t40(fp),48(fp),$13\n"      // pc 7
      "\tindw\t128(fp),44(fp),40(fp)\n"  // pc 8
      "\tbeqw\t0(44(fp)),$0,$11\n"       // pc 9
      "\tmovw\t$1,60(fp)\n"              // pc 10
      "\taddw\t$1,40(fp)\n"              // pc 11
      "\tjmp\t$7\n"                      // pc 12
      "\tmovw\t$0,60(fp)\n";             // pc 13
  expect_limits_stop_at(
      body, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 7, 8, 9, 10, 11, 12, 7, 8, 9, 11, 12, 7, 13});
}

// Real arithmetic on frame words (shaped handlers) and the same on module
// data words (general handlers) must print the same; a few values checked
// against C++ too.
std::string real_ops(const std::string& w) {
  auto r = [&](int k) { return std::to_string(k) + "(" + w + ")"; };
  return "\tcvtwf\t$2,64(" + w + ")\n\tcvtwf\t$-3,72(" + w + ")\n" + "\taddf\t" + r(64) + "," +
         r(72) + "," + r(80) + "\n" + print_real(r(80)) + "\tsubf\t" + r(64) + "," + r(72) + "," +
         r(80) + "\n" + print_real(r(80)) + "\tmulf\t" + r(64) + "," + r(72) + "," + r(80) + "\n" +
         print_real(r(80)) + "\tdivf\t" + r(64) + "," + r(72) + "," + r(80) + "\n" +
         print_real(r(80)) + "\tmovf\t" + r(72) + "," + r(88) + "\n" + print_real(r(88)) +
         "\tnew\t$6,128(fp)\n\tmovf\t" + r(64) + ",0(128(fp))\n\tmovf\t0(128(fp))," + r(96) + "\n" +
         print_real(r(96)) + "\tsubf\t0(128(fp))," + r(72) + "," + r(104) + "\n" +
         print_real(r(104)) + "\tmulf\t0(128(fp))," + r(72) + "," + r(104) + "\n" +
         print_real(r(104)) + "\taddf\t" + r(72) + ",0(128(fp))\n" + print_real("0(128(fp))") +
         "\tsubf\t" + r(64) + ",0(128(fp))\n" + print_real("0(128(fp))");
}

TEST(VmSpecialised, ShapedRealOpsMatchTheGeneralOnes) {
  auto shaped = run(real_ops("fp"));
  ASSERT_EQ(shaped.status, 0) << shaped.err;
  auto general = run(real_ops("mp"));
  ASSERT_EQ(general.status, 0) << general.err;
  EXPECT_EQ(shaped.out, general.out);
  // m op s with m = -3, s = 2: -3 + 2, -3 - 2, -3 * 2, -3 / 2; the moves;
  // -3 - 2 and -3 * 2 through the record; then it becomes 2 + -3, -1 - 2.
  auto g = [](double v) {
    char b[64];
    std::snprintf(b, sizeof b, "%g\n", v);
    return std::string(b);
  };
  EXPECT_EQ(shaped.out,
            g(-1) + g(-5) + g(-6) + g(-1.5) + g(-3) + g(2) + g(-5) + g(-6) + g(-1) + g(-3));
}

TEST(VmSpecialised, ShapedRealIndirectionThroughNilRaises) {
  for (const char* body :
       {"\tmovf\t0(128(fp)),64(fp)\n", "\tmovf\t64(fp),0(128(fp))\n",
        "\tsubf\t0(128(fp)),64(fp),72(fp)\n", "\tmulf\t0(128(fp)),64(fp),72(fp)\n",
        "\taddf\t64(fp),0(128(fp))\n", "\tsubf\t64(fp),0(128(fp))\n"}) {
    auto o = run(body);
    EXPECT_EQ(o.status, 1) << body;
    EXPECT_NE(o.err.find("dereference of nil"), std::string::npos) << body << o.err;
  }
}

// The fill and scan loops over other elements than words (bytes) and the
// scans that go on while the element differs (bnew, bneb): each decodes
// into its loop handler, and computes what --trace (every instruction
// alone) computes, which the expected values below check too.
const std::string kByteDesc = "\tdesc\t$7,1,\"\"\n";
struct Elem {
  const char *ind, *mov, *type;
  bool byte;
};
const Elem kWord = {"indw", "movw", "$5", false};
const Elem kByte = {"indb", "movb", "$7", true};

// Prints the element 44(fp) points at (a byte widened first).
std::string print_elem(const Elem& e) {
  return e.byte ? "\tcvtbw\t0(44(fp)),68(fp)\n" + print_int("68(fp)") : print_int("0(44(fp))");
}
// Sets element k (in 56(fp)) of the array at 128(fp) to v, through 64(fp).
std::string set_elem(const Elem& e, int k, int v) {
  return "\tmovw\t$" + std::to_string(k) + ",56(fp)\n\t" + e.ind + "\t128(fp),64(fp),56(fp)\n\t" +
         e.mov + "\t$" + std::to_string(v) + ",0(64(fp))\n";
}

struct Ran {
  Outcome plain, traced;
};
Ran run_both(const std::string& body) {
  dis::vm::Options traced_opts;
  traced_opts.trace = true;
  const std::string text = program(body, "", kByteDesc);
  return {run_text(text), run_text(text, traced_opts)};
}

// The handler decode chose at pc.
unsigned handler_at(const std::string& body, std::size_t pc) {
  dis::vm::Cage cage;
  dis::vm::Heap heap(cage, 1 << 20);
  dis::vm::Program p;
  p.mod = dis::assembly::assemble(program(body, "", kByteDesc), "t.s");
  dis::vm::decode(p, heap);
  return p.code.at(pc).h;
}

// fill_loop over `e` elements storing the immediate `value` (pc 6 the
// indw or indb), each element printed afterwards, then the index.
std::string elem_fill(const Elem& e, const LoopCase& c, int value, int len) {
  std::string body = "\tnewa\t$" + std::to_string(len) + "," + e.type + ",128(fp)\n\tmovw\t$" +
                     std::to_string(c.from) + ",40(fp)\n\tmovw\t$" + std::to_string(c.limit) +
                     ",48(fp)\n\tmovw\t$3,52(fp)\nL:top\n\t" + c.test +
                     "\t40(fp),48(fp),$@out\n\t" + e.ind + "\t128(fp),44(fp),40(fp)\n\t" + e.mov +
                     "\t$" + std::to_string(value) + ",0(44(fp))\n\taddw\t" + c.step +
                     ",40(fp)\n\tjmp\t$@top\nL:out\n";
  for (int k = 0; k < len; ++k)
    body += "\tmovw\t$" + std::to_string(k) + ",56(fp)\n\t" + e.ind + "\t128(fp),44(fp),56(fp)\n" +
            print_elem(e);
  return body + print_int("40(fp)");
}

TEST(VmSpecialised, ByteFillLoopsStoreTheImmediateCutToAByte) {
  // 257 and 300 wrap to 1 and 44; -1 and 511 to 255.
  for (const int value : {7, 255, 257, -1, 511, 300})
    for (const LoopCase& c : kArrayLoops) {
      SCOPED_TRACE(std::string(c.test) + " from " + std::to_string(c.from) + " step " + c.step +
                   " value " + std::to_string(value));
      const std::string body = elem_fill(kByte, c, value, 10);
      EXPECT_EQ(handler_at(body, 6), dis::vm::kH_indb_FFF_movb_loop);
      std::vector<int> elems(10, 0);
      int i = c.from;
      for (; !c.exit(i, c.limit); i += c.step_value)
        elems[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(value);
      std::string expected;
      for (int x : elems) expected += std::to_string(x) + "\n";
      const Ran r = run_both(body);
      ASSERT_EQ(r.plain.status, 0) << r.plain.err;
      EXPECT_EQ(r.plain.out, expected + std::to_string(i) + "\n");
      EXPECT_EQ(r.traced.out, r.plain.out);
    }
}

// A scan of a 10-element array whose elements are `base` but `marks`
// (set to `mark`), by `cmp` against the immediate `value` (pc 1 newa, 10
// element stores of 3 instructions, the marks', 4 more set-up, the test,
// then the pair). The body counts and prints each index it is entered for.
struct ScanCase {
  const Elem* e;
  const char* cmp;
  bool eq;
  int base, mark, value;
};
std::string elem_scan(const ScanCase& s, const LoopCase& c, const std::vector<int>& marks) {
  std::string body = "\tnewa\t$10," + std::string(s.e->type) + ",128(fp)\n";
  for (int k = 0; k < 10; ++k) body += set_elem(*s.e, k, s.base);
  for (int k : marks) body += set_elem(*s.e, k, s.mark);
  body += "\tmovw\t$" + std::to_string(c.from) + ",40(fp)\n\tmovw\t$" + std::to_string(c.limit) +
          ",48(fp)\n\tmovw\t$3,52(fp)\n\tmovw\t$0,60(fp)\nL:top\n\t" + c.test +
          "\t40(fp),48(fp),$@out\n\t" + s.e->ind + "\t128(fp),44(fp),40(fp)\n\t" + s.cmp +
          "\t0(44(fp)),$" + std::to_string(s.value) + ",$@next\n\taddw\t$1,60(fp)\n" +
          print_int("40(fp)") + "L:next\n\taddw\t" + c.step + ",40(fp)\n\tjmp\t$@top\nL:out\n";
  return body + print_int("40(fp)") + print_int("60(fp)");
}

TEST(VmSpecialised, ByteAndNotEqualScanLoopsStopWhereTheirCompareFallsThrough) {
  const ScanCase scans[] = {
      {&kByte, "beqb", true, 0, 1, 0},       {&kByte, "beqb", true, 0, 1, 256},
      {&kByte, "beqb", true, 255, 254, -1},  {&kByte, "bneb", false, 1, 0, 0},
      {&kByte, "bneb", false, 200, 44, 300}, {&kWord, "bnew", false, 1, 0, 0},
  };
  const std::vector<std::vector<int>> mark_sets = {{}, {0}, {4, 7}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9}};
  for (const ScanCase& s : scans)
    for (const LoopCase& c : kArrayLoops)
      for (const std::vector<int>& marks : mark_sets) {
        SCOPED_TRACE(std::string(s.cmp) + " " + std::to_string(s.value) + " " + c.test + " from " +
                     std::to_string(c.from) + " step " + c.step + " marks " +
                     std::to_string(marks.size()));
        const std::string body = elem_scan(s, c, marks);
        const std::size_t pair = 1 + 3 * (10 + marks.size()) + 6;
        const unsigned want =
            s.e->byte ? (s.eq ? dis::vm::kH_indb_FFF_beqb_scan : dis::vm::kH_indb_FFF_bneb_scan)
                      : dis::vm::kH_indw_FFF_bnew_scan;
        EXPECT_EQ(handler_at(body, pair), want);
        std::vector<int> elems(10, s.base);
        for (int k : marks) elems[static_cast<std::size_t>(k)] = s.mark;
        const auto value = s.e->byte ? static_cast<std::uint8_t>(s.value) : s.value;
        std::string expected;
        int found = 0, i = c.from;
        for (; !c.exit(i, c.limit); i += c.step_value)
          if ((elems[static_cast<std::size_t>(i)] == value) != s.eq) {
            ++found;
            expected += std::to_string(i) + "\n";
          }
        const Ran r = run_both(body);
        ASSERT_EQ(r.plain.status, 0) << r.plain.err;
        EXPECT_EQ(r.plain.out, expected + std::to_string(i) + "\n" + std::to_string(found) + "\n");
        EXPECT_EQ(r.traced.out, r.plain.out);
      }
}

TEST(VmSpecialised, ByteLoopsRaiseAtTheirIndexPastTheEnd) {
  // A 5-element array filled or scanned up to 10: the sixth indb faults
  // (the fill's at pc 6, the scan's at pc 5); an empty array at once.
  const LoopCase up = {"bgew", 0, 10, "$1", 1, [](int i, int n) { return i >= n; }};
  expect_bounds_error_at(elem_fill(kByte, up, 1, 5), 6, kByteDesc);
  expect_bounds_error_at(elem_fill(kByte, up, 1, 0), 6, kByteDesc);
  for (const char* cmp : {"beqb", "bneb"})
    for (const char* len : {"5", "0"}) {
      const std::string scan =
          "\tnewa\t$" + std::string(len) +
          ",$7,128(fp)\n\tmovw\t$0,40(fp)\n\tmovw\t$10,48(fp)\nL:top\n"
          "\tbgew\t40(fp),48(fp),$@out\n\tindb\t128(fp),44(fp),40(fp)\n\t" +
          std::string(cmp) + "\t0(44(fp)),$" + (cmp[1] == 'e' ? "0" : "1") +
          ",$@next\n\tmovw\t$1,60(fp)\nL:next\n\taddw\t$1,40(fp)\n\tjmp\t$@top\nL:out\n";
      EXPECT_EQ(handler_at(scan, 5),
                cmp[1] == 'e' ? dis::vm::kH_indb_FFF_beqb_scan : dis::vm::kH_indb_FFF_bneb_scan);
      expect_bounds_error_at(scan, 5, kByteDesc);
    }
}

// pc 1-4 set up, 5 the test, 6-9 the body, increment and jump, 10 after.
const std::string kByteFill =
    "\tnewa\t$10,$7,128(fp)\n"         // pc 1
    "\tmovw\t$0,40(fp)\n"              // pc 2
    "\tmovw\t$2,48(fp)\n"              // pc 3
    "\tmovw\t$0,52(fp)\n"              // pc 4
    "\tbgew\t40(fp),48(fp),$10\n"      // pc 5
    "\tindb\t128(fp),44(fp),40(fp)\n"  // pc 6
    "\tmovb\t$7,0(44(fp))\n"           // pc 7
    "\taddw\t$1,40(fp)\n"              // pc 8
    "\tjmp\t$5\n"                      // pc 9
    "\tmovw\t$0,60(fp)\n";             // pc 10
// Element 1 is 5, the scan goes on while elements are 0 (bytes): pc 7
// the test, 8-9 the pair, 10 the body, 11-12 the increment and jump.
const std::string kByteScan =
    "\tnewa\t$10,$7,128(fp)\n"         // pc 1
    "\tmovw\t$1,40(fp)\n"              // pc 2
    "\tindb\t128(fp),44(fp),40(fp)\n"  // pc 3
    "\tmovb\t$5,0(44(fp))\n"           // pc 4
    "\tmovw\t$0,40(fp)\n"              // pc 5
    "\tmovw\t$3,48(fp)\n"              // pc 6
    "\tbgew\t40(fp),48(fp),$13\n"      // pc 7
    "\tindb\t128(fp),44(fp),40(fp)\n"  // pc 8
    "\tbeqb\t0(44(fp)),$0,$11\n"       // pc 9
    "\tmovw\t$1,60(fp)\n"              // pc 10
    "\taddw\t$1,40(fp)\n"              // pc 11
    "\tjmp\t$7\n"                      // pc 12
    "\tmovw\t$0,60(fp)\n";             // pc 13

TEST(VmSpecialised, InstructionLimitStopsInsideAByteFillLoop) {
  EXPECT_EQ(handler_at(kByteFill, 6), dis::vm::kH_indb_FFF_movb_loop);
  expect_limits_stop_at(kByteFill, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 5, 6, 7, 8, 9, 5, 10}, kByteDesc);
}

TEST(VmSpecialised, InstructionLimitStopsInsideAByteScanLoop) {
  EXPECT_EQ(handler_at(kByteScan, 8), dis::vm::kH_indb_FFF_beqb_scan);
  expect_limits_stop_at(kByteScan, {0, 1, 2,  3,  4,  5, 6, 7, 8,  9,  11, 12, 7,
                                    8, 9, 10, 11, 12, 7, 8, 9, 11, 12, 7,  13},
                        kByteDesc);
}

// The cost tool's stream base sees the byte loops' pcs as fills and scans.
TEST(VmSpecialised, PlainFusionMarksByteLoopsAsFillsAndScans) {
  using dis::vm::Fusion;
  dis::vm::Cage cage;
  dis::vm::Heap heap(cage, 1 << 20);
  auto fusion_of = [&](const std::string& body) {
    dis::vm::Program p;
    p.mod = dis::assembly::assemble(program(body, "", kByteDesc), "t.s");
    dis::vm::decode(p, heap);
    return dis::vm::plain_fusion(p);
  };
  const std::vector<Fusion> fill = fusion_of(kByteFill);
  for (std::size_t pc = 0; pc < fill.size(); ++pc)
    EXPECT_EQ(fill[pc], pc >= 5 && pc <= 9 ? Fusion::Fill : Fusion::None) << pc;
  const std::vector<Fusion> scan = fusion_of(kByteScan);
  // The element set before it (pc 3-4) is an indb/movb pair.
  for (std::size_t pc = 0; pc < scan.size(); ++pc)
    EXPECT_EQ(scan[pc], pc >= 7 && pc <= 12 && pc != 10 ? Fusion::Scan
                        : pc == 3 || pc == 4            ? Fusion::Pair
                                                        : Fusion::None)
        << pc;
}

}  // namespace
