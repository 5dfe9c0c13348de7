// Signatures of the shipped module declarations against the builtin tables
// of DIS-FACTS.md section 11 (what Inferno's compiler computes for sys.m,
// bench.m and math.m), and canonical strings of a few tricky types.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>

#include "compiler.h"
#include "signature.h"

namespace fs = std::filesystem;

namespace {

std::map<std::string, std::uint32_t> sigs(const std::string& file, const std::string& module) {
  std::map<std::string, std::uint32_t> out;
  std::string path = (fs::path(DIS_SOURCE_DIR) / "module" / file).string();
  for (auto& [name, canon] : dis::limbo::declared_signatures(path, module, {}))
    out[name] = dis::type_sig(canon);
  return out;
}

void expect_group(const std::map<std::string, std::uint32_t>& got,
                  std::initializer_list<const char*> names, std::uint32_t sig) {
  for (const char* n : names) {
    auto it = got.find(n);
    ASSERT_NE(it, got.end()) << n;
    EXPECT_EQ(it->second, sig) << n;
  }
}

TEST(LimboSignatures, SysMatchesBuiltinTable) {
  auto s = sigs("sys.m", "Sys");
  expect_group(s, {"announce"}, 0xb7c4ac0);
  expect_group(s, {"aprint"}, 0x77442d46);
  expect_group(s, {"bind"}, 0x66326d91);
  expect_group(s, {"byte2char"}, 0x3d6094f9);
  expect_group(s, {"char2byte"}, 0x2ba5ab41);
  expect_group(s, {"chdir", "remove", "werrstr"}, 0xc6935858);
  expect_group(s, {"create"}, 0x54db77d9);
  expect_group(s, {"dial"}, 0x29e90174);
  expect_group(s, {"dirread"}, 0x72210d71);
  expect_group(s, {"dup"}, 0x6584767b);
  expect_group(s, {"export"}, 0x6fc6dc03);
  expect_group(s, {"fauth"}, 0x20ccc34b);
  expect_group(s, {"fd2path"}, 0x749c6042);
  expect_group(s, {"fildes"}, 0x1478f993);
  expect_group(s, {"file2chan"}, 0x9f34d686);
  expect_group(s, {"fprint"}, 0xf46486c8);
  expect_group(s, {"fstat"}, 0xda4499c2);
  expect_group(s, {"fversion"}, 0xfe9c0a06);
  expect_group(s, {"fwstat"}, 0x50a6c7e0);
  expect_group(s, {"iounit"}, 0x5583b730);
  expect_group(s, {"listen"}, 0xb97416e0);
  expect_group(s, {"millisec"}, 0x616977e8);
  expect_group(s, {"mount"}, 0x74c17b3a);
  expect_group(s, {"open"}, 0x8f477f99);
  expect_group(s, {"pctl"}, 0x5df27fb);
  expect_group(s, {"pipe"}, 0x1f2c52ea);
  expect_group(s, {"pread", "pwrite"}, 0x9d8aac6);
  expect_group(s, {"print"}, 0xac849033);
  expect_group(s, {"read", "readn", "write"}, 0x7cfef557);
  expect_group(s, {"seek"}, 0xaeccaddb);
  expect_group(s, {"sleep"}, 0xe67bf126);
  expect_group(s, {"sprint"}, 0x4c0624b6);
  expect_group(s, {"stat"}, 0x319328dd);
  expect_group(s, {"stream"}, 0xb9e8f9ea);
  expect_group(s, {"tokenize"}, 0x57338f20);
  expect_group(s, {"unmount"}, 0x21e337e3);
  expect_group(s, {"utfbytes"}, 0x1d4a1f4);
  expect_group(s, {"wstat"}, 0x56b02096);
}

TEST(LimboSignatures, BenchMatchesBuiltinTable) {
  auto s = sigs("bench.m", "Bench");
  expect_group(s, {"disablegc", "enablegc", "reset"}, 0x9cd71c5e);
  expect_group(s, {"microsec", "nsec"}, 0x8bc818ff);
  expect_group(s, {"read"}, 0x7cfef557);
}

TEST(LimboSignatures, MathMatchesBuiltinTable) {
  auto s = sigs("math.m", "Math");
  expect_group(s,
               {"acos",  "acosh", "asin", "asinh", "atan", "atanh", "cbrt", "ceil", "cos", "cosh",
                "erf",   "erfc",  "exp",  "expm1", "fabs", "floor", "j0",   "j1",   "log", "log10",
                "log1p", "rint",  "sin",  "sinh",  "sqrt", "tan",   "tanh", "y0",   "y1"},
               0xa1d1fe48);
  expect_group(s,
               {"atan2", "copysign", "fdim", "fmax", "fmin", "fmod", "hypot", "nextafter", "pow",
                "remainder"},
               0xf293f6cf);
  expect_group(s, {"FPcontrol", "FPstatus"}, 0x6584767b);
  expect_group(s, {"getFPcontrol", "getFPstatus"}, 0x616977e8);
  expect_group(s, {"bits32real", "pow10"}, 0x40a58596);
  expect_group(s, {"bits64real"}, 0x5463c72c);
  expect_group(s, {"finite", "ilogb", "isnan", "realbits32"}, 0x7b2e5f52);
  expect_group(s, {"realbits64"}, 0x9589d476);
  expect_group(s, {"jn", "yn"}, 0xb61ffc5b);
  expect_group(s, {"scalbn"}, 0x64fa84ba);
  expect_group(s, {"lgamma", "modf"}, 0x6e97c646);
  expect_group(s, {"dot"}, 0xfeca4db6);
  expect_group(s, {"iamax"}, 0xa5fc2e4d);
  expect_group(s, {"norm1", "norm2"}, 0x1629207e);
  expect_group(s, {"sort"}, 0xfc7c7b8);
  expect_group(s, {"import_int", "export_int"}, 0x3f1d94ee);
  expect_group(s, {"import_real", "import_real32", "export_real", "export_real32"}, 0xd1fb0c8c);
  expect_group(s, {"gemm"}, 0x53b8cd34);
}

// Canonical strings written out in DIS-FACTS: back-references for equal
// adts, self arguments, varargs, cyclic fields, pick variants.
TEST(LimboSignatures, CanonicalStrings) {
  fs::path dir = fs::temp_directory_path() / ("limbo-sig-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::string m =
      R"(Stob: module { init: fn(s: string): string; stob: fn(a, b: string): (string, array of byte); };
T: module {
	SK: adt { sa: ref SA; owner: string; };
	PK: adt { sa: ref SA; owner: string; };
	SA: adt { name: string; };
	Sexp: adt {
		pick {
		String => s: string; hint: string;
		Binary => data: array of byte; hint: string;
		List => l: cyclic list of ref Sexp;
		}
		text: fn(e: self ref Sexp): string;
	};
	Frac: adt { num, den: int; add: fn(a: self Frac, b: Frac): Frac; };
	sktopk: fn(sk: ref SK): ref PK;
	risky: fn(n: int): int raises (Oops, Worse);
	safe: fn(n: int): int;
	print: fn(s: string, *): int;
	getstob: fn(cs: string): (Stob, string);
	gettwo: fn(): Two;
	scaled: fn(v: fixed(0.2, 12345.0), w: fixed(0.2)): fixed(2.0**-16);
};
Two: module {
	new: fn(): int;
	Zed: adt { x: int; new: fn(): ref Zed; };
	Abc: adt { y: string; new: fn(): ref Abc; };
};
)";
  { std::ofstream(dir / "t.m") << m; }
  std::map<std::string, std::string> got;
  for (auto& [n, c] : dis::limbo::declared_signatures((dir / "t.m").string(), "T", {})) got[n] = c;
  EXPECT_EQ(got["sktopk"], "f(Ra(sa:Ra(name:s),owner:s))R@1");
  EXPECT_EQ(dis::type_sig(got["sktopk"]), 0x6f74c7c9u);
  EXPECT_EQ(got["print"], "f*(s)i");
  // DIS-FACTS section 11: a raises clause's names come before the result.
  EXPECT_EQ(got["risky"], "f(i)(Oops,Worse)i");
  EXPECT_EQ(got["safe"], "f(i)i");
  EXPECT_EQ(got["Frac.add"], "f(Sa(num:i,den:i),@1)@1");
  EXPECT_EQ(dis::type_sig(got["Frac.add"]), 0x7a006bb9u);
  EXPECT_EQ(got["Sexp.text"],
            "f(SRa(,String=>p(s:s,hint:s)@1,Binary=>p(data:Ab,hint:s)@1,List=>p(l:yLR@1)@1))s");
  EXPECT_EQ(dis::type_sig(got["Sexp.text"]), 0x8dcb0657u);
  EXPECT_EQ(got["getstob"], "f(s)t(m{init:f(s)s;stob:f(s,s)t(s,Ab);},s)");
  EXPECT_EQ(dis::type_sig(got["getstob"]), 0xe3c19c0u);
  // Functions sharing a name in the order they or their adts are declared,
  // as Inferno's stable namesort leaves them (palm.m's PDB.read and
  // PRC.read, sh.m's run and Context.run: desklink's connect is 0x235c0ccd
  // and sh's getself 0x3b72c707 in Inferno's modules and ours).
  // A fixed-point type is `x` and the unit its int counts, as C's %g prints
  // it: fixed(0.2, 12345.0) keeps 15 spare bits (unit 0.2/2^15), fixed(0.2)
  // none.
  EXPECT_EQ(got["scaled"], "f(x6.10352e-06,x0.2)x1.52588e-05");
  EXPECT_EQ(got["gettwo"], "f()m{new:f()i;new:f()Ra(x:i);new:f()Ra(y:s);}");
  fs::remove_all(dir);
}

}  // namespace
