// The print formatter and cvt conversions against Inferno's behaviour: the
// formats and convert corpus programs (their expected.out was produced by
// Inferno's emulator) plus one test per verb, flag and edge case.
#include "format.h"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "shared_corpus.h"

namespace {

using dis::vm::format;

// One vararg as the VM would find it in the frame.
struct Val {
  enum Kind { kInt, kBig, kReal, kString, kHeap } kind;  // kHeap: i ref count, r type
  std::int64_t i = 0;
  double r = 0;
  std::string s;
};
Val I(std::int32_t v) { return {Val::kInt, v, 0, {}}; }
Val B(std::int64_t v) { return {Val::kBig, v, 0, {}}; }
Val R(double v) { return {Val::kReal, 0, v, {}}; }
Val S(std::string v) { return {Val::kString, 0, 0, std::move(v)}; }

// A cursor that also checks the formatter asks for the right types in the
// right order (as the frame layout requires).
class VecArgs : public dis::vm::FormatArgs {
 public:
  explicit VecArgs(std::vector<Val> v) : vals_(std::move(v)) {}
  std::int32_t next_int() override { return static_cast<std::int32_t>(take(Val::kInt).i); }
  std::int64_t next_big() override { return take(Val::kBig).i; }
  double next_real() override { return take(Val::kReal).r; }
  std::string next_string() override { return take(Val::kString).s; }
  HeapInfo next_heap() override {
    const Val& v = take(Val::kHeap);
    return {static_cast<std::int32_t>(v.i), static_cast<std::uint32_t>(v.r)};
  }
  bool exhausted() const override { return pos_ >= vals_.size(); }
  std::size_t used() const { return pos_; }

 private:
  const Val& take(Val::Kind k) {
    static const Val none{Val::kInt, 0, 0, {}};
    if (pos_ >= vals_.size()) {
      ADD_FAILURE() << "read past the arguments";
      return none;
    }
    EXPECT_EQ(vals_[pos_].kind, k) << "argument " << pos_ << " read with the wrong type";
    return vals_[pos_++];
  }
  std::vector<Val> vals_;
  std::size_t pos_ = 0;
};

std::string fmt(std::string_view f, std::vector<Val> v = {}, std::string_view err = "") {
  VecArgs a(std::move(v));
  std::string out = format(f, a, err);
  EXPECT_TRUE(a.exhausted()) << "unused arguments for " << f;
  return out;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in) << path;
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::stringstream ss(text);
  for (std::string l; std::getline(ss, l);) lines.push_back(l);
  return lines;
}

std::size_t rune_len(const std::string& s) {
  std::size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

// Sys->tokenize, so the formats program's remaining lines can be rebuilt.
std::vector<std::string> tokenize(const std::string& s, const std::string& delim) {
  std::vector<std::string> toks;
  std::string cur;
  for (char c : s) {
    if (delim.find(c) != std::string::npos) {
      if (!cur.empty()) toks.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) toks.push_back(cur);
  return toks;
}

const std::string kCorpus = std::string(DIS_SHARED_DIR) + "/testdata/limbo/";

}  // namespace

// formats.b, statement by statement, with the same formats and values.
TEST(FormatCorpus, FormatsProgramOutput) {
  DIS_NEEDS_SHARED();
  std::string out;
  const std::int32_t n = 42, m = -42;
  out += fmt("[%d] [%5d] [%-5d] [%05d] [%+d] [%+d]\n", {I(n), I(n), I(n), I(n), I(n), I(m)});
  out += fmt("[%x] [%X] [%o] [%#x] [%#o] [%8.4x]\n", {I(255), I(255), I(8), I(255), I(8), I(255)});
  out += fmt("[%x] [%ux] [%ud]\n", {I(-1), I(-1), I(-1)});
  out += fmt("[%c%c%c] [%3c] [%-3c]\n", {I('a'), I(0x3b1), I('!'), I('z'), I('z')});
  const std::string s = "limbo";
  out += fmt("[%s] [%10s] [%-10s] [%.3s] [%8.2s] [%-8.4s]\n", {S(s), S(s), S(s), S(s), S(s), S(s)});
  const std::int32_t w = 7, p = 2;
  out += fmt("[%*d] [%-*d] [%.*s]\n", {I(w), I(n), I(w), I(n), I(p), S(s)});
  out += fmt("[%q] [%q] [%q]\n", {S("plain"), S("has space"), S("it's")});
  out += fmt("[%bd] [%bx] [%20bd] [%-20bd]\n",
             {B(-123456789012), B(0xdeadbeefcafe), B(std::int64_t{1} << 50), B(7)});
  out += fmt("[%e] [%.2f] [%10.3f] [%-10.1f] [%+.1f] [%g]\n",
             {R(1.5), R(2.125), R(-0.5), R(3.25), R(4.75), R(0.0625)});
  out += fmt("[%E] [%G] [%g] [%g]\n",
             {R(1536.0), R(1e-7 * 0.0), R(3e10 / 3.0), R(1024.0 * 1024.0 * 8.0)});
  out += fmt("100%% literal, empty [%s]\n", {S("")});
  out += fmt("unicode width [%5s] [%-4s]\n", {S("αβ"), S("€")});
  const std::string r = fmt("%d-%s-%x", {I(7), S("x"), I(171)});
  out += fmt("sprint '%s' len %d\n", {S(r), I(static_cast<std::int32_t>(rune_len(r)))});
  std::string longs;
  for (int i = 0; i < 30; ++i) longs += fmt("%02d", {I(i)});
  out += fmt("%s\n", {S(longs)});
  for (const char* line :
       {"the quick  brown fox", "  leading and trailing  ", "a,b,,c;d", "", "single", "   "}) {
    auto toks = tokenize(line, " ");
    out += fmt("%d tokens:", {I(static_cast<std::int32_t>(toks.size()))});
    for (const auto& t : toks) out += fmt(" <%s>", {S(t)});
    out += fmt("\n");
  }
  for (auto [str, delim] : {std::pair{"a,b,,c;d", ",;"}, {"key=value=more\tx", "=\t"}}) {
    auto toks = tokenize(str, delim);
    out += fmt("%d:", {I(static_cast<std::int32_t>(toks.size()))});
    for (const auto& t : toks) out += fmt(" <%s>", {S(t)});
    out += fmt("\n");
  }
  out += fmt("greek %d\n", {I(static_cast<std::int32_t>(tokenize("α β γ δ", " ").size()))});

  const std::string expected = read_file(kCorpus + "formats/expected.out");
  const auto want = lines_of(expected), got = lines_of(out);
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < want.size(); ++i) EXPECT_EQ(got[i], want[i]) << "line " << i + 1;
  EXPECT_EQ(out, expected);
}

// convert.b's conversion lines, with the cvt functions in place of the
// opcodes and the formatter for the prints.
TEST(FormatCorpus, ConvertProgramOutput) {
  DIS_NEEDS_SHARED();
  using namespace dis::vm;
  std::string out;
  for (const char* in : {"42", "-17", "+8", "12abc", "abc", "", "  33", "0x1f", "007", "2147483647",
                         "2147483648", "-2147483648", "99999999999", "3.9", "-0", "1e3"})
    out += fmt("int \"%s\" = %d\n", {S(in), I(string_to_int(in))});
  for (const char* in :
       {"9223372036854775807", "-9223372036854775808", "123456789012345xyz", "zz", "4294967296"})
    out += fmt("big \"%s\" = %bd\n", {S(in), B(string_to_big(in))});
  for (const char* in : {"2.5", "-0.125", "1e3", "6.25e-2", "7", "abc", "3.5xyz", ".5", "1024.75"})
    out += fmt("real \"%s\" = %g\n", {S(in), R(string_to_real(in))});
  const std::string si = int_to_string(-1234);
  out += fmt("string int %s len %d\n", {S(si), I(static_cast<std::int32_t>(rune_len(si)))});
  out += fmt("string big %s\n", {S(big_to_string(std::int64_t{1} << 40))});
  out += fmt("string real %s %s %s %s\n", {S(real_to_string(0.5)), S(real_to_string(2.0)),
                                           S(real_to_string(-3.75)), S(real_to_string(1e10))});
  out += fmt("string byte %s\n", {S(int_to_string(65))});
  for (int i = -3; i <= 3; ++i) {
    const std::string t = int_to_string(i * 1111);
    out += fmt("%s->%d ", {S(t), I(string_to_int(t))});
  }
  out += fmt("\n");

  const auto want = lines_of(read_file(kCorpus + "convert/expected.out"));
  const auto got = lines_of(out);
  ASSERT_LE(got.size(), want.size());
  for (std::size_t i = 0; i < got.size(); ++i) EXPECT_EQ(got[i], want[i]) << "line " << i + 1;
  EXPECT_EQ(got.size(), 35u);  // every conversion line up to the round trips
  // The later lines that print through the formatter only.
  EXPECT_EQ(fmt("char %d %c\n", {I(0xe9), I(0xe9)}), want[35] + "\n");
  EXPECT_EQ(fmt("int of big %d %x\n", {I(591751049), I(591751049)}), want[42] + "\n");
  EXPECT_EQ(fmt("big of int %bd %bd\n", {B(0x7fffffff), B(-1)}), want[43] + "\n");
  EXPECT_EQ(fmt("real of string of int %g\n", {R(string_to_real(int_to_string(77)))}),
            want[44] + "\n");
  std::string bytes = fmt("utf8 bytes %d:", {I(6)});
  for (unsigned char c : std::string("aé€")) bytes += fmt(" %x", {I(c)});
  EXPECT_EQ(bytes, want[38]);
  EXPECT_EQ(fmt("rune string %s len %d code %d\n", {S("\u263a"), I(1), I(0x263a)}),
            want[37] + "\n");
}

TEST(FormatVerbs, Integers) {
  EXPECT_EQ(fmt("%d %d %d", {I(0), I(-2147483647 - 1), I(2147483647)}), "0 -2147483648 2147483647");
  EXPECT_EQ(fmt("%x %X %o", {I(-255), I(-255), I(-8)}), "-ff -FF -10");
  EXPECT_EQ(fmt("%ux %uX %uo", {I(-255), I(-255), I(-8)}), "ffffff01 FFFFFF01 37777777770");
  EXPECT_EQ(fmt("%#x %#X %#o %#o", {I(255), I(255), I(0), I(8)}), "0xff 0XFF 0 010");
  EXPECT_EQ(fmt("%#x", {I(-255)}), "-0xff");
  EXPECT_EQ(fmt("%.3d|%5.3d|%-5.3d|%.0d", {I(42), I(42), I(42), I(0)}), "042|  042|042  |0");
  EXPECT_EQ(fmt("% d|% d|%+d|%+ d", {I(5), I(-5), I(5), I(5)}), " 5|-5|+5|+5");
  EXPECT_EQ(fmt("%05d|%-05d|%05x|%#06x", {I(-42), I(42), I(255), I(255)}),
            "-0042|42   |000ff|0x00ff");
  EXPECT_EQ(fmt("%,d|%,d", {I(1234567), I(-1000)}), "1,234,567|-1,000");
  EXPECT_EQ(fmt("%ld %hd %hhd %hud", {I(7), I(70000), I(300), I(-1)}), "7 4464 44 65535");
  // The conversion buffer caps digits plus zero padding at 66 characters.
  EXPECT_EQ(fmt("%.100d", {I(1)}), std::string(65, '0') + "1");
}

TEST(FormatVerbs, Bigs) {
  EXPECT_EQ(fmt("%bd %bd", {B(std::numeric_limits<std::int64_t>::min()),
                            B(std::numeric_limits<std::int64_t>::max())}),
            "-9223372036854775808 9223372036854775807");
  EXPECT_EQ(fmt("%bx %ubx %bX %bo", {B(-1), B(-1), B(0xABCDEF0123), B(8)}),
            "-1 ffffffffffffffff ABCDEF0123 10");
  EXPECT_EQ(fmt("%ubd %bud", {B(-1), B(-2)}), "18446744073709551615 18446744073709551614");
  EXPECT_EQ(fmt("%+bd|%08bd|%-8bd|", {B(5), B(-5), B(5)}), "+5|-0000005|5       |");
  // Ints and bigs mixed: each read with its own type.
  EXPECT_EQ(fmt("%d %bd %d", {I(1), B(2), I(3)}), "1 2 3");
}

TEST(FormatVerbs, RunesInPercentC) {
  EXPECT_EQ(fmt("%c%c%c", {I('A'), I(0xe9), I(0x1F600)}), "Aé\xF0\x9F\x98\x80");
  // Beyond U+10FFFF, surrogates and negative values print U+FFFD.
  EXPECT_EQ(fmt("%c|%c|%c", {I(0x110000), I(0xD800), I(-1)}), "\uFFFD|\uFFFD|\uFFFD");
  EXPECT_EQ(fmt("[%3c] [%-3c] [%.0c]", {I(0x3b1), I(0x3b1), I('x')}), "[  α] [α  ] []");
  // %bc is lib9's byte %c: ASCII prints, a byte >= 0x80 prints only padding.
  EXPECT_EQ(fmt("[%bc] [%3bc]", {B(65 + (std::int64_t{1} << 40)), B(0xE9)}), "[A] [  ]");
}

TEST(FormatVerbs, Strings) {
  EXPECT_EQ(
      fmt("[%s] [%5s] [%-5s] [%.2s] [%5.1s]", {S("αβγ"), S("αβγ"), S("αβγ"), S("αβγ"), S("αβγ")}),
      "[αβγ] [  αβγ] [αβγ  ] [αβ] [    α]");
  EXPECT_EQ(fmt("[%s]", {S(std::string("a\0b", 3))}), "[a]");  // C string ends at NUL
  EXPECT_EQ(fmt("[%05s]", {S("ab")}), "[   ab]");              // no zero padding
  EXPECT_EQ(fmt("[%.0s]", {S("ab")}), "[]");
}

TEST(FormatVerbs, Quoted) {
  EXPECT_EQ(fmt("%q|%q|%q|%q", {S(""), S("a'b"), S("tab\there"), S("héllo")}),
            "''|'a''b'|'tab\there'|héllo");
  EXPECT_EQ(fmt("%#q", {S("abc")}), "'abc'");
  EXPECT_EQ(fmt("[%.1q]", {S("abc")}), "[abc]");  // precision ignored
  // Unquoted: width in runes; quoted: width in bytes.
  EXPECT_EQ(fmt("[%4q] [%6q] [%-6q]", {S("é"), S("é x"), S("é x")}), "[   é] ['é x'] ['é x']");
  EXPECT_EQ(fmt("[%8q]", {S("é x")}), "[  'é x']");
}

TEST(FormatVerbs, RealsShortestG) {
  EXPECT_EQ(fmt("%g %g %g %g", {R(0.5), R(0.0625), R(1e6), R(100000.0)}), ".5 .0625 1e+06 100000");
  EXPECT_EQ(fmt("%g %g %g", {R(1e-4), R(1e-5), R(123456789.0)}), ".0001 1e-05 123456789");
  EXPECT_EQ(fmt("%g %g %g %g", {R(-0.0), R(-0.125), R(1.5e300), R(2.5e-300)}),
            "-0 -.125 1.5e+300 2.5e-300");
  EXPECT_EQ(fmt("%g %g %g", {R(HUGE_VAL), R(-HUGE_VAL), R(std::nan(""))}),
            "Infinity -Infinity NaN");
  EXPECT_EQ(fmt("%g %g", {R(0.1 + 0.2), R(1.0 / 3)}), ".30000000000000004 .3333333333333333");
  EXPECT_EQ(fmt("%G %G", {R(1e10), R(1.5e-7)}), "1E+10 1.5E-07");
  // No width or precision: the sign flags do not apply.
  EXPECT_EQ(fmt("%+g|% g|%#g", {R(1.5), R(1.5), R(1.5)}), "1.5|1.5|1.5");
}

TEST(FormatVerbs, RealsWithPrecision) {
  EXPECT_EQ(fmt("[%10g] [%-10g] [%5g]", {R(0.0625), R(0.0625), R(1.5)}),
            "[    0.0625] [0.0625    ] [  1.5]");
  EXPECT_EQ(fmt("%.3g %.3g %.2g %.1g", {R(1234.5), R(123.0), R(123.0), R(0.05)}),
            "1.23e+03 123 1.2e+02 0.05");
  EXPECT_EQ(fmt("%.0g %#.3g %+5g", {R(1234.5), R(1.0), R(1.5)}), "1234.5 1.00  +1.5");
  EXPECT_EQ(fmt("%10G", {R(1e-10)}), "     1E-10");
  EXPECT_EQ(fmt("%e %E %.0e %#.0e", {R(0.0), R(-1536.0), R(12345.0), R(12345.0)}),
            "0.000000e+00 -1.536000E+03 1e+04 1.e+04");
  EXPECT_EQ(fmt("%e %e", {R(1e-300), R(0.5)}), "1.000000e-300 5.000000e-01");
  EXPECT_EQ(fmt("%f %.0f %.0f %.0f %#.0f", {R(0.0), R(0.5), R(1.5), R(2.5), R(2.0)}),
            "0.000000 0 2 2 2.");
  EXPECT_EQ(fmt("%.2f %.2f %.1f", {R(2.125), R(-0.001), R(0.05)}), "2.12 -0.00 0.1");
  EXPECT_EQ(fmt("%f", {R(1e20)}), "100000000000000000000.000000");
  EXPECT_EQ(fmt("%.25f", {R(0.5)}), "0.50000000000000000000");  // precision capped at 20
  EXPECT_EQ(fmt("[%08.3f] [% f] [%+f]", {R(3.14159), R(1.0), R(1.0)}),
            "[   3.142] [ 1.000000] [+1.000000]");
  EXPECT_EQ(fmt("[%8f] [%-9f]", {R(-HUGE_VAL), R(std::nan(""))}), "[-Infinity] [NaN      ]");
}

TEST(FormatVerbs, StarWidthAndPrecision) {
  EXPECT_EQ(fmt("[%*d] [%*d] [%.*f] [%*.*s]",
                {I(5), I(42), I(-5), I(42), I(2), R(3.14159), I(4), I(2), S("abc")}),
            "[   42] [42   ] [3.14] [  ab]");
  // A negative precision becomes the `-` flag followed by the digits.
  EXPECT_EQ(fmt("[%.*s]", {I(-2), S("abc")}), "[ab]");
}

TEST(FormatVerbs, PercentErrorAndLiterals) {
  EXPECT_EQ(fmt("100%% %5%", {}), "100% %");
  EXPECT_EQ(fmt("err: %r.", {}, "file does not exist"), "err: file does not exist.");
  EXPECT_EQ(fmt("é%d€", {I(1)}), "é1€");
  EXPECT_EQ(fmt("bad \xff byte"), "bad \uFFFD byte");
}

TEST(FormatVerbs, UnknownVerbsAndCutSpecs) {
  EXPECT_EQ(fmt("a%z"), "a");  // spec never ends: nothing printed
  EXPECT_EQ(fmt("a%"), "a");
  EXPECT_EQ(fmt("[%zd]", {I(5)}), "[%z%d]");  // lib9's bad-verb mark, the int consumed
  EXPECT_EQ(fmt("[%Cd]", {I(65)}), "[Ad]");   // lib9 reads C as the verb
  EXPECT_EQ(fmt("[%z%]"), "[%]");
}

// Inferno's debugging verb: "ref.type" of a pointer's block whatever the
// flags, "-1.00000000" for nil (libinterp/runt.c xprint).
TEST(FormatVerbs, HeapBlockOfAPointer) {
  EXPECT_EQ(fmt("[%H]", {Val{Val::kHeap, 2, 26, {}}}), "[2.0000001a]");
  EXPECT_EQ(fmt("[%-20H|%d]", {Val{Val::kHeap, -1, 0, {}}, I(4)}), "[-1.00000000|4]");
  VecArgs none({});
  EXPECT_EQ(format("%H", none), "-1.00000000");
}

TEST(FormatVerbs, MissingArgumentsReadAsZero) {
  VecArgs none({});
  EXPECT_EQ(format("%d|%bd|%s|%g|%c|%q|%*d", none), std::string("0|0||0|") + '\0' + "|''|0");
  VecArgs one({I(3)});
  EXPECT_EQ(format("%d %s %x", one), "3  0");
}

TEST(Convert, StringToInt) {
  using dis::vm::string_to_int;
  EXPECT_EQ(string_to_int("2147483648"), 2147483647);
  EXPECT_EQ(string_to_int("-2147483649"), -2147483647 - 1);
  EXPECT_EQ(string_to_int("-99999999999999999999999"), -2147483647 - 1);
  EXPECT_EQ(string_to_int("12abc"), 12);
  EXPECT_EQ(string_to_int("abc"), 0);
  EXPECT_EQ(string_to_int(" \t\n-7x"), -7);
  EXPECT_EQ(string_to_int("- 7"), 0);
  EXPECT_EQ(string_to_int("+"), 0);
}

TEST(Convert, StringToBig) {
  using dis::vm::string_to_big;
  // Out of range wraps, as Inferno's strtoll (difftest r_str2num).
  EXPECT_EQ(string_to_big("9223372036854775808"), std::numeric_limits<std::int64_t>::min());
  EXPECT_EQ(string_to_big("-9223372036854775809"), std::numeric_limits<std::int64_t>::max());
  EXPECT_EQ(string_to_big("18446744073709551617"), 1);
  EXPECT_EQ(string_to_big("  -42z"), -42);
  EXPECT_EQ(string_to_big(""), 0);
}

TEST(Convert, StringToReal) {
  using dis::vm::string_to_real;
  EXPECT_EQ(string_to_real("  -2.5e1x"), -25.0);
  EXPECT_EQ(string_to_real("1e"), 1.0);
  EXPECT_EQ(string_to_real("1e+"), 1.0);
  EXPECT_EQ(string_to_real("."), 0.0);
  EXPECT_EQ(string_to_real("5."), 5.0);
  EXPECT_EQ(string_to_real("0x10"), 0.0);
  EXPECT_EQ(string_to_real("1e400"), HUGE_VAL);
  EXPECT_EQ(string_to_real("1e-400"), 0.0);
  // Inferno's strtod reads no words: 0 with the sign (difftest r_str2num).
  EXPECT_EQ(string_to_real("-inf"), 0.0);
  EXPECT_TRUE(std::signbit(string_to_real("-inf")));
  EXPECT_TRUE(std::signbit(string_to_real(" - 3")));
  EXPECT_EQ(string_to_real("Infinity"), 0.0);
  EXPECT_FALSE(std::signbit(string_to_real("Infinity")));
  EXPECT_EQ(string_to_real("nan"), 0.0);
  EXPECT_EQ(string_to_real("0.1"), 0.1);
}

TEST(Convert, NumbersToStrings) {
  using namespace dis::vm;
  EXPECT_EQ(real_to_string(0.1), ".1");
  EXPECT_EQ(real_to_string(-1e-7), "-1e-07");
  EXPECT_EQ(real_to_string(123456.0), "123456");
  EXPECT_EQ(real_to_string(1e21), "1e+21");
  EXPECT_EQ(real_to_string(0.0), "0");
  EXPECT_EQ(int_to_string(-2147483647 - 1), "-2147483648");
  EXPECT_EQ(big_to_string(std::numeric_limits<std::int64_t>::min()), "-9223372036854775808");
  // Round trip: every real's string reads back as the same real.
  for (double d : {0.1, 1.0 / 3, 2.5e-300, 1.7976931348623157e308, 4.9e-324, 123.456})
    EXPECT_EQ(string_to_real(real_to_string(d)), d) << real_to_string(d);
}
