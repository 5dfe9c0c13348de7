#include "disassembler.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <bit>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>

#include "assembler.h"
#include "diag.h"
#include "dis_file.h"
#include "sbl.h"
#include "shared_corpus.h"

namespace fs = std::filesystem;
using dis::assembly::DisasmOptions;
using dis::assembly::disassemble;

namespace {

const fs::path kCorpus = fs::path(DIS_SHARED_DIR) / "testdata/limbo";

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<std::uint8_t> bytes_of(const fs::path& p) {
  const std::string s = slurp(p);
  return {s.begin(), s.end()};
}

std::vector<fs::path> corpus_dis() {
  std::vector<fs::path> out;
  for (const auto& e : distest::entries_of(kCorpus, true))
    if (e.path().extension() == ".dis") out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

// Our own header directives (disassembler.h); limbo -S has no such lines.
std::string without_our_directives(const std::string& text) {
  std::istringstream in(text);
  std::string out;
  for (std::string l; std::getline(in, l);) {
    if (l.rfind("\tstackext\t", 0) == 0 || l.rfind("\tflags\t", 0) == 0 ||
        l.rfind("\tsignature\t", 0) == 0)
      continue;
    out += l + '\n';
  }
  return out;
}

std::string real_text(std::uint64_t bits) {
  return dis::assembly::format_real(std::bit_cast<double>(bits));
}

struct RunResult {
  int status;
  std::string out, err;
};

RunResult run_disdump(const std::string& args) {
  const fs::path bin = fs::path(DIS_BIN_DIR) / "disdump";
  EXPECT_TRUE(fs::exists(bin)) << "build the disdump target first: " << bin;
  const fs::path tmp = fs::temp_directory_path() / ("disdump_test_" + std::to_string(::getpid()));
  fs::create_directories(tmp);
  const std::string cmd =
      bin.string() + " " + args + " >" + (tmp / "out").string() + " 2>" + (tmp / "err").string();
  const int rc = std::system(cmd.c_str());
  RunResult r{WIFEXITED(rc) ? WEXITSTATUS(rc) : -1, slurp(tmp / "out"), slurp(tmp / "err")};
  fs::remove_all(tmp);
  return r;
}

}  // namespace

// disassemble(read_dis(x.dis)) is limbo's x.s once our three directive lines
// are removed. Allowed differences beyond those: none (the known departures
// listed in disassembler.h do not occur in the corpus).
TEST(Disassembler, CorpusMatchesLimboListing) {
  DIS_NEEDS_SHARED();
  const auto files = corpus_dis();
  ASSERT_GE(files.size(), 19u);
  for (const auto& f : files) {
    SCOPED_TRACE(f.string());
    const dis::Module m = dis::read_dis_file(f.string());
    const std::string text = disassemble(m);
    EXPECT_EQ(without_our_directives(text), slurp(fs::path(f).replace_extension(".s")));
    // The directives come first and carry the header's values.
    const std::string head = "\tstackext\t" + std::to_string(m.stack_extent) + "\n\tflags\t0x" +
                             (std::ostringstream() << std::hex << m.flags).str() + "\n#0\n";
    EXPECT_EQ(text.substr(0, head.size()), head);
  }
}

TEST(Disassembler, AssemblingTheListingGivesTheSameFile) {
  DIS_NEEDS_SHARED();
  for (const auto& f : corpus_dis()) {
    SCOPED_TRACE(f.string());
    const auto bytes = bytes_of(f);
    const dis::Module m = dis::read_dis(bytes, f.string());
    const dis::Module back = dis::assembly::assemble(disassemble(m), "listing.s");
    EXPECT_EQ(dis::write_dis(back), bytes);
    // Comments (pc numbers, source lines) change nothing.
    dis::Module with_pos = m;
    dis::apply_sbl(with_pos, dis::read_sbl_file(fs::path(f).replace_extension(".sbl").string()));
    DisasmOptions opt;
    opt.pc_numbers = true;
    opt.source_lines = true;
    EXPECT_EQ(dis::write_dis(dis::assembly::assemble(disassemble(with_pos, opt), "l.s")), bytes);
  }
}

TEST(Disassembler, PcNumbersOption) {
  DIS_NEEDS_SHARED();
  const dis::Module m = dis::read_dis_file((kCorpus / "err_raise/err_raise.dis").string());
  DisasmOptions opt;
  opt.pc_numbers = true;
  const std::string text = disassemble(m, opt);
  std::istringstream in(text);
  std::vector<std::string> lines;
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  ASSERT_GT(lines.size(), 30u);
  EXPECT_EQ(lines[2], "\tbgew\t$2,32(fp),$2\t# 0");
  EXPECT_EQ(lines[9], "\tret\t\t# 7");
  EXPECT_EQ(lines[12], "\tframe\t$2,52(fp)\t# 10");  // no #10 marker line before it
  EXPECT_EQ(lines[29], "\tret\t\t# 27");
  EXPECT_EQ(lines[30], "\tentry\t8, 4");
}

TEST(Disassembler, HandBuiltModule) {
  dis::Module m;
  m.magic = dis::kSMagic;
  m.signature = {0xde, 0xad, 0x01};
  m.stack_extent = 40;
  m.flags = 0;
  using dis::AddrMode;
  using dis::MidMode;
  using dis::Op;
  m.code = {
      {Op::nop_, {}, {}, {}},
      {Op::addw_, {MidMode::Fp, 8}, {AddrMode::Imm, 1}, {AddrMode::Fp, 4}},
      {Op::movw_, {}, {AddrMode::IndMp, 8, 12}, {AddrMode::IndFp, 16, 4}},
      {Op::indw_, {MidMode::Mp, 4}, {AddrMode::Fp, 32}, {AddrMode::Fp, 36}},
      {Op::case_, {}, {AddrMode::Fp, 32}, {AddrMode::Mp, 28}},
      {Op::goto_, {}, {AddrMode::Fp, 32}, {AddrMode::Mp, 52}},
      {Op::case_, {}, {AddrMode::Fp, 32}, {AddrMode::Mp, 64}},
      {Op::ret_, {}, {}, {}},
  };
  m.types = {{0, 80, {0x80}}};
  m.data_size = 80;
  using K = dis::DataKind;
  m.data = {
      {K::Bytes, 0, {1, 2, 255}, ""},
      {K::Words, 4, {7, -1}, ""},
      {K::Reals, 12, {0x3fe0000000000000}, ""},
      {K::String, 20, {}, std::string("a\"b\\c\n\0d\t", 9)},
      // word, case table (n=1: 5 words), goto table (n=2: 3 words), word,
      // then a case table whose count is a lie (one word per line).
      {K::Words, 24, {42, 1, 0, 5, 3, 4, 2, 10, 11, 99, 1000, 8}, ""},
      {K::Array, 72, {0, 3}, ""},
      {K::SetIndex, 72, {1}, ""},
      {K::Words, 0, {5, 6}, ""},
      {K::PopBase, 0, {}, ""},
  };
  m.name = "T";
  m.links = {{"init", 0, 0, 0x1234}, {".mp", -1, -1, 0xabc}};
  const std::string expected =
      "\tstackext\t40\n"
      "\tflags\t0x0\n"
      "\tsignature\t\"dead01\"\n"
      "#0\n"
      "\tnop\n"
      "\taddw\t$1,8(fp),4(fp)\n"
      "\tmovw\t12(8(mp)),4(16(fp))\n"
      "\tindw\t32(fp),4(mp),36(fp)\n"
      "\tcase\t32(fp),28(mp)\n"
      "\tgoto\t32(fp),52(mp)\n"
      "\tcase\t32(fp),64(mp)\n"
      "\tret\t\n"
      "\tdesc\t$0,80,\"80\"\n"
      "\tvar\t@mp,80\n"
      "\tbyte\t@mp+0,1\n"
      "\tbyte\t@mp+1,2\n"
      "\tbyte\t@mp+2,255\n"
      "\tword\t@mp+4,7\n"
      "\tword\t@mp+8,-1\n"
      "\treal\t@mp+12,.5 # 3fe0000000000000\n"
      "\tstring\t@mp+20,\"a\\\"b\\\\c\\n\\zd\t\"\n"
      "\tword\t@mp+24,42\n"
      "\tword\t@mp+28,1,0,5,3,4\n"
      "\tword\t@mp+48,2,10,11\n"
      "\tword\t@mp+60,99\n"
      "\tword\t@mp+64,1000\n"
      "\tword\t@mp+68,8\n"
      "\tarray\t@mp+72,$0,3\n"
      "\tindir\t@mp+72,1\n"
      "\tword\t@mp+0,5\n"
      "\tword\t@mp+4,6\n"
      "\tapop\n"
      "\tmodule\tT\n"
      "\tlink\t0,0,0x1234,\"init\"\n"
      "\tlink\t-1,-1,0xabc,\".mp\"\n";
  EXPECT_EQ(disassemble(m), expected);
  // The assembler reads it back to the same file (nop, signature, indir...).
  EXPECT_EQ(dis::write_dis(dis::assembly::assemble(expected, "t.s")), dis::write_dis(m));

  // Imports, handlers and the source path, in limbo's order after the links.
  m.magic = dis::kXMagic;
  m.flags = dis::kHasLdt | dis::kHasExcept;
  m.imports = {{{"print", 0xac849033, {}}, {"Frac.add", 0x7a006bb9, {}}}, {{"x", 0x1, {}}}};
  m.handlers = {{36, 1, 5, -1, 0, {{"fail:*", 3}, {"e", 4}}, -1}, {40, 2, 4, 1, 0, {}, 6}};
  m.source_path = "t.b";
  m.types.push_back({1, 48, {}});  // the second handler's frame type
  const std::string text = disassemble(m);
  const std::string tail =
      "\tldts\t@ldt,2\n"
      "\tword\t@ldt+0,2\n"
      "\text\t@ldt+4,0xac849033,\"print\"\n"
      "\text\t@ldt+16,0x7a006bb9,\"Frac.add\"\n"
      "\tword\t@ldt+1,1\n"
      "\text\t@ldt+8,0x1,\"x\"\n"
      "\texceptions\t2\n"
      "\texception\t1, 5, 36, -1, 2, 0\n"
      "\texctab\t\"fail:*\", 3\n"
      "\texctab\t\"e\", 4\n"
      "\texctab\t*, -1\n"
      "\texception\t2, 4, 40, 1, 0, 0\n"
      "\texctab\t*, 6\n"
      "\tsource\t\"t.b\"\n";
  ASSERT_GE(text.size(), tail.size());
  EXPECT_EQ(text.substr(text.size() - tail.size()), tail);
  EXPECT_EQ(dis::write_dis(dis::assembly::assemble(text, "t.s")), dis::write_dis(m));
  const std::string head = "\tstackext\t40\n\tflags\t0x60\n#0\n";
  EXPECT_EQ(text.substr(0, head.size()), head);
}

TEST(Disassembler, RealsAsLimboPrintsThem) {
  // Values and texts from the corpus listings.
  EXPECT_EQ(real_text(0x0000000000000000), "0");
  EXPECT_EQ(real_text(0x8000000000000000), "-0");
  EXPECT_EQ(real_text(0x3f20000000000000), ".0001220703125");
  EXPECT_EQ(real_text(0x3fe0000000000000), ".5");
  EXPECT_EQ(real_text(0xbfe0000000000000), "-.5");
  EXPECT_EQ(real_text(0x4002000000000000), "2.25");
  EXPECT_EQ(real_text(0x40f86a0000000000), "100000");
  EXPECT_EQ(real_text(0x412e848000000000), "1e+06");
  EXPECT_EQ(real_text(0x4132d68700000000), "1234567");
  EXPECT_EQ(real_text(0x416312d000000000), "1e+07");
  EXPECT_EQ(real_text(0x41678c29c0000000), "12345678");
  EXPECT_EQ(real_text(0x4202a05f20000000), "1e+10");
  EXPECT_EQ(real_text(0x4340000000000000), "9007199254740992");
  EXPECT_EQ(real_text(0xbec4000000000000), "-2.384185791015625e-06");
  EXPECT_EQ(real_text(0x3fdf5c2900000000), ".49000000953674316");
  EXPECT_EQ(real_text(0x408ffc0000000000), "1023.5");
  EXPECT_EQ(real_text(0xc0f0000000000000), "-65536");
  // Beyond the corpus: %g's exponent rules, and NaN/Inf as bit patterns.
  EXPECT_EQ(dis::assembly::format_real(1e-5), "1e-05");
  EXPECT_EQ(dis::assembly::format_real(1.5e300), "1.5e+300");
  EXPECT_EQ(dis::assembly::format_real(0.001), ".001");
  EXPECT_EQ(real_text(0x7ff8000000000001), "0x7ff8000000000001");
  EXPECT_EQ(dis::assembly::format_real(-std::numeric_limits<double>::infinity()),
            "0xfff0000000000000");
}

TEST(Disassembler, SourceOptionGolden) {
  DIS_NEEDS_SHARED();
  const RunResult r = run_disdump("--source " + (kCorpus / "err_raise/err_raise.dis").string());
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(r.out, slurp(fs::path(DIS_SOURCE_DIR) / "tests/asm/golden/err_raise.source.s"));
}

TEST(Disassembler, ToolPlainOutputAndPcFlag) {
  DIS_NEEDS_SHARED();
  const fs::path f = kCorpus / "control/control.dis";
  RunResult r = run_disdump(f.string());
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out, disassemble(dis::read_dis_file(f.string())));
  r = run_disdump("--pc " + f.string());
  DisasmOptions opt;
  opt.pc_numbers = true;
  EXPECT_EQ(r.out, disassemble(dis::read_dis_file(f.string()), opt));
}

TEST(Disassembler, ToolErrors) {
  DIS_NEEDS_SHARED();
  const fs::path tmp = fs::temp_directory_path() / ("disdump_err_" + std::to_string(::getpid()));
  fs::create_directories(tmp);
  const auto bytes = bytes_of(kCorpus / "err_raise/err_raise.dis");
  {
    std::ofstream out(tmp / "cut.dis", std::ios::binary);
    out.write(reinterpret_cast<const char*>(bytes.data()), 100);
  }
  RunResult r = run_disdump((tmp / "cut.dis").string());
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, (tmp / "cut.dis").string() +
                       ": offset 100: truncated instruction 19 destination operand\n");
  r = run_disdump((tmp / "missing.dis").string());
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("missing.dis"), std::string::npos);
  r = run_disdump("--no-such-flag x.dis");
  EXPECT_EQ(r.status, 2);
  r = run_disdump("--help");
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.out.find("--source"), std::string::npos);
  r = run_disdump("--version");
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out.rfind("disdump ", 0), 0u);
  // --source without a .sbl beside the module: a warning, and the plain listing.
  fs::copy_file(kCorpus / "err_raise/err_raise.dis", tmp / "lone.dis");
  r = run_disdump("--source " + (tmp / "lone.dis").string());
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.err.find("warning"), std::string::npos);
  EXPECT_EQ(r.out, disassemble(dis::read_dis_file((tmp / "lone.dis").string())));
  fs::remove_all(tmp);
}
