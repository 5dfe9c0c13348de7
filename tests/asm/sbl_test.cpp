#include "sbl.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "diag.h"
#include "dis_file.h"
#include "shared_corpus.h"

namespace fs = std::filesystem;

namespace {

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<fs::path> corpus_files(const std::string& ext) {
  std::vector<fs::path> out;
  for (const auto& e : distest::entries_of(distest::shared_limbo_dir(), true))
    if (e.path().extension() == ext) out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

std::string error_of(std::string_view text) {
  try {
    dis::read_sbl(text, "t.sbl");
  } catch (const dis::InputError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST(Sbl, CorpusRoundTripsByteForByte) {
  DIS_NEEDS_SHARED();
  const auto files = corpus_files(".sbl");
  ASSERT_GE(files.size(), 19u);
  for (const auto& f : files) {
    SCOPED_TRACE(f.string());
    const std::string text = slurp(f);
    const dis::Sbl s = dis::read_sbl(text, f.string());
    EXPECT_FALSE(s.pcs.empty());
    EXPECT_FALSE(s.fns.empty());
    EXPECT_EQ(dis::write_sbl(s), text);
  }
}

TEST(Sbl, CorpusPcTableMatchesDisCodeSize) {
  DIS_NEEDS_SHARED();
  for (const auto& f : corpus_files(".sbl")) {
    SCOPED_TRACE(f.string());
    dis::Module m = dis::read_dis_file(fs::path(f).replace_extension(".dis").string());
    const dis::Sbl s = dis::read_sbl_file(f.string());
    dis::apply_sbl(m, s);
    EXPECT_EQ(m.positions.size(), m.code.size());
    EXPECT_EQ(m.source_files, s.files);
    // sbl_from_module keeps the pc table exactly (same-file stops, as in the corpus).
    dis::Sbl back = dis::sbl_from_module(m);
    EXPECT_EQ(back.pcs, s.pcs);
  }
}

TEST(Sbl, KnownPcsPointAtTheirSource) {
  DIS_NEEDS_SHARED();
  const fs::path dir = fs::path(DIS_SHARED_DIR) / "testdata/limbo/err_raise";
  dis::Module m = dis::read_dis_file((dir / "err_raise.dis").string());
  const dis::Sbl s = dis::read_sbl_file((dir / "err_raise.sbl").string());
  dis::apply_sbl(m, s);
  std::vector<std::string> lines;
  {
    std::istringstream in(slurp(dir / "err_raise.b"));
    for (std::string l; std::getline(in, l);) lines.push_back(l);
  }
  auto text_at = [&](int pc) {
    const dis::SrcPos& p = m.positions.at(pc);
    EXPECT_EQ(p.line, p.end_line);
    return lines.at(p.line - 1).substr(p.col, p.end_col - p.col);
  };
  ASSERT_EQ(m.source_files.at(0), "err_raise.b");
  EXPECT_EQ(m.positions[0].line, 13);
  EXPECT_EQ(text_at(0), "n > 2");  // bgew: if(n > 2)
  EXPECT_EQ(m.positions[1].line, 14);
  EXPECT_EQ(text_at(1), "raise \"fail:custom\"");
  EXPECT_EQ(m.code[8].op, dis::Op::load_);
  EXPECT_EQ(m.positions[8].line, 20);
  EXPECT_EQ(text_at(8), "sys = load Sys Sys->PATH");
  EXPECT_EQ(m.positions[20].line, 28);  // call check
  EXPECT_EQ(text_at(20), "check(i)");
  EXPECT_EQ(dis::function_at(s, 0), "check");
  EXPECT_EQ(dis::function_at(s, 7), "check");
  EXPECT_EQ(dis::function_at(s, 8), "init");
  EXPECT_EQ(dis::function_at(s, 27), "init");
}

TEST(Sbl, RunningPositionDecoding) {
  const std::string text =
      "limbo .sbl 2.1\nM\n2\na.b\nb.m\n5\n"
      "12.4,17 3\n"   // file 0 line 12, 4..17
      "21,30 3\n"     // same file and line: 21..30
      "1:13.2,9 4\n"  // file 1 line 13
      "5,14.1 4\n"    // stays in file 1, line 13 col 5 to line 14 col 1
      "0:2,3.0 5\n"   // file 0 but still line 14 (the running line), stop line 3
      "0\n1\n7:f\n1\n32:x:3,4 i\n0\nn0\n";
  const dis::Sbl s = dis::read_sbl(text, "t.sbl");
  ASSERT_EQ(s.pcs.size(), 5u);
  using P = dis::SblPos;
  EXPECT_EQ(s.pcs[0].src.start, (P{0, 12, 4}));
  EXPECT_EQ(s.pcs[0].src.stop, (P{0, 12, 17}));
  EXPECT_EQ(s.pcs[0].block, 3);
  EXPECT_EQ(s.pcs[1].src.start, (P{0, 12, 21}));
  EXPECT_EQ(s.pcs[1].src.stop, (P{0, 12, 30}));
  EXPECT_EQ(s.pcs[2].src.start, (P{1, 13, 2}));
  EXPECT_EQ(s.pcs[2].src.stop, (P{1, 13, 9}));
  EXPECT_EQ(s.pcs[3].src.start, (P{1, 13, 5}));
  EXPECT_EQ(s.pcs[3].src.stop, (P{1, 14, 1}));
  EXPECT_EQ(s.pcs[4].src.start, (P{0, 14, 2}));
  EXPECT_EQ(s.pcs[4].src.stop, (P{0, 3, 0}));
  // The fn table continues from the pc table's running position (file 0, line 3).
  ASSERT_EQ(s.fns.size(), 1u);
  EXPECT_EQ(s.fns[0].name, "f");
  ASSERT_EQ(s.fns[0].args.size(), 1u);
  EXPECT_EQ(s.fns[0].args[0].src.start, (P{0, 3, 3}));
  EXPECT_EQ(s.fns[0].args[0].type.kind, 'i');
  EXPECT_EQ(dis::write_sbl(s), text);

  // A redundant `file:` or `line.` decodes the same; the writer drops it.
  std::string verbose = text;
  verbose.replace(verbose.find("0:2,3.0"), 7, "0:14.2,0:3.0");
  const dis::Sbl v = dis::read_sbl(verbose, "v.sbl");
  EXPECT_EQ(v.pcs, s.pcs);
  EXPECT_EQ(dis::write_sbl(v), text);

  dis::Module m;
  m.code.resize(5);
  dis::apply_sbl(m, s);
  EXPECT_EQ(m.positions[3], (dis::SrcPos{1, 13, 5, 14, 1, 4}));
}

TEST(Sbl, WriterCompressesPositions) {
  dis::Sbl s;
  s.module = "M";
  s.files = {"m.b"};
  s.pcs = {{{{0, 7, 1}, {0, 7, 9}}, 0}, {{{0, 7, 10}, {0, 8, 2}}, 1}, {{{0, 8, 2}, {0, 8, 5}}, 1}};
  EXPECT_EQ(dis::write_sbl(s), "limbo .sbl 2.1\nM\n1\nm.b\n3\n7.1,9 0\n10,8.2 1\n2,5 1\n0\n0\n0\n");
}

TEST(Sbl, OldVersionsKeepTheirTail) {
  const std::string text = "limbo .sbl 1.1\nM\n1\nm.b\n1\n3.1,4 0\nwhatever the old tables\nsay\n";
  const dis::Sbl s = dis::read_sbl(text, "old.sbl");
  EXPECT_EQ(s.version, "1.1");
  EXPECT_EQ(s.pcs.size(), 1u);
  EXPECT_EQ(dis::write_sbl(s), text);
}

TEST(Sbl, MalformedInputNamesLineAndColumn) {
  EXPECT_EQ(error_of("limbo .sbl 9.9\nM\n"), "t.sbl:1:12: unsupported .sbl version '9.9'");
  EXPECT_EQ(error_of("hello\n"), "t.sbl:1:1: not a .sbl file (bad magic line)");
  EXPECT_EQ(error_of("limbo .sbl 2.1\nM\n1\na.b\n2\n1.0,1 0\n1.x,2 0\n"),
            "t.sbl:7:3: expected a number (position), found 'x'");
  EXPECT_EQ(error_of("limbo .sbl 2.1\nM\n1\na.b\n1\n1.0,1 0\n1\nQ"),
            "t.sbl:8:1: unknown type letter 'Q'");
  EXPECT_EQ(error_of("limbo .sbl 2.1\nM\n999999\n"),
            "t.sbl:3:1: file count 999999 exceeds the file's size");
  EXPECT_EQ(error_of("limbo .sbl 2.1\nM\n1\na.b\n1\n1.0,1 0\n0\n0\n0\nextra"),
            "t.sbl:10:1: unexpected text after the global table");
  EXPECT_EQ(error_of("limbo .sbl 2.1\nM\n0\n1\n1.0,1"),
            "t.sbl:5:6: expected ' ', found end of file");
  // Deeply nested types are refused, not recursed into without bound.
  std::string deep = "limbo .sbl 2.1\nM\n0\n0\n1\n" + std::string(100000, 'A') + "i";
  EXPECT_NE(error_of(deep).find("types nested too deeply"), std::string::npos);
}

TEST(Sbl, ApplyRefusesPcCountMismatch) {
  dis::Sbl s = dis::read_sbl("limbo .sbl 2.1\nM\n1\nm.b\n1\n3.1,4 0\n0\n0\n0\n", "x.sbl");
  dis::Module m;
  m.code.resize(2);
  try {
    dis::apply_sbl(m, s);
    FAIL() << "no error";
  } catch (const dis::InputError& e) {
    EXPECT_STREQ(e.what(), "x.sbl: pc table has 1 entries but the module has 2 instructions");
  }
}
