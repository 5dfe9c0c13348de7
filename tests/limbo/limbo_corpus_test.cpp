// The Limbo compiler against the corpus (testdata/limbo): every program
// parses, compiles, links with the signatures Inferno's compiler wrote, and
// runs with the VM printing exactly expected.out with expected.status.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "assembler.h"
#include "compiler.h"
#include "dis_file.h"
#include "disassembler.h"
#include "parser.h"
#include "shared_corpus.h"
#include "vm.h"

namespace fs = std::filesystem;
using dis::limbo::CompileOptions;

namespace {

const fs::path kCorpus = fs::path(DIS_SHARED_DIR) / "testdata" / "limbo";

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<std::string> programs() {
  std::vector<std::string> out;
  for (auto& d : distest::entries_of(kCorpus))
    if (d.is_directory()) out.push_back(d.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

// expected.out without the two lines Inferno's emulator and shell add after
// an uncaught error (README of the corpus).
std::string expected_stdout(const std::string& name) {
  std::istringstream in(slurp(kCorpus / name / "expected.out"));
  std::string line, out;
  static const std::regex added(R"re(^\[.*\] Broken: ".*"$|^sh: [0-9]+ ".*":.*$)re");
  while (std::getline(in, line))
    if (!std::regex_match(line, added)) out += line + "\n";
  return out;
}

dis::Module compile(const fs::path& src) {
  CompileOptions opts;
  opts.include_dirs.push_back(src.parent_path().string());
  return dis::limbo::compile_file(src.string(), opts);
}

TEST(LimboCorpus, ModuleDeclarationsParse) {
  int n = 0;
  for (auto& f : fs::directory_iterator(fs::path(DIS_SOURCE_DIR) / "module")) {
    if (f.path().extension() != ".m") continue;
    EXPECT_NO_THROW(dis::limbo::parse_program(f.path().string(), slurp(f.path()), {})) << f.path();
    ++n;
  }
  EXPECT_GE(n, 4);
}

class Corpus : public ::testing::TestWithParam<std::string> {};

TEST_P(Corpus, CompilesAndRunsAsExpected) {
  const std::string name = GetParam();
  fs::path dir = kCorpus / name;
  fs::path work =
      fs::temp_directory_path() / ("limbo-corpus-" + name + "-" + std::to_string(::getpid()));
  fs::create_directories(work);
  dis::Module main;
  for (auto& f : fs::directory_iterator(dir)) {
    if (f.path().extension() != ".b") continue;
    dis::Module m;
    ASSERT_NO_THROW(m = compile(f.path())) << f.path();
    fs::path out = work / (f.path().stem().string() + ".dis");
    dis::write_dis_file(m, out.string());
    if (f.path().stem() == name) main = m;
  }
  std::ostringstream out, err;
  dis::vm::Options vo;
  vo.out = &out;
  vo.err = &err;
  dis::vm::VM vm(vo);
  std::string path = (work / (name + ".dis")).string();
  auto r = vm.run_module(main, path, {path});
  EXPECT_EQ(out.str(), expected_stdout(name)) << err.str();
  int status = std::stoi(slurp(dir / "expected.status"));
  EXPECT_EQ(r.status, status) << r.message;
  fs::remove_all(work);
}

// Every `link` and `ext` line of Inferno's listing names a function and the
// signature its compiler computed; ours must agree.
TEST_P(Corpus, SignaturesMatchInfernoListing) {
  const std::string name = GetParam();
  for (auto& f : fs::directory_iterator(kCorpus / name)) {
    if (f.path().extension() != ".b") continue;
    dis::Module m = compile(f.path());
    std::set<std::pair<std::string, std::uint32_t>> want_links, want_ext, got_links, got_ext;
    std::istringstream in(slurp(fs::path(f.path()).replace_extension(".s")));
    std::string line;
    static const std::regex link(R"re(^\s*link\s+-?\d+,-?\d+,0x([0-9a-f]+),"(.*)"$)re");
    static const std::regex ext(R"re(^\s*ext\s+@ldt\+\d+,0x([0-9a-f]+),"(.*)"$)re");
    std::smatch mm;
    while (std::getline(in, line)) {
      if (std::regex_match(line, mm, link))
        want_links.insert({mm[2], std::stoul(mm[1], nullptr, 16)});
      if (std::regex_match(line, mm, ext)) want_ext.insert({mm[2], std::stoul(mm[1], nullptr, 16)});
    }
    for (auto& l : m.links) got_links.insert({l.name, l.sig});
    for (auto& t : m.imports)
      for (auto& i : t) got_ext.insert({i.name, i.sig});
    EXPECT_FALSE(want_links.empty());
    EXPECT_EQ(got_links, want_links) << f.path();
    EXPECT_EQ(got_ext, want_ext) << f.path();
  }
}

TEST_P(Corpus, CompilingTwiceGivesIdenticalBytes) {
  fs::path src = kCorpus / GetParam() / (GetParam() + ".b");
  EXPECT_EQ(dis::write_dis(compile(src)), dis::write_dis(compile(src)));
}

// `limbo -S` output is assembly our assembler reads back to the same file.
TEST_P(Corpus, AssemblyListingRoundTrips) {
  fs::path src = kCorpus / GetParam() / (GetParam() + ".b");
  dis::Module m = compile(src);
  std::string text = dis::assembly::disassemble(m);
  dis::Module back = dis::assembly::assemble(text, GetParam() + ".s");
  EXPECT_EQ(dis::write_dis(back), dis::write_dis(m));
}

// Every instruction carries a source position inside the main file.
TEST_P(Corpus, EveryInstructionHasALine) {
  fs::path src = kCorpus / GetParam() / (GetParam() + ".b");
  dis::Module m = compile(src);
  ASSERT_EQ(m.positions.size(), m.code.size());
  for (std::size_t pc = 0; pc < m.code.size(); ++pc)
    EXPECT_GT(m.positions[pc].line, 0) << "pc " << pc;
}

INSTANTIATE_TEST_SUITE_P(All, Corpus, ::testing::ValuesIn(programs()),
                         [](const ::testing::TestParamInfo<std::string>& p) { return p.param; });
// Empty in a clone without ../shared: nothing to instantiate then.
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(Corpus);

}  // namespace
