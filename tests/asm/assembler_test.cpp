// Tests of the assembler (asm/assembler.h): the corpus listings written by
// Inferno's `limbo -S` against the .dis files the same compiler wrote, every
// opcode with every address mode, each class of error with its exact message
// and position, round trips through the .dis writer/reader and the
// disassembler, and the `asm` tool itself.
#include "assembler.h"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>

#include "dis_file.h"
#include "disassembler.h"
#include "opcodes.h"
#include "shared_corpus.h"

namespace fs = std::filesystem;
using namespace dis;
using dis::assembly::assemble;

namespace {

const fs::path kCorpus = fs::path(DIS_SHARED_DIR) / "testdata" / "limbo";

std::vector<fs::path> corpus_files(const std::string& ext) {
  std::vector<fs::path> out;
  for (const auto& dir : distest::entries_of(kCorpus))
    if (dir.is_directory())
      for (const auto& f : fs::directory_iterator(dir.path()))
        if (f.path().extension() == ext) out.push_back(f.path());
  std::sort(out.begin(), out.end());
  return out;
}

std::string slurp_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<std::uint8_t> slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The full error text of assembling `text` as t.s, or "" if it assembled.
std::string errors_of(const std::string& text) {
  try {
    assemble(text, "t.s");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

// The one instruction of a program made of `line` (plus enough code for
// branch targets to exist).
Instruction one(const std::string& line) {
  const Module m = assemble(line + "\n", "t.s");
  EXPECT_EQ(m.code.size(), 1u);
  return m.code.at(0);
}

// ---------------------------------------------------------------- corpus

TEST(Assembler, CorpusIsPresent) {
  DIS_NEEDS_SHARED();
  EXPECT_GE(corpus_files(".s").size(), 19u);
}

TEST(Assembler, EveryCorpusListingAssemblesToItsDisFile) {
  DIS_NEEDS_SHARED();
  for (const fs::path& s : corpus_files(".s")) {
    SCOPED_TRACE(s.string());
    fs::path dis_path = s;
    dis_path.replace_extension(".dis");
    const std::vector<std::uint8_t> bytes = slurp(dis_path);
    const Module want = read_dis(bytes, dis_path.string());
    Module got;
    ASSERT_NO_THROW(got = assemble(slurp_text(s), s.string()));
    EXPECT_EQ(got.magic, want.magic);
    EXPECT_EQ(got.flags, want.flags);
    EXPECT_EQ(got.stack_extent, want.stack_extent);  // computed: no stackext in limbo -S
    EXPECT_EQ(got.data_size, want.data_size);
    EXPECT_EQ(got.entry_pc, want.entry_pc);
    EXPECT_EQ(got.entry_type, want.entry_type);
    EXPECT_EQ(got.code, want.code);
    EXPECT_EQ(got.types, want.types);
    EXPECT_EQ(got.name, want.name);
    EXPECT_EQ(got.links, want.links);
    EXPECT_EQ(got.imports, want.imports);
    EXPECT_EQ(got.handlers, want.handlers);
    EXPECT_EQ(got.source_path, want.source_path);
    EXPECT_EQ(flatten_data(got), flatten_data(want));
    // And, since the writer merges data as Limbo does, the very same bytes.
    EXPECT_EQ(write_dis(got), bytes);
  }
}

TEST(Assembler, PositionsRecordTheListingLineOfEachInstruction) {
  DIS_NEEDS_SHARED();
  const fs::path s = kCorpus / "exceptions" / "exceptions.s";
  const std::string text = slurp_text(s);
  const Module m = assemble(text, s.string());
  ASSERT_EQ(m.positions.size(), m.code.size());
  ASSERT_EQ(m.source_files, std::vector<std::string>{s.string()});
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  for (std::size_t pc = 0; pc < m.code.size(); ++pc) {
    const SrcPos& p = m.positions[pc];
    ASSERT_GE(p.line, 1);
    const std::string& l = lines.at(static_cast<std::size_t>(p.line - 1));
    EXPECT_EQ(p.file, 0);
    EXPECT_EQ(p.end_line, p.line);
    EXPECT_EQ(l.substr(static_cast<std::size_t>(p.col), op_name(m.code[pc].op).size()),
              op_name(m.code[pc].op));
    EXPECT_EQ(static_cast<std::size_t>(p.end_col), l.find_last_not_of(" \t") + 1);
  }
  // Line 2 is "\tbltw\t32(fp),$0,$15": pc 0.
  EXPECT_EQ(m.positions[0], (SrcPos{0, 2, 1, 2, 19, 0}));
  // "#10" is line 12, so pc 10 is on line 13.
  EXPECT_EQ(m.positions[10].line, 13);
}

// Inferno's limbo writes `send $-1, c` and `lea $42, d`: immediates are
// addressed in place, so a memory-address source may be an immediate.
TEST(Assembler, ImmediateSourcesAsLimboWritesThem) {
  EXPECT_EQ(one("send $-1, 32(fp)"),
            (Instruction{Op::send_, {}, {AddrMode::Imm, -1, 0}, {AddrMode::Fp, 32, 0}}));
  EXPECT_EQ(one("lea $42, 188(fp)"),
            (Instruction{Op::lea_, {}, {AddrMode::Imm, 42, 0}, {AddrMode::Fp, 188, 0}}));
}

// ---------------------------------------------------------------- every opcode

struct ModeCase {
  std::string text;
  Operand operand;
};

const std::vector<ModeCase>& mode_cases() {
  static const std::vector<ModeCase> cases = {
      {"$0", {AddrMode::Imm, 0, 0}},           {"12(fp)", {AddrMode::Fp, 12, 0}},
      {"0x10(mp)", {AddrMode::Mp, 16, 0}},     {"8(40(fp))", {AddrMode::IndFp, 40, 8}},
      {"4(20(mp))", {AddrMode::IndMp, 20, 4}},
  };
  return cases;
}

// Which modes each slot accepts, stated independently of the assembler:
// sources anything; middles $imm, n(fp), n(mp) (no $imm where the middle
// receives an element address: the P,P,W index ops); destinations a memory
// address, except branch targets ($N only) and the index ops' d (the index).
bool index_op(Op op) {
  const OpInfo& i = op_info(op);
  return i.src == OperandKind::P && i.mid == OperandKind::P && i.dst == OperandKind::W;
}
bool dst_accepts(Op op, AddrMode m) {
  if (is_branch(op)) return m == AddrMode::Imm;
  if (index_op(op)) return true;
  return m != AddrMode::Imm;
}
bool mid_accepts(Op op, AddrMode m) {
  if (m == AddrMode::IndFp || m == AddrMode::IndMp) return false;
  return !(m == AddrMode::Imm && index_op(op));
}
Middle as_middle(const Operand& o) {
  switch (o.mode) {
    case AddrMode::Imm:
      return {MidMode::Imm, o.a};
    case AddrMode::Fp:
      return {MidMode::Fp, o.a};
    case AddrMode::Mp:
      return {MidMode::Mp, o.a};
    default:
      return {};
  }
}

TEST(Assembler, EveryOpcodeWithEveryAddressMode) {
  int accepted = 0, refused = 0;
  const ModeCase plain{"12(fp)", {AddrMode::Fp, 12, 0}};
  for (const OpInfo& info : kOpTable) {
    const Op op = info.op;
    const std::string name(info.name);
    const ModeCase dst_plain = is_branch(op) ? ModeCase{"$0", {AddrMode::Imm, 0, 0}} : plain;
    // Vary one slot at a time; the others get an always-valid operand.
    for (int slot = 0; slot < 3; ++slot) {
      if (slot == 0 && !has_src(op)) continue;
      if (slot == 1 && !mid_allowed(op)) continue;
      if (slot == 2 && !has_dst(op)) continue;
      for (const ModeCase& mc : mode_cases()) {
        std::vector<std::string> parts;
        Instruction want{op, {}, {}, {}};
        bool ok = true;
        if (has_src(op)) {
          const ModeCase& s = slot == 0 ? mc : plain;
          parts.push_back(s.text);
          want.src = s.operand;
        }
        if (mid_allowed(op)) {
          const ModeCase& m = slot == 1 ? mc : plain;
          parts.push_back(m.text);
          want.mid = as_middle(m.operand);
          if (slot == 1) ok = mid_accepts(op, mc.operand.mode);
        }
        if (has_dst(op)) {
          const ModeCase& d = slot == 2 ? mc : dst_plain;
          parts.push_back(d.text);
          want.dst = d.operand;
          if (slot == 2) ok = dst_accepts(op, mc.operand.mode);
        }
        std::string line = name;
        for (std::size_t i = 0; i < parts.size(); ++i) line += (i ? ", " : "\t") + parts[i];
        SCOPED_TRACE(line);
        const std::string err = errors_of(line + "\n");
        if (ok) {
          ASSERT_EQ(err, "");
          EXPECT_EQ(one(line), want);
          ++accepted;
        } else {
          EXPECT_NE(err, "");
          EXPECT_EQ(err.rfind("t.s:1:", 0), 0u) << err;
          ++refused;
        }
      }
    }
    // Instructions with no operand slots take none.
    if (!has_src(op) && !mid_allowed(op) && !has_dst(op)) {
      EXPECT_EQ(one(name), (Instruction{op, {}, {}, {}}));
      ++accepted;
    }
  }
  EXPECT_GT(accepted, 1000);
  EXPECT_GT(refused, 100);
}

TEST(Assembler, MiddleMayBeOmittedExactlyWhereOptional) {
  for (const OpInfo& info : kOpTable) {
    const Op op = info.op;
    if (!mid_allowed(op)) continue;
    std::string line(info.name);
    std::vector<std::string> parts;
    if (has_src(op)) parts.push_back("4(fp)");
    if (has_dst(op)) parts.push_back(is_branch(op) ? "$0" : "8(fp)");
    for (std::size_t i = 0; i < parts.size(); ++i) line += (i ? ", " : " ") + parts[i];
    SCOPED_TRACE(line);
    const std::string err = errors_of(line + "\n");
    if (mid_optional(op)) {
      ASSERT_EQ(err, "");
      EXPECT_EQ(one(line).mid, Middle{});
    } else {
      const std::size_t n = parts.size() + 1;
      EXPECT_NE(err.find(fmt::format("'{}' takes {} operands, got {}", info.name, n, n - 1)),
                std::string::npos)
          << err;
    }
  }
}

TEST(Assembler, OperandSpellings) {
  EXPECT_EQ(
      one("addw $-5, 0x20(fp), 36(mp)"),
      (Instruction{Op::addw_, {MidMode::Fp, 32}, {AddrMode::Imm, -5, 0}, {AddrMode::Mp, 36, 0}}));
  EXPECT_EQ(one("addw\t$1,40(fp)"),
            (Instruction{Op::addw_, {}, {AddrMode::Imm, 1, 0}, {AddrMode::Fp, 40, 0}}));
  EXPECT_EQ(one("  movw  0( 44 (fp) ) , 0(16(fp))   # comment"),
            (Instruction{Op::movw_, {}, {AddrMode::IndFp, 44, 0}, {AddrMode::IndFp, 16, 0}}));
  EXPECT_EQ(one("mframe 180(mp), $-32768, 40(fp)").mid, (Middle{MidMode::Imm, -32768}));
  EXPECT_EQ(one("mframe 180(mp), 65535(mp), 40(fp)").mid, (Middle{MidMode::Mp, 65535}));
  EXPECT_EQ(one("movw $536870911, 65535(65535(mp))").src, (Operand{AddrMode::Imm, 536870911, 0}));
  EXPECT_EQ(one("movw $-536870912, 4(fp)").src, (Operand{AddrMode::Imm, -536870912, 0}));
  EXPECT_EQ(one("raise 92(mp)"), (Instruction{Op::raise_, {}, {AddrMode::Mp, 92, 0}, {}}));
  EXPECT_EQ(one("newcw 40(fp)"), (Instruction{Op::newcw_, {}, {}, {AddrMode::Fp, 40, 0}}));
  EXPECT_EQ(one("newcw $4, 40(fp)"),
            (Instruction{Op::newcw_, {MidMode::Imm, 4}, {}, {AddrMode::Fp, 40, 0}}));
  EXPECT_EQ(one("jmp $0"), (Instruction{Op::jmp_, {}, {}, {AddrMode::Imm, 0, 0}}));
}

// ---------------------------------------------------------------- directives

TEST(Assembler, HeaderDefaultsAndExtensions) {
  const std::string base =
      "\tret\n\tentry\t0, 1\n\tdesc\t$0,8,\"\"\n\tdesc\t$1,40,\"\"\n\tdesc\t$2,56,\"80\"\n"
      "\tvar\t@mp,8\n\tmodule\tM\n";
  Module m = assemble(base, "t.s");
  EXPECT_EQ(m.stack_extent, 560);  // 10 x the largest non-MP descriptor
  EXPECT_EQ(m.flags, 0u);
  EXPECT_EQ(m.magic, kXMagic);
  EXPECT_EQ(m.data_size, 8);
  EXPECT_EQ(m.name, "M");
  EXPECT_EQ(m.entry_pc, 0);
  EXPECT_EQ(m.entry_type, 1);
  EXPECT_EQ(m.types.at(2), (TypeDesc{2, 56, {0x80}}));

  m = assemble(base + "\tstackext\t4096\n\tflags\t0x3\n\tsignature\t\"00ff10\"\n", "t.s");
  EXPECT_EQ(m.stack_extent, 4096);
  EXPECT_EQ(m.flags, 3u);
  EXPECT_EQ(m.magic, kSMagic);
  EXPECT_EQ(m.signature, (std::vector<std::uint8_t>{0x00, 0xff, 0x10}));

  m = assemble(base + "\tldts\t@ldt,1\n\tword\t@ldt+0,1\n\text\t@ldt+4,0xac849033,\"print\"\n",
               "t.s");
  EXPECT_EQ(m.flags, static_cast<std::uint32_t>(kHasLdt));
  EXPECT_EQ(m.imports, (std::vector<ImportTable>{{{"print", 0xac849033u, {}}}}));

  m = assemble(base +
                   "\texceptions\t1\n\texception\t0, 1, 36, -1, 1, 0\n"
                   "\texctab\t\"fail:*\", 0\n\texctab\t*, -1\n",
               "t.s");
  EXPECT_EQ(m.flags, static_cast<std::uint32_t>(kHasExcept));
  ASSERT_EQ(m.handlers.size(), 1u);
  EXPECT_EQ(m.handlers[0], (Handler{36, 0, 1, -1, 0, {{"fail:*", 0}}, -1}));

  // Without var, module data is described by descriptor 0.
  m = assemble("\tdesc\t$0,24,\"\"\n", "t.s");
  EXPECT_EQ(m.data_size, 24);
  EXPECT_EQ(m.stack_extent, 0);
}

TEST(Assembler, ImportTablesAndHandlersAsLimboWritesThem) {
  // modload.s: two tables; the offsets after @ldt are Limbo's and are ignored.
  const Module m = assemble(
      "\tldts\t@ldt,2\n\tword\t@ldt+0,2\n\text\t@ldt+4,0x7a006bb9,\"Frac.add\"\n"
      "\text\t@ldt+20,0xe67bf126,\"checked\"\n\tword\t@ldt+1,1\n"
      "\text\t@ldt+8,0xac849033,\"print\"\n",
      "t.s");
  EXPECT_EQ(m.imports,
            (std::vector<ImportTable>{{{"Frac.add", 0x7a006bb9u, {}}, {"checked", 0xe67bf126u, {}}},
                                      {{"print", 0xac849033u, {}}}}));
}

TEST(Assembler, DataDirectives) {
  const Module m = assemble(
      "\tdesc\t$0,96,\"\"\n\tdesc\t$1,8,\"\"\n\tvar\t@mp,96\n"
      "\tbyte\t@mp+0,1,255,-1\n"
      "\tword\t@mp+4,-2,0xffffffff\n"
      "\tlong\t@mp+16,-123456789012,0xffffffffffffffff\n"
      "\treal\t@mp+32,.5,-0,1e+06,Inf,0x7ff8000000000001 # ignored\n"
      "\tstring\t@mp+12,\"a\\n\\t\\\\\\\"\\z\\0\\x41\xc3\xa9#\"\n"
      "\tarray\t@mp+8,$1,3\n\tindir\t@mp+8,1\n\tword\t@mp+4,7\n\tapop\n"
      "\text\t@mp+40,0x1,\"ab\"\n",
      "t.s");
  auto bits = [](double d) { return static_cast<std::int64_t>(std::bit_cast<std::uint64_t>(d)); };
  const std::vector<DataItem> want = {
      {DataKind::Bytes, 0, {1, 255, 255}, ""},
      {DataKind::Words, 4, {-2, -1}, ""},
      {DataKind::Bigs, 16, {-123456789012, -1}, ""},
      {DataKind::Reals,
       32,
       {bits(0.5), bits(-0.0), bits(1e6), bits(std::numeric_limits<double>::infinity()),
        0x7ff8000000000001},
       ""},
      {DataKind::String, 12, {}, std::string("a\n\t\\\"\0\0A\xc3\xa9#", 11)},
      {DataKind::Array, 8, {1, 3}, ""},
      {DataKind::SetIndex, 8, {1}, ""},
      {DataKind::Words, 4, {7}, ""},
      {DataKind::PopBase, 0, {}, ""},
      {DataKind::Words, 40, {1}, ""},
      {DataKind::Bytes, 44, {'a', 'b', 0}, ""},
  };
  EXPECT_EQ(m.data, want);
}

// ---------------------------------------------------------------- errors

struct ErrorCase {
  std::string text;
  std::string message;  // the whole diagnostic
};

TEST(Assembler, EachErrorClassWithMessageAndPosition) {
  const std::vector<ErrorCase> cases = {
      {"\tadw\t$1,4(fp)\n", "t.s:1:2: unknown opcode 'adw'"},
      {"\tmovw\t$1\n", "t.s:1:9: 'movw' takes 2 operands, got 1"},
      {"\tmovw\t$1,4(fp),8(fp)\n", "t.s:1:16: 'movw' takes 2 operands, got 3"},
      {"\taddw\t4(fp)\n", "t.s:1:12: 'addw' takes 2 or 3 operands, got 1"},
      {"\tret\t4(fp)\n", "t.s:1:6: 'ret' takes no operands, got 1"},
      {"\tmovw\t4(fp),$3\n",
       "t.s:1:13: 'movw' destination must be a memory address, not an immediate"},
      {"\tjmp\t4(fp)\n",
       "t.s:1:6: branch target of 'jmp' must be an immediate instruction number ($N), not 4(fp)"},
      {"\taddw\t$1,4(8(fp)),12(fp)\n",
       "t.s:1:10: middle operand cannot be double indirect: 4(8(fp))"},
      {"\tindw\t4(fp),$1,8(fp)\n",
       "t.s:1:13: 'indw' middle operand receives an address: it cannot be an immediate"},
      {"\tmovw\t$536870912,4(fp)\n",
       "t.s:1:7: immediate 536870912 out of range (30-bit signed: -536870912..536870911)"},
      {"\tmovw\t-536870913(fp),4(fp)\n",
       "t.s:1:7: offset -536870913 out of range (30-bit signed: -536870912..536870911)"},
      {"\taddw\t$1,$32768,4(fp)\n",
       "t.s:1:10: middle immediate 32768 out of range (-32768..32767)"},
      {"\taddw\t$1,65536(fp),4(fp)\n", "t.s:1:10: middle offset 65536 out of range (0..65535)"},
      {"\tmovw\t0(65536(fp)),4(fp)\n",
       "t.s:1:7: double-indirect offset 65536 out of range (0..65535) in 0(65536(fp))"},
      {"\tmovw\t-4(8(mp)),4(fp)\n",
       "t.s:1:7: double-indirect offset -4 out of range (0..65535) in -4(8(mp))"},
      {"\tdesc\t$0,8,\"\"\n\tframe\t$3,4(fp)\n", "t.s:2:8: undefined type descriptor $3"},
      {"\tdesc\t$0,8,\"\"\n\tnewa\t$3,$9,4(fp)\n", "t.s:2:10: undefined type descriptor $9"},
      {"\tjmp\t$1\n", "t.s:1:6: branch target 1 out of range (module has 1 instruction)"},
      {"\tbeqw\t$0,$0,$-1\n", "t.s:1:13: branch target -1 out of range (module has 1 instruction)"},
      {"\tstring\t@mp+0,\"abc\n", "t.s:1:15: unterminated string"},
      {"\tstring\t@mp+0,\"a\\qc\"\n", "t.s:1:17: unknown escape \\q"},
      {"\tbogus\n", "t.s:1:2: unknown opcode 'bogus'"},
      {"\tmovw\t4(sp),8(fp)\n", "t.s:1:9: expected fp or mp, found 'sp'"},
      {"\tmovw\t4(fp),\n",
       "t.s:1:13: expected an operand ($imm, n(fp), n(mp), m(n(fp)) or m(n(mp)))"},
      {"\tdesc\t$0,8,\"abc\"\n", "t.s:1:12: pointer map has an odd number of hex digits"},
      {"\tdesc\t$0,8,\"\"\n\tdesc\t$0,8,\"\"\n", "t.s:2:8: descriptor $0 defined twice"},
      {"\tdesc\t$0,8,\"\"\n\tvar\t@mp,8\n\tword\t@mp+8,1\n",
       "t.s:3:7: data at @mp+8 (4 bytes) lies outside module data (8 bytes)"},
      // Stores before the size is known are checked once desc $0 gives it.
      {"\tword\t@mp+4,1\n\tdesc\t$0,4,\"\"\n",
       "t.s:1:7: data at @mp+4 (4 bytes) lies outside module data (4 bytes)"},
      {"\tstring\t@mp+0,\"x\"\n",
       "t.s:1:9: data at @mp+0 (4 bytes) lies outside module data (0 bytes)"},
      {"\tbyte\t@mp+0,256\n", "t.s:1:13: byte value 256 out of range"},
      {"\tentry\t5, -1\n", "t.s:1:8: entry pc 5 out of range (module has 0 instructions)"},
      {"\tmodule\tA\n\tmodule\tB\n", "t.s:2:2: duplicate 'module' directive (first on line 1)"},
      {"\tapop\n", "t.s:1:2: apop without a matching indir"},
      {"\tindir\t@mp+4,0\n", "t.s:1:8: indir: no array stored at offset 4 by an earlier 'array'"},
      {"\texctab\t*, -1\n", "t.s:1:2: exctab outside an exception handler"},
      {"\tret\n\texception\t0, 1, 32, -1, 2, 0\n\texctab\t\"x\", 0\n\texctab\t*, -1\n",
       "t.s:4:2: handler lists 1 named case but its exception line declares 2"},
      {"\tret\n\texception\t0, 1, 32, -1, 0, 0\n",
       "t.s:2:2: exception handler not closed by an 'exctab *, pc' line"},
      {"\tldts\t@ldt,2\n\tword\t@ldt+0,1\n\text\t@ldt+4,0x1,\"a\"\n",
       "t.s:1:1: ldts declares 2 import tables but 1 follow"},
      {"\tldts\t@ldt,1\n\tword\t@ldt+0,2\n\text\t@ldt+4,0x1,\"a\"\n",
       "t.s:2:7: import table declares 2 entries but 1 follow"},
      {"\tword\t@ldt+0,1\n", "t.s:1:7: @ldt data before the 'ldts' directive"},
      {"\tret\n\tflags\t0x0\n\texception\t0, 1, 32, -1, 0, 0\n\texctab\t*, -1\n",
       "t.s:2:8: flags lack HASEXCEPT (0x20) but handlers are present"},
      {"\tmovw\t$1,4(fp) junk\n", "t.s:1:16: unexpected 'junk'"},
      {"\tdesc\t$5,8,\"\"\n",
       "t.s:1:8: descriptor $5 out of range: with 1 descriptor the ids are 0..0"},
      {"\tdesc\t$0,16,\"\"\n\tvar\t@mp,8\n",
       "t.s:2:1: module data size 8 differs from descriptor $0's size 16"},
      {"\tvar\t@mp,8\n", "t.s:1:1: module data size 8 but no descriptor $0 describes it"},
      {"\tflags\t0x50\n", "t.s:1:8: flags include the obsolete HASLDT0 (0x10)"},
      {"\tret\n\texception\t1, 0, 32, -1, 0, 0\n\texctab\t*, -1\n",
       "t.s:2:15: handler pc2 0 is before its pc1 1"},
      {"\treal\t@mp+0,1.5x\n", "t.s:1:13: bad real value '1.5x'"},
      {"\tdesc\t$0,4,\"\"\n\tarray\t@mp+0,$0,2\n\tindir\t@mp+0,2\n",
       "t.s:3:14: array index 2 out of range (length 2)"},
      {"\tdesc\t$0,4,\"\"\n\tdesc\t$1,4,\"\"\n\tarray\t@mp+0,$1,2\n\tindir\t@mp+0,1\n"
       "\tword\t@mp+4,1\n",
       "t.s:5:7: data at offset 4 (4 bytes) lies outside the indexed array (4 bytes from the "
       "indexed element)"},
      {"\tlink\t-1,-1,0x1,\"x\"\n\tlink\t-1,-1,0x2,\"x\"\n", "t.s:2:17: link \"x\" defined twice"},
  };
  for (const ErrorCase& c : cases) {
    SCOPED_TRACE(c.text);
    EXPECT_EQ(errors_of(c.text), c.message);
  }
}

TEST(Assembler, ReportsEveryErrorOfTheRunInLineOrder) {
  const std::string text =
      "\tdesc\t$0,8,\"\"\n"           // 1
      "\tmovw\t$1,4(fp)\n"            // 2 ok, pc 0 (7 instructions in all)
      "\tadw\t$1,4(fp)\n"             // 3 unknown opcode, still pc 1
      "\tjmp\t$9\n"                   // 4 target out of range (checked at the end)
      "\tmovw\t$1\n"                  // 5 operand count
      "\tjmp\t$3\n"                   // 6 ok: pc 3 exists because bad lines keep their pc
      "\tstring\t@mp+0,\"x\n"         // 7 unterminated
      "\tframe\t$7,4(fp)\n"           // 8 undefined descriptor
      "\taddw\t$1,0(4(fp)),8(fp)\n";  // 9 double-indirect middle
  try {
    assemble(text, "multi.s");
    FAIL() << "expected errors";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              "multi.s:3:2: unknown opcode 'adw'\n"
              "multi.s:4:6: branch target 9 out of range (module has 7 instructions)\n"
              "multi.s:5:9: 'movw' takes 2 operands, got 1\n"
              "multi.s:7:15: unterminated string\n"
              "multi.s:8:8: undefined type descriptor $7\n"
              "multi.s:9:10: middle operand cannot be double indirect: 0(4(fp))");
    EXPECT_EQ(e.diagnostics().size(), 6u);
    EXPECT_EQ(e.diagnostics()[0].line, 3);
    EXPECT_EQ(e.diagnostics()[0].col, 2);
  }
}

TEST(Assembler, AMalformedHeaderLineDoesNotMakeItsFollowersErrorsToo) {
  EXPECT_EQ(errors_of("\tret\n\texception\t0, 1, x, -1, 1, 0\n\texctab\t\"a\", 0\n"
                      "\texctab\t*, -1\n"),
            "t.s:2:18: expected exception frame offset");
  EXPECT_EQ(errors_of("\tldts\t@ldt,1\n\tword\t@ldt+0,\n\text\t@ldt+4,0x1,\"a\"\n"),
            "t.s:2:14: expected import count");
}

// ---------------------------------------------------------------- round trips

TEST(Assembler, RoundTripThroughTheDisWriterAndReader) {
  const std::string text =
      "\tmovw\t$1,36(fp)\n\taddw\t$2,36(fp),40(fp)\n\tbltw\t36(fp),$10,$0\n\tret\n"
      "\tentry\t0, 1\n\tdesc\t$0,16,\"\"\n\tdesc\t$1,48,\"\"\n\tvar\t@mp,16\n"
      "\tword\t@mp+0,1\n\tword\t@mp+4,2\n\tstring\t@mp+8,\"hi\"\n\tmodule\tT\n"
      "\tlink\t1,0,0x4244b354,\"init\"\n\tldts\t@ldt,0\n\tsource\t\"t.b\"\n";
  const Module m = assemble(text, "t.s");
  const Module back = read_dis(write_dis(m), "t.dis");
  EXPECT_EQ(back.code, m.code);
  EXPECT_EQ(back.types, m.types);
  EXPECT_EQ(back.links, m.links);
  EXPECT_EQ(back.name, m.name);
  EXPECT_EQ(back.flags, m.flags);
  EXPECT_EQ(back.stack_extent, m.stack_extent);
  EXPECT_EQ(back.source_path, m.source_path);
  EXPECT_EQ(flatten_data(back), flatten_data(m));
  // The two adjacent words were merged by the writer, as Limbo merges them.
  EXPECT_EQ(back.data.at(0), (DataItem{DataKind::Words, 0, {1, 2}, ""}));
}

TEST(Assembler, DisassemblerOutputAssemblesToTheSameFile) {
  DIS_NEEDS_SHARED();
  for (const fs::path& p : corpus_files(".dis")) {
    SCOPED_TRACE(p.string());
    const std::vector<std::uint8_t> bytes = slurp(p);
    const std::string text = dis::assembly::disassemble(read_dis(bytes, p.string()));
    Module m;
    ASSERT_NO_THROW(m = assemble(text, "dump.s"));
    EXPECT_EQ(write_dis(m), bytes);
  }
}

// ---------------------------------------------------------------- the tool

int run(const std::string& cmd) {
  const int st = std::system(cmd.c_str());
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

struct TempDir {
  fs::path path;
  TempDir() {
    path = fs::temp_directory_path() /
           ("asm_test_" + std::to_string(::getpid()) + "_" + std::to_string(std::rand()));
    fs::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

const fs::path kAsm = fs::path(DIS_BIN_DIR) / "asm";

TEST(AsmTool, WritesTheDisFileBesideTheBasenameInTheCurrentDirectory) {
  DIS_NEEDS_SHARED();
  ASSERT_TRUE(fs::exists(kAsm)) << kAsm << " missing: build the asm target";
  TempDir tmp;
  const fs::path s = kCorpus / "exceptions" / "exceptions.s";
  EXPECT_EQ(run("cd '" + tmp.path.string() + "' && '" + kAsm.string() + "' '" + s.string() +
                "' 2>/dev/null"),
            0);
  const fs::path out = tmp.path / "exceptions.dis";
  ASSERT_TRUE(fs::exists(out));
  EXPECT_EQ(slurp(out), slurp(kCorpus / "exceptions" / "exceptions.dis"));

  const fs::path named = tmp.path / "other.dis";
  EXPECT_EQ(run("'" + kAsm.string() + "' -o '" + named.string() + "' '" + s.string() + "'"), 0);
  EXPECT_EQ(slurp(named), slurp(kCorpus / "exceptions" / "exceptions.dis"));
}

TEST(AsmTool, BadInputExitsTwoAndWritesNothing) {
  ASSERT_TRUE(fs::exists(kAsm)) << kAsm << " missing: build the asm target";
  TempDir tmp;
  const fs::path bad = tmp.path / "bad.s";
  std::ofstream(bad) << "\tmovw\t$1,4(fp)\n\tadw\t$1\n\tjmp\t$7\n";
  const fs::path err = tmp.path / "err.txt";
  EXPECT_EQ(run("cd '" + tmp.path.string() + "' && '" + kAsm.string() + "' bad.s 2>'" +
                err.string() + "'"),
            2);
  EXPECT_FALSE(fs::exists(tmp.path / "bad.dis"));
  EXPECT_EQ(slurp_text(err),
            "bad.s:2:2: unknown opcode 'adw'\n"
            "bad.s:3:6: branch target 7 out of range (module has 3 instructions)\n");
  EXPECT_EQ(run("'" + kAsm.string() + "' '" + (tmp.path / "missing.s").string() + "' 2>/dev/null"),
            2);
  EXPECT_EQ(run("'" + kAsm.string() + "' 2>/dev/null"), 2);  // no file: usage error
  EXPECT_EQ(run("'" + kAsm.string() + "' --help >/dev/null"), 0);
  EXPECT_EQ(run("'" + kAsm.string() + "' --version >/dev/null"), 0);
}

}  // namespace
