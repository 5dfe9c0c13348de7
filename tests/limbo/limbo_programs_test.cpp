// Annotated Limbo programs (tests/limbo/programs/*.b): a `# expect: TEXT`
// comment gives the next line of expected output; `# error: N` says the
// compiler must refuse the program with an error on line N (all such lines,
// and no others), `# error: N: MESSAGE` with that message among them. Also the samples (samples/*.b
// with NAME.out, or NAME.outre holding one regular expression per output line), the -S listing of a
// small function, and the limbo tool's command line.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "compiler.h"
#include "dis_file.h"
#include "disassembler.h"
#include "vm.h"

namespace fs = std::filesystem;

namespace {

const fs::path kPrograms = fs::path(DIS_SOURCE_DIR) / "tests" / "limbo" / "programs";
const fs::path kSamples = fs::path(DIS_SOURCE_DIR) / "samples";

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<std::string> files(const fs::path& dir, const std::string& ext) {
  std::vector<std::string> out;
  for (auto& f : fs::directory_iterator(dir))
    if (f.path().extension() == ext) out.push_back(f.path().stem().string());
  std::sort(out.begin(), out.end());
  return out;
}

struct RunOutput {
  std::string out;
  int status;
};

RunOutput run(const dis::Module& m, const std::string& path) {
  std::ostringstream out, err;
  dis::vm::Options vo;
  vo.out = &out;
  vo.err = &err;
  dis::vm::VM vm(vo);
  auto r = vm.run_module(m, path, {path});
  return {out.str(), r.status};
}

class Programs : public ::testing::TestWithParam<std::string> {};

TEST_P(Programs, BehaveAsAnnotated) {
  fs::path src = kPrograms / (GetParam() + ".b");
  std::istringstream in(slurp(src));
  std::string line, expect;
  std::set<int> error_lines;
  std::set<std::pair<int, std::string>> error_messages;
  static const std::regex exp_re(R"re(# expect: (.*)$)re");
  static const std::regex err_re(R"re(# error: ([0-9]+)(: (.*))?$)re");
  std::smatch mm;
  while (std::getline(in, line)) {
    if (std::regex_search(line, mm, exp_re)) expect += mm[1].str() + "\n";
    if (std::regex_search(line, mm, err_re)) {
      error_lines.insert(std::stoi(mm[1]));
      if (mm[3].matched) error_messages.insert({std::stoi(mm[1]), mm[3].str()});
    }
  }
  if (!error_lines.empty()) {
    try {
      dis::limbo::compile_file(src.string(), {});
      FAIL() << "compiled a program that must be refused";
    } catch (const dis::InputError& e) {
      std::set<int> got;
      std::set<std::pair<int, std::string>> said;
      for (auto& d : e.diagnostics()) {
        EXPECT_EQ(d.file, src.string());
        EXPECT_GT(d.col, 0);
        got.insert(d.line);
        said.insert({d.line, d.message});
      }
      EXPECT_EQ(got, error_lines) << e.what();
      for (auto& m : error_messages)
        EXPECT_TRUE(said.count(m)) << "line " << m.first << ": " << m.second << "\n" << e.what();
    }
    return;
  }
  dis::Module m = dis::limbo::compile_file(src.string(), {});
  auto r = run(m, src.string());
  EXPECT_EQ(r.out, expect);
  EXPECT_EQ(r.status, 0);
}

INSTANTIATE_TEST_SUITE_P(All, Programs, ::testing::ValuesIn(files(kPrograms, ".b")),
                         [](const ::testing::TestParamInfo<std::string>& p) { return p.param; });

std::vector<std::string> samples_with_output() {
  std::vector<std::string> out;
  for (auto& n : files(kSamples, ".b"))
    if (fs::exists(kSamples / (n + ".out")) || fs::exists(kSamples / (n + ".outre")))
      out.push_back(n);
  return out;
}

class Samples : public ::testing::TestWithParam<std::string> {};

// Every sample is compiled into one directory (a sample may load another
// one at run time), then the sample runs there.
TEST_P(Samples, RunWithExpectedOutput) {
  fs::path work = fs::temp_directory_path() /
                  ("limbo-samples-" + GetParam() + "-" + std::to_string(::getpid()));
  fs::create_directories(work);
  dis::Module main;
  for (auto& n : files(kSamples, ".b")) {
    dis::Module m;
    ASSERT_NO_THROW(m = dis::limbo::compile_file((kSamples / (n + ".b")).string(), {})) << n;
    dis::write_dis_file(m, (work / (n + ".dis")).string());
    if (n == GetParam()) main = m;
  }
  std::string path = (work / (GetParam() + ".dis")).string();
  auto r = run(main, path);
  EXPECT_EQ(r.status, 0);
  if (fs::exists(kSamples / (GetParam() + ".out"))) {
    EXPECT_EQ(r.out, slurp(kSamples / (GetParam() + ".out")));
  } else {
    std::istringstream pats(slurp(kSamples / (GetParam() + ".outre"))), got(r.out);
    std::string pat, line;
    int n = 0;
    while (std::getline(pats, pat)) {
      ASSERT_TRUE(static_cast<bool>(std::getline(got, line))) << "missing line " << n + 1;
      EXPECT_TRUE(std::regex_match(line, std::regex(pat)))
          << line.substr(0, 200) << "\n !~ " << pat;
      ++n;
    }
    EXPECT_FALSE(static_cast<bool>(std::getline(got, line))) << "extra output: " << line;
  }
  fs::remove_all(work);
}

TEST_P(Samples, CompileTwiceIdentical) {
  fs::path src = kSamples / (GetParam() + ".b");
  EXPECT_EQ(dis::write_dis(dis::limbo::compile_file(src.string(), {})),
            dis::write_dis(dis::limbo::compile_file(src.string(), {})));
}

INSTANTIATE_TEST_SUITE_P(All, Samples, ::testing::ValuesIn(samples_with_output()),
                         [](const ::testing::TestParamInfo<std::string>& p) { return p.param; });

// The instructions of a module's listing, one per line (no directives).
std::string code_listing(const dis::Module& m) {
  std::string code;
  std::istringstream in(dis::assembly::disassemble(m));
  std::string line;
  while (std::getline(in, line))
    if (!line.empty() && line[0] == '\t' && line.find("desc") == std::string::npos &&
        line.find("link") == std::string::npos && line.find("entry") == std::string::npos &&
        line.find("var") == std::string::npos && line.find("module") == std::string::npos &&
        line.find("source") == std::string::npos && line.find("stackext") == std::string::npos &&
        line.find("flags") == std::string::npos)
      code += line + "\n";
  return code;
}

// The code shapes the paper's cost listings show: a call of a function
// whose body is one return is inlined (Inferno's compiler does); a counted loop
// tests at the top, the bound against the index as Inferno's compiler
// orders a comparison; `return big string buf[0:n]` is slicea, cvtac, cvtcl.
TEST(LimboShapes, GoldenListing) {
  const std::string src = R"(implement Shapes;
Shapes: module {
	f: fn(buf: array of byte, n: int): big;
	g: fn(): int;
};
f(buf: array of byte, n: int): big
{
	return big string buf[0:n];
}
g(): int
{
	s := 0;
	for(i := 0; i < 10; i++)
		s += i;
	t0 := f(nil, s);
	return s + int t0;
}
)";
  dis::Module m = dis::limbo::compile_source("shapes.b", src, {});
  const std::string code = code_listing(m);
  EXPECT_EQ(code,
            "\tmovp\t32(fp),40(fp)\n"
            "\tslicea\t$0,36(fp),40(fp)\n"
            // A conversion's result takes its operand's temporary, and a
            // pointer temporary is reset to nil when done, as Inferno's.
            "\tcvtac\t40(fp),40(fp)\n"
            "\tcvtcl\t40(fp),0(16(fp))\n"
            "\tmovp\t$-1,40(fp)\n"
            "\tret\t\n"
            "\tmovw\t$0,32(fp)\n"
            "\tmovw\t$0,36(fp)\n"
            "\tblew\t$10,36(fp),$12\n"
            "\taddw\t36(fp),32(fp)\n"
            "\taddw\t$1,36(fp)\n"
            "\tjmp\t$8\n"
            // f's body is one return: the call is inlined as Inferno's
            // compiler inlines it, its parameters naming the arguments.
            "\tmovp\t0(mp),48(fp)\n"
            "\tslicea\t$0,32(fp),48(fp)\n"
            "\tcvtac\t48(fp),48(fp)\n"
            "\tcvtcl\t48(fp),40(fp)\n"
            "\tmovp\t$-1,48(fp)\n"
            "\tcvtlw\t40(fp),52(fp)\n"
            "\taddw\t52(fp),32(fp),0(16(fp))\n"
            "\tret\t\n"
            "\tword\t@mp+0,-1\n");
}

// `ref Adt(...)`: nil values are stored too (`new` set the pointers to H
// already, but Inferno's compiler writes them and bintrees runs no slower);
// a pointer compared with nil needs no temporary.
TEST(LimboShapes, NilNeedsNoTemporary) {
  const std::string src = R"(implement Mk;
Mk: module {
	T: adt { l, r: cyclic ref T; n: int; };
	mk: fn(): ref T;
	leaf: fn(t: ref T, s: string): int;
};
mk(): ref T
{
	return ref T(nil, nil, 5);
}
leaf(t: ref T, s: string): int
{
	if(nil == t.l && s != nil)
		return 1;
	return 0;
}
)";
  EXPECT_EQ(code_listing(dis::limbo::compile_source("mk.b", src, {})),
            "\tnew\t$3,32(fp)\n"
            "\tmovp\t$-1,0(32(fp))\n"
            "\tmovp\t$-1,4(32(fp))\n"
            "\tmovw\t$5,8(32(fp))\n"
            "\tmovp\t32(fp),0(16(fp))\n"
            "\tmovp\t$-1,32(fp)\n"
            "\tret\t\n"
            // A pointer against nil: H as the immediate; a string keeps beqc
            // against the module data word holding nil, as Inferno's does.
            "\tbnew\t0(32(fp)),$-1,$11\n"
            "\tbeqc\t0(mp),36(fp),$11\n"
            "\tmovw\t$1,0(16(fp))\n"
            "\tret\t\n"
            "\tmovw\t$0,0(16(fp))\n"
            "\tret\t\n"
            "\tword\t@mp+0,-1\n");
}

// A commutative operation takes a field (doubly indirect: never a middle
// operand) as its source; a subtraction still copies it to a temporary.
TEST(LimboShapes, CommutedFieldNeedsNoTemporary) {
  const std::string src = R"(implement Cm;
Cm: module {
	T: adt { n: int; };
	bump: fn(a: ref T, v: int): int;
};
bump(a: ref T, v: int): int
{
	a.n = a.n * v;
	return a.n - v;
}
)";
  EXPECT_EQ(code_listing(dis::limbo::compile_source("cm.b", src, {})),
            "\tmulw\t0(32(fp)),36(fp),0(32(fp))\n"
            "\tmovw\t0(32(fp)),40(fp)\n"
            "\tsubw\t36(fp),40(fp),0(16(fp))\n"
            "\tret\t\n");
}

// A function nothing calls or names is left out, as Inferno's compiler leaves
// it (its errors still reported); one only named as a value, or called only
// from an array's initial values, stays.
TEST(LimboShapes, UncalledFunctionsLeftOut) {
  const std::string src = R"(implement U;
U: module {
	run: fn(): int;
};
unused(a: int): int
{
	a++;
	return a;
}
valued(a: int): int
{
	a++;
	return a;
}
listed(a: int): int
{
	a--;
	return a;
}
run(): int
{
	f := valued;
	a := array[] of {listed(2)};
	return f(a[0]);
}
)";
  dis::Module m = dis::limbo::compile_source("u.b", src, {});
  std::vector<std::string> names;
  for (auto& f : m.functions) names.push_back(f.name);
  EXPECT_EQ(names, (std::vector<std::string>{"valued", "listed", "run"}));
  const std::string bad = R"(implement U;
U: module {
	run: fn(): int;
};
unused(a: int): int
{
	a = "x";
	return a;
}
run(): int
{
	return 0;
}
)";
  EXPECT_THROW(dis::limbo::compile_source("u.b", bad, {}), dis::InputError);
}

// Inferno's compiler tests an inlined call's returned condition where the
// call is (no 0/1 value made and then tested), writes no ret after a raise
// nothing jumps past, and jumps through a table (goto) for a dense case: x
// minus the low label, checked against the span; the table's holes and its
// last word go to the default.
TEST(LimboShapes, InlinedTestRaiseAndJumpTable) {
  const std::string src = R"(implement Sh;
Sh: module {
	digit: fn(c: int): int;
	kind: fn(c: int): int;
};
isdigit(c: int): int
{
	return c >= '0' && c <= '9';
}
digit(c: int): int
{
	if(isdigit(c))
		return c - '0';
	raise "not a digit";
}
kind(c: int): int
{
	case c {
	'a' => return 1;
	'c' or 'd' => return 2;
	}
	return 0;
}
)";
  EXPECT_EQ(code_listing(dis::limbo::compile_source("sh.b", src, {})),
            "\tbgtw\t$48,32(fp),$4\n"
            "\tbltw\t$57,32(fp),$4\n"
            "\tsubw\t$48,32(fp),0(16(fp))\n"
            "\tret\t\n"
            "\traise\t0(mp)\n"
            "\tsubw\t$97,32(fp),36(fp)\n"
            "\tbltw\t36(fp),$0,$13\n"
            "\tbgtw\t36(fp),$3,$13\n"
            "\tgoto\t36(fp),8(mp)\n"
            "\tmovw\t$1,0(16(fp))\n"
            "\tret\t\n"
            "\tmovw\t$2,0(16(fp))\n"
            "\tret\t\n"
            "\tmovw\t$0,0(16(fp))\n"
            "\tret\t\n"
            "\tstring\t@mp+0,\"not a digit\"\n"
            "\tword\t@mp+4,5,9,13,11,11,13\n");
}

// The tool: exit status 2 and file:line:col messages for bad programs, and no
// output file; a good program gives a .dis that reads back to the module.
TEST(LimboTool, RefusesBadProgramWithoutOutput) {
  fs::path work = fs::temp_directory_path() / ("limbo-tool-" + std::to_string(::getpid()));
  fs::create_directories(work);
  std::string bin = std::string(DIS_BIN_DIR) + "/limbo";
  if (!fs::exists(bin)) GTEST_SKIP() << "limbo tool not built";
  std::string cmd = "cd " + work.string() + " && " + bin + " " +
                    (kPrograms / "semantic_errors.b").string() + " 2> err.txt";
  int rc = std::system(cmd.c_str());
  EXPECT_EQ(WEXITSTATUS(rc), 2);
  EXPECT_FALSE(fs::exists(work / "semantic_errors.dis"));
  EXPECT_NE(slurp(work / "err.txt")
                .find("semantic_errors.b:20:6: type mismatch in assignment: int and string"),
            std::string::npos);
  cmd = "cd " + work.string() + " && " + bin + " -g " + (kSamples / "fib.b").string();
  EXPECT_EQ(std::system(cmd.c_str()), 0);
  dis::Module back = dis::read_dis_file((work / "fib.dis").string());
  dis::Module direct = dis::limbo::compile_file((kSamples / "fib.b").string(), {});
  EXPECT_EQ(back.code, direct.code);
  EXPECT_EQ(back.links, direct.links);
  EXPECT_TRUE(fs::exists(work / "fib.sbl"));
  fs::remove_all(work);
}

}  // namespace

namespace {

// Instructions carry the range of the expression they compute: the inner
// call written on its own line is charged to that line.
TEST(LimboPositions, InstructionsCarryTheirExpressionsLines) {
  const std::string src =
      "implement P;\n"                           // 1
      "P: module { f: fn(a, b: int): int; };\n"  // 2
      "f(a, b: int): int\n"                      // 3
      "{\n"                                      // 4
      "\treturn f(a,\n"                          // 5
      "\t\tf(b, 1));\n"                          // 6
      "}\n";
  dis::Module m = dis::limbo::compile_source("p.b", src, {});
  ASSERT_EQ(m.positions.size(), m.code.size());
  std::vector<int> call_lines;
  for (std::size_t pc = 0; pc < m.code.size(); ++pc)
    if (m.code[pc].op == dis::Op::call_) call_lines.push_back(m.positions[pc].line);
  EXPECT_EQ(call_lines, (std::vector<int>{6, 5}));
  EXPECT_EQ(m.source_files, std::vector<std::string>{"p.b"});
  const dis::SrcPos& inner = m.positions[0];
  EXPECT_EQ(inner.line, 6);
  EXPECT_EQ(inner.col, 2);
}

}  // namespace
