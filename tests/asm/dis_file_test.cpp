// Tests of the .dis reader and writer (asm/dis_file.h) against the corpus
// compiled by Inferno's Limbo compiler, its `limbo -S` listings, and
// hand-built modules and byte strings.
#include "dis_file.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <regex>
#include <sstream>

#include "shared_corpus.h"

namespace fs = std::filesystem;
using namespace dis;

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

std::vector<std::uint8_t> slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

Module corpus_module(const std::string& dir, const std::string& name) {
  return read_dis_file((kCorpus / dir / (name + ".dis")).string());
}

// The error read_dis reports for `bytes` (fails the test if it succeeds).
Diagnostic read_error(const std::vector<std::uint8_t>& bytes) {
  try {
    read_dis(bytes, "t.dis");
  } catch (const InputError& e) {
    EXPECT_EQ(e.diagnostics().size(), 1u);
    return e.diagnostics().front();
  }
  ADD_FAILURE() << "read_dis accepted the bytes";
  return {};
}

// Builds .dis byte strings field by field.
struct Bytes {
  std::vector<std::uint8_t> b;
  Bytes& op(std::int64_t v) {
    put_operand(b, v);
    return *this;
  }
  Bytes& byte(std::uint8_t v) {
    b.push_back(v);
    return *this;
  }
  Bytes& word(std::uint32_t v) {
    put_word(b, v);
    return *this;
  }
  Bytes& str(const std::string& s) {
    b.insert(b.end(), s.begin(), s.end());
    b.push_back(0);
    return *this;
  }
  // magic, flags, stack extent, code/data/type/link sizes, entry pc and type.
  Bytes& header(std::int64_t code, std::int64_t data, std::int64_t types, std::int64_t links,
                std::int64_t flags = 0) {
    return op(kXMagic).op(flags).op(0).op(code).op(data).op(types).op(links).op(-1).op(-1);
  }
};

Instruction ins(Op op, Operand src = {}, Middle mid = {}, Operand dst = {}) {
  Instruction in;
  in.op = op;
  in.src = src;
  in.mid = mid;
  in.dst = dst;
  return in;
}
Operand fp(std::int32_t a) { return {AddrMode::Fp, a, 0}; }
Operand mp(std::int32_t a) { return {AddrMode::Mp, a, 0}; }
Operand imm(std::int32_t a) { return {AddrMode::Imm, a, 0}; }
Operand ifp(std::int32_t a, std::int32_t b) { return {AddrMode::IndFp, a, b}; }
Middle mimm(std::int32_t a) { return {MidMode::Imm, a}; }
Middle mfp(std::int32_t a) { return {MidMode::Fp, a}; }

DataItem item(DataKind k, std::int32_t off, std::vector<std::int64_t> v, std::string text = {}) {
  DataItem d;
  d.kind = k;
  d.offset = off;
  d.values = std::move(v);
  d.text = std::move(text);
  return d;
}

// A small valid module: module data of `data_size` bytes described by type 0.
Module small_module(std::int32_t data_size = 64) {
  Module m;
  m.flags = kHasLdt;
  m.data_size = data_size;
  m.types.push_back({0, data_size, {}});
  m.types.push_back({1, 40, {0x80}});
  m.code.push_back(ins(Op::ret_));
  m.name = "Small";
  m.imports.push_back({{"print", 0xac849033u, {}}});
  return m;
}

// ------------------------------------------------------------- round trip

TEST(DisFile, CorpusIsPresent) {
  DIS_NEEDS_SHARED();
  // Guards the corpus-wide tests against silently iterating nothing.
  EXPECT_GE(corpus_files(".dis").size(), 19u);
}

TEST(DisFile, RoundTripEveryCorpusFileByteForByte) {
  DIS_NEEDS_SHARED();
  for (const fs::path& p : corpus_files(".dis")) {
    SCOPED_TRACE(p.string());
    const std::vector<std::uint8_t> bytes = slurp(p);
    ASSERT_FALSE(bytes.empty());
    Module m;
    ASSERT_NO_THROW(m = read_dis(bytes, p.string()));
    const std::vector<std::uint8_t> again = write_dis(m);
    EXPECT_EQ(again, bytes);
    EXPECT_EQ(read_dis(again, "again"), m);
  }
}

TEST(DisFile, FileRoundTripThroughDisk) {
  DIS_NEEDS_SHARED();
  const Module m = corpus_module("modload", "mathlib");
  const fs::path out = fs::temp_directory_path() / "dis_file_test_mathlib.dis";
  write_dis_file(m, out.string());
  EXPECT_EQ(slurp(out), slurp(kCorpus / "modload" / "mathlib.dis"));
  EXPECT_EQ(read_dis_file(out.string()), m);
  fs::remove(out);
}

TEST(DisFile, UnreadableFileIsInputError) {
  try {
    read_dis_file("/nonexistent/dir/x.dis");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(e.diagnostics().front().file, "/nonexistent/dir/x.dis");
    EXPECT_NE(std::string(e.what()).find("cannot open"), std::string::npos);
  }
}

// --------------------------------------------- decoded values vs listings

TEST(DisFile, ExceptionsSpotChecks) {
  DIS_NEEDS_SHARED();
  const Module m = corpus_module("exceptions", "exceptions");
  EXPECT_EQ(m.magic, kXMagic);
  EXPECT_EQ(m.flags, std::uint32_t{kHasLdt | kHasExcept});
  EXPECT_EQ(m.name, "Exceptions");
  EXPECT_EQ(m.entry_pc, 66);
  EXPECT_EQ(m.entry_type, 12);
  EXPECT_EQ(m.data_size, 192);
  ASSERT_EQ(m.types.size(), 13u);
  EXPECT_EQ(m.types[0], (TypeDesc{0, 192, {0xc0, 0x03, 0xff, 0xff, 0xff, 0xff}}));
  EXPECT_EQ(m.types[12], (TypeDesc{12, 136, {0x00, 0xcb, 0xff, 0xc6}}));
  ASSERT_GE(m.code.size(), 30u);
  // bltw 32(fp),$0,$15
  EXPECT_EQ(m.code[0], ins(Op::bltw_, fp(32), mimm(0), imm(15)));
  // goto 32(fp),28(mp)
  EXPECT_EQ(m.code[2], ins(Op::goto_, fp(32), {}, mp(28)));
  // raise 92(mp)
  EXPECT_EQ(m.code[3], ins(Op::raise_, mp(92)));
  // newa $2,$1,36(fp)
  EXPECT_EQ(m.code[6], ins(Op::newa_, imm(2), mimm(1), fp(36)));
  // indw 36(fp),44(fp),32(fp)
  EXPECT_EQ(m.code[7], ins(Op::indw_, fp(36), mfp(44), fp(32)));
  // movw 0(44(fp)),0(16(fp))
  EXPECT_EQ(m.code[8], ins(Op::movw_, ifp(44, 0), {}, ifp(16, 0)));
  EXPECT_EQ(m.code[9], ins(Op::ret_));
  ASSERT_EQ(m.links.size(), 1u);
  EXPECT_EQ(m.links[0], (Link{"init", 66, 12, 0x4244b354u}));
  ASSERT_EQ(m.imports.size(), 1u);
  EXPECT_EQ(m.imports[0], (ImportTable{{"print", 0xac849033u, {}}}));
  ASSERT_EQ(m.handlers.size(), 12u);
  const Handler& h0 = m.handlers[0];
  EXPECT_EQ(h0.pc1, 41);
  EXPECT_EQ(h0.pc2, 49);
  EXPECT_EQ(h0.offset, 36);
  EXPECT_EQ(h0.type, -1);
  EXPECT_EQ(h0.ne, 0);
  EXPECT_EQ(h0.wildcard_pc, -1);
  EXPECT_EQ(h0.cases, (std::vector<HandlerCase>{{"array bounds error", 53},
                                                {"dereference of nil", 55},
                                                {"fail:zero", 49},
                                                {"sys: fp:*", 57},
                                                {"fail:*", 51},
                                                {"*", 64}}));
  EXPECT_EQ(m.handlers[7], (Handler{72, 140, 148, 9, 0, {{"*", 149}}, -1}));
  EXPECT_EQ(m.source_path, std::optional<std::string>("exceptions.b"));
}

TEST(DisFile, ModloadImportTables) {
  DIS_NEEDS_SHARED();
  const Module m = corpus_module("modload", "modload");
  ASSERT_EQ(m.imports.size(), 2u);
  ASSERT_EQ(m.imports[0].size(), 8u);
  EXPECT_EQ(m.imports[0][0], (Import{"Frac.add", 0x7a006bb9u, {}}));
  EXPECT_EQ(m.imports[0][7], (Import{"Frac.text", 0x922af9u, {}}));
  EXPECT_EQ(m.imports[1], (ImportTable{{"print", 0xac849033u, {}}}));
  const Module lib = corpus_module("modload", "mathlib");
  ASSERT_EQ(lib.links.size(), 8u);
  EXPECT_EQ(lib.links[0], (Link{"Frac.add", 40, 6, 0x7a006bb9u}));
  EXPECT_EQ(lib.links[7], (Link{"Frac.text", 48, 4, 0x922af9u}));
}

// A reading of the parts of a `limbo -S` listing that mirror the .dis file.
struct Listing {
  std::vector<Instruction> code;
  std::vector<TypeDesc> types;
  std::vector<DataValue> data;
  std::int32_t data_size = -1, entry_pc = 0, entry_type = 0;
  std::string name, source;
  std::vector<Link> links;
  std::vector<ImportTable> imports;
  std::vector<Handler> handlers;
};

std::string unquote(const std::string& s) {
  std::string out;
  for (std::size_t i = 1; i + 1 < s.size(); ++i) {
    if (s[i] == '\\' && i + 2 < s.size()) {
      ++i;
      out += s[i] == 'n' ? '\n' : s[i] == 't' ? '\t' : s[i];
    } else {
      out += s[i];
    }
  }
  return out;
}

std::vector<std::string> split_args(const std::string& s) {
  std::vector<std::string> out;
  std::string cur;
  bool quoted = false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '"' && (i == 0 || s[i - 1] != '\\')) quoted = !quoted;
    if (c == ',' && !quoted) {
      out.push_back(cur);
      cur.clear();
    } else if (!(c == ' ' && !quoted && cur.empty())) {
      cur += c;
    }
  }
  if (!cur.empty()) out.push_back(cur);
  return out;
}

Operand parse_operand(const std::string& t) {
  std::smatch mt;
  static const std::regex ind(R"((-?\d+)\((-?\d+)\((fp|mp)\)\))");
  static const std::regex dir(R"((-?\d+)\((fp|mp)\))");
  if (t[0] == '$') return imm(std::stoi(t.substr(1)));
  if (std::regex_match(t, mt, ind))
    return {mt[3] == "fp" ? AddrMode::IndFp : AddrMode::IndMp, std::stoi(mt[2]), std::stoi(mt[1])};
  if (std::regex_match(t, mt, dir))
    return {mt[2] == "fp" ? AddrMode::Fp : AddrMode::Mp, std::stoi(mt[1]), 0};
  ADD_FAILURE() << "operand " << t;
  return {};
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
      ADD_FAILURE() << "bad middle operand";
      return {};
  }
}

Listing parse_listing(const fs::path& p) {
  Listing l;
  std::ifstream in(p);
  std::string line;
  std::size_t import_table = 0;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] != '\t') continue;
    std::string op = line.substr(1), rest;
    if (auto tab = op.find('\t'); tab != std::string::npos) {
      rest = op.substr(tab + 1);
      op = op.substr(0, tab);
    }
    if (auto hash = rest.find(" #");
        hash != std::string::npos && rest.find('"') == std::string::npos)
      rest = rest.substr(0, hash);
    const std::vector<std::string> a = split_args(rest);
    auto num = [&](std::size_t i) {
      return static_cast<std::int32_t>(std::stoll(a[i], nullptr, 0));
    };
    auto mp_offset = [&]() { return std::stoll(a[0].substr(a[0].find('+') + 1)); };
    const bool mp_data = !a.empty() && a[0].rfind("@mp", 0) == 0;
    if (auto o = find_op(op)) {
      Instruction x;
      x.op = *o;
      std::vector<Operand> ops;
      for (const auto& t : a) ops.push_back(parse_operand(t));
      std::size_t k = 0;
      if (has_src(x.op)) x.src = ops.at(k++);
      if (ops.size() - k == (has_dst(x.op) ? 2u : 1u)) x.mid = as_middle(ops.at(k++));
      if (has_dst(x.op)) x.dst = ops.at(k++);
      EXPECT_EQ(k, ops.size()) << line;
      l.code.push_back(x);
    } else if (op == "entry") {
      l.entry_pc = num(0);
      l.entry_type = num(1);
    } else if (op == "desc") {
      TypeDesc t{std::stoi(a[0].substr(1)), num(1), {}};
      const std::string hex = unquote(a[2]);
      for (std::size_t i = 0; i + 1 < hex.size(); i += 2)
        t.map.push_back(static_cast<std::uint8_t>(std::stoi(hex.substr(i, 2), nullptr, 16)));
      l.types.push_back(t);
    } else if (op == "var") {
      l.data_size = num(1);
    } else if (op == "string" && mp_data) {
      l.data.push_back({{mp_offset()}, DataKind::String, 0, 0, unquote(a[1])});
    } else if ((op == "word" || op == "byte") && mp_data) {
      const std::int64_t w = op == "word" ? 4 : 1;
      for (std::size_t i = 1; i < a.size(); ++i)
        l.data.push_back({{mp_offset() + w * static_cast<std::int64_t>(i - 1)},
                          op == "word" ? DataKind::Words : DataKind::Bytes,
                          std::stoll(a[i], nullptr, 0) & (w == 1 ? 0xFF : -1),
                          0,
                          {}});
    } else if ((op == "long" || op == "real") && mp_data) {
      const std::string hex = line.substr(line.find(" # ") + 3);
      l.data.push_back({{mp_offset()},
                        op == "long" ? DataKind::Bigs : DataKind::Reals,
                        static_cast<std::int64_t>(std::stoull(hex, nullptr, 16)),
                        0,
                        {}});
    } else if (op == "module") {
      l.name = rest;
    } else if (op == "link") {
      l.links.push_back({unquote(a[3]), num(1), num(0),
                         static_cast<std::uint32_t>(std::stoul(a[2], nullptr, 0))});
    } else if (op == "ldts") {
      l.imports.resize(static_cast<std::size_t>(num(1)));
      import_table = 0;
    } else if (op == "word" && a[0].rfind("@ldt", 0) == 0) {
      ++import_table;  // the count of the next table
    } else if (op == "ext") {
      l.imports.at(import_table - 1)
          .push_back({unquote(a[2]), static_cast<std::uint32_t>(std::stoul(a[1], nullptr, 0)), {}});
    } else if (op == "exception") {
      Handler h;
      h.pc1 = num(0);
      h.pc2 = num(1);
      h.offset = num(2);
      h.type = num(3);
      h.ne = num(5);
      l.handlers.push_back(h);
    } else if (op == "exctab") {
      if (a[0] == "*")
        l.handlers.back().wildcard_pc = num(1);
      else
        l.handlers.back().cases.push_back({unquote(a[0]), num(1)});
    } else if (op == "source") {
      l.source = unquote(rest);
    }
  }
  std::sort(l.data.begin(), l.data.end());
  return l;
}

TEST(DisFile, EveryCorpusFileMatchesItsListing) {
  DIS_NEEDS_SHARED();
  std::size_t files = 0;
  for (const fs::path& s : corpus_files(".s")) {
    const fs::path d = fs::path(s).replace_extension(".dis");
    if (!fs::exists(d)) continue;
    SCOPED_TRACE(s.string());
    ++files;
    const Listing l = parse_listing(s);
    const Module m = read_dis_file(d.string());
    ASSERT_EQ(m.code.size(), l.code.size());
    for (std::size_t pc = 0; pc < m.code.size(); ++pc)
      EXPECT_EQ(m.code[pc], l.code[pc]) << "pc " << pc << " " << op_name(l.code[pc].op);
    EXPECT_EQ(m.types, l.types);
    EXPECT_EQ(m.data_size, l.data_size);
    EXPECT_EQ(m.entry_pc, l.entry_pc);
    EXPECT_EQ(m.entry_type, l.entry_type);
    EXPECT_EQ(m.name, l.name);
    EXPECT_EQ(m.links, l.links);
    EXPECT_EQ(m.imports, l.imports);
    EXPECT_EQ(m.handlers, l.handlers);
    EXPECT_EQ(m.source_path, std::optional<std::string>(l.source));
    EXPECT_EQ(flatten_data(m), l.data);
  }
  EXPECT_GE(files, 19u);
}

// ----------------------------------------------------------- operand codec

TEST(OperandCodec, EdgeValuesUseTheShortestForm) {
  struct Case {
    std::int64_t v;
    std::vector<std::uint8_t> bytes;
  };
  const std::vector<Case> cases = {
      {0, {0x00}},
      {63, {0x3f}},
      {-1, {0x7f}},
      {-64, {0x40}},
      {64, {0x80, 0x40}},
      {-65, {0xbf, 0xbf}},
      {8191, {0x9f, 0xff}},
      {-8192, {0xa0, 0x00}},
      {8192, {0xc0, 0x00, 0x20, 0x00}},
      {-8193, {0xff, 0xff, 0xdf, 0xff}},
      {kOperandMax, {0xdf, 0xff, 0xff, 0xff}},
      {kOperandMin, {0xe0, 0x00, 0x00, 0x00}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.v);
    EXPECT_EQ(encode_operand(c.v), c.bytes);
    EXPECT_EQ(operand_length(c.v), c.bytes.size());
    auto d = decode_operand(c.bytes, 0);
    ASSERT_TRUE(d.has_value());
    EXPECT_EQ(d->value, c.v);
    EXPECT_EQ(d->length, c.bytes.size());
  }
}

TEST(OperandCodec, OutOfRangeIsRejected) {
  EXPECT_THROW(encode_operand(std::int64_t{kOperandMax} + 1), EncodeError);
  EXPECT_THROW(encode_operand(std::int64_t{kOperandMin} - 1), EncodeError);
  EXPECT_THROW(encode_operand(0x7fffffff), EncodeError);
  EXPECT_FALSE(operand_fits(std::int64_t{1} << 29));
  EXPECT_TRUE(operand_fits(-(std::int64_t{1} << 29)));
}

TEST(OperandCodec, LongFormsOfSmallValuesDecode) {
  // Inferno's loader accepts non-shortest forms; so does the reader.
  const std::vector<std::uint8_t> two = {0x80, 0x05}, four = {0xff, 0xff, 0xff, 0xfe};
  EXPECT_EQ(decode_operand(two, 0)->value, 5);
  EXPECT_EQ(decode_operand(four, 0)->value, -2);
}

TEST(OperandCodec, TruncatedOperandIsNullopt) {
  const std::vector<std::uint8_t> b = {0x00, 0x80, 0xc0, 0x01, 0x02};
  EXPECT_TRUE(decode_operand(b, 0).has_value());
  EXPECT_FALSE(decode_operand(std::span(b).first(2), 1).has_value());  // 2-byte form cut
  EXPECT_FALSE(decode_operand(b, 2).has_value());                      // 4-byte form cut
  EXPECT_FALSE(decode_operand(b, 5).has_value());                      // nothing left
}

TEST(OperandCodec, RandomValuesRoundTrip) {
  std::mt19937 rng(42);
  std::uniform_int_distribution<std::int32_t> dist(kOperandMin, kOperandMax);
  for (int i = 0; i < 20000; ++i) {
    const std::int32_t v = i < 20 ? i - 10 : dist(rng) >> (i % 30);
    const auto b = encode_operand(v);
    const auto d = decode_operand(b, 0);
    ASSERT_TRUE(d.has_value());
    ASSERT_EQ(d->value, v);
    ASSERT_EQ(d->length, b.size());
  }
}

// --------------------------------------------------- instruction encoding

TEST(DisFile, EveryOpcodeWithEveryAddressMode) {
  const std::vector<AddrMode> modes = {AddrMode::Mp, AddrMode::Fp, AddrMode::Imm, AddrMode::IndMp,
                                       AddrMode::IndFp};
  const std::vector<std::int32_t> values = {0,     63,   -64,         64,         8191,
                                            -8192, 8192, kOperandMax, kOperandMin};
  const std::vector<std::int32_t> small = {0, 63, 64, 8191, 8192, 65535};
  Module m = small_module();
  std::size_t k = 0;
  std::vector<std::size_t> per_op(kNumOps, 0);
  for (const OpInfo& info : kOpTable) {
    const Op op = info.op;
    std::vector<AddrMode> srcs = has_src(op) ? modes : std::vector<AddrMode>{AddrMode::None};
    std::vector<AddrMode> dsts = has_dst(op) ? modes : std::vector<AddrMode>{AddrMode::None};
    std::vector<MidMode> mids;
    if (!mid_allowed(op) || mid_optional(op)) mids.push_back(MidMode::None);
    if (mid_allowed(op)) mids.insert(mids.end(), {MidMode::Imm, MidMode::Fp, MidMode::Mp});
    for (AddrMode s : srcs)
      for (AddrMode d : dsts)
        for (MidMode md : mids) {
          auto operand = [&](AddrMode mode) {
            Operand o{mode, 0, 0};
            if (mode == AddrMode::IndMp || mode == AddrMode::IndFp) {
              o.a = small[k % small.size()];
              o.b = small[(k / 3) % small.size()];
            } else if (mode != AddrMode::None) {
              o.a = values[k % values.size()];
            }
            ++k;
            return o;
          };
          Instruction in = ins(op, operand(s), {}, operand(d));
          if (md != MidMode::None)
            in.mid = {md, md == MidMode::Imm ? (k % 2 ? -32768 : 32767) : small[k % small.size()]};
          ASSERT_EQ(instruction_encoding_problem(in), std::nullopt) << op_name(op);
          m.code.push_back(in);
          ++per_op[static_cast<std::size_t>(op)];
        }
  }
  for (std::size_t i = 0; i < kNumOps; ++i) EXPECT_GE(per_op[i], 1u);
  const std::vector<std::uint8_t> bytes = write_dis(m);
  const Module back = read_dis(bytes, "all.dis");
  ASSERT_EQ(back.code.size(), m.code.size());
  for (std::size_t pc = 0; pc < m.code.size(); ++pc)
    ASSERT_EQ(back.code[pc], m.code[pc]) << "pc " << pc << " " << op_name(m.code[pc].op);
  EXPECT_EQ(back, m);
  EXPECT_EQ(write_dis(back), bytes);
}

TEST(DisFile, HandEncodedModuleGolden) {
  Module m;
  m.flags = 0;
  m.stack_extent = 100;
  m.data_size = 8;
  m.entry_pc = 0;
  m.entry_type = 1;
  m.code = {ins(Op::addw_, imm(1), {}, fp(36)),          // 3a 11 01 24
            ins(Op::movw_, ifp(44, 0), {}, ifp(16, 0)),  // 2d 2d 2c 00 10 00
            ins(Op::indw_, fp(36), mfp(44), fp(200)),    // 72 89 2c 24 80 c8
            ins(Op::jmp_, {}, {}, imm(-3))};             // jmp: dst only
  m.types = {{0, 8, {0x80}}, {1, 40, {}}};
  m.data = {item(DataKind::Words, 4, {-2})};
  m.name = "M";
  m.links = {{"init", 0, 1, 0x01020304u}};
  m.source_path = "m.b";
  const std::vector<std::uint8_t> expect = {0xc0,
                                            0x0c,
                                            0x80,
                                            0x30,  // XMAGIC 819248
                                            0x00,
                                            0x80,
                                            0x64,
                                            0x04,
                                            0x08,
                                            0x02,
                                            0x01,
                                            0x00,
                                            0x01,  // flags .. entry
                                            0x3a,
                                            0x11,
                                            0x01,
                                            0x24,  // addw $1,36(fp)
                                            0x2d,
                                            0x2d,
                                            0x2c,
                                            0x00,
                                            0x10,
                                            0x00,  // movw 0(44(fp)),0(16(fp))
                                            0x72,
                                            0x89,
                                            0x2c,
                                            0x24,
                                            0x80,
                                            0xc8,  // indw 36(fp),44(fp),200(fp)
                                            static_cast<std::uint8_t>(Op::jmp_),
                                            0x1a,
                                            0x7d,  // jmp $-3
                                            0x00,
                                            0x08,
                                            0x01,
                                            0x80,
                                            0x01,
                                            0x28,
                                            0x00,  // types
                                            0x21,
                                            0x04,
                                            0xff,
                                            0xff,
                                            0xff,
                                            0xfe,
                                            0x00,  // word @mp+4,-2; end of data
                                            'M',
                                            0,  // module name
                                            0x00,
                                            0x01,
                                            0x01,
                                            0x02,
                                            0x03,
                                            0x04,
                                            'i',
                                            'n',
                                            'i',
                                            't',
                                            0,  // link
                                            'm',
                                            '.',
                                            'b',
                                            0};
  EXPECT_EQ(write_dis(m), expect);
  EXPECT_EQ(read_dis(expect, "m.dis"), m);
}

TEST(DisFile, SignedModuleKeepsSignature) {
  Module m = small_module();
  m.magic = kSMagic;
  m.signature = {1, 2, 3, 0, 255};
  const auto bytes = write_dis(m);
  EXPECT_EQ(read_dis(bytes, "s.dis"), m);
  EXPECT_EQ(bytes[4], 5);  // signature length right after SMAGIC's 4 bytes
}

// ------------------------------------------------------- data section

TEST(DisFile, WriterMergesDataAsLimboDoes) {
  Module a = small_module(128);
  // One item per value, as the assembler produces them.
  for (int i = 0; i < 17; ++i) a.data.push_back(item(DataKind::Words, 4 * i, {i - 3}));
  a.data.push_back(item(DataKind::String, 4 * 17, {}, "x"));  // strings end a run
  a.data.push_back(item(DataKind::String, 4 * 18, {}, "yz"));
  a.data.push_back(item(DataKind::Bytes, 76, {1}));
  a.data.push_back(item(DataKind::Bytes, 78, {2}));  // not contiguous: a new item
  a.data.push_back(item(DataKind::Bytes, 79, {3}));
  const auto merged = merge_data_items(a.data);
  ASSERT_EQ(merged.size(), 5u);
  EXPECT_EQ(merged[0].values.size(), 17u);
  EXPECT_EQ(merged[3], item(DataKind::Bytes, 76, {1}));
  EXPECT_EQ(merged[4], item(DataKind::Bytes, 78, {2, 3}));

  const std::vector<std::uint8_t> bytes = write_dis(a);
  const Module back = read_dis(bytes, "a.dis");
  EXPECT_EQ(back.data, merged);
  EXPECT_EQ(flatten_data(back), flatten_data(a));
  // 17 words: kind 2 with count 0, then the count as an operand.
  const std::vector<std::uint8_t> head = {0x20, 17, 0x00, 0xff, 0xff, 0xff, 0xfd};
  auto it = std::search(bytes.begin(), bytes.end(), head.begin(), head.end());
  EXPECT_NE(it, bytes.end());
}

TEST(DisFile, FlattenIsIndependentOfOrderAndMerging) {
  Module a = small_module(32), b = small_module(32);
  a.data = {item(DataKind::Words, 0, {1, 2, 3}), item(DataKind::Bigs, 16, {-5})};
  b.data = {item(DataKind::Bigs, 16, {-5}), item(DataKind::Words, 8, {3}),
            item(DataKind::Words, 0, {1}), item(DataKind::Words, 4, {2})};
  EXPECT_EQ(flatten_data(a), flatten_data(b));
  const auto f = flatten_data(a);
  ASSERT_EQ(f.size(), 4u);
  EXPECT_EQ(f[3], (DataValue{{16}, DataKind::Bigs, -5, 0, {}}));
  b.data.push_back(item(DataKind::Words, 4, {7}));  // a later store wins
  EXPECT_EQ(flatten_data(b)[1], (DataValue{{4}, DataKind::Words, 7, 0, {}}));
}

TEST(DisFile, ArrayInitialisersRoundTripAndFlatten) {
  Module m = small_module(16);
  m.types.push_back({2, 8, {}});
  m.data = {item(DataKind::Array, 4, {2, 3}),    // array of 3 8-byte elements at 4(mp)
            item(DataKind::SetIndex, 4, {1}),    // base = element 1
            item(DataKind::Words, 0, {10, 11}),  // element 1
            item(DataKind::Words, 8, {12}),      // element 2
            item(DataKind::PopBase, 0, {}),     item(DataKind::Words, 8, {99})};
  const auto bytes = write_dis(m);
  const Module back = read_dis(bytes, "arr.dis");
  EXPECT_EQ(back.data, merge_data_items(m.data));
  const auto f = flatten_data(back);
  const std::vector<DataValue> expect = {{{4}, DataKind::Array, 2, 3, {}},
                                         {{4, 8}, DataKind::Words, 10, 0, {}},
                                         {{4, 12}, DataKind::Words, 11, 0, {}},
                                         {{4, 16}, DataKind::Words, 12, 0, {}},
                                         {{8}, DataKind::Words, 99, 0, {}}};
  EXPECT_EQ(f, expect);
}

TEST(DisFile, OverwrittenArrayCannotBeIndexed) {
  Module m = small_module(16);
  m.types.push_back({2, 4, {}});
  m.data = {item(DataKind::Array, 4, {2, 2}), item(DataKind::Words, 4, {0}),
            item(DataKind::SetIndex, 4, {0})};
  const auto bytes = write_dis(m);
  EXPECT_NE(read_error(bytes).message.find("does not name an array"), std::string::npos);
  // An array inside an array is forgotten when the outer one is replaced.
  m.data = {item(DataKind::Array, 4, {2, 2}), item(DataKind::SetIndex, 4, {0}),
            item(DataKind::Array, 0, {2, 1}), item(DataKind::PopBase, 0, {}),
            item(DataKind::Array, 4, {2, 2}), item(DataKind::SetIndex, 4, {0}),
            item(DataKind::SetIndex, 0, {0})};
  EXPECT_NE(read_error(write_dis(m)).message.find("does not name an array"), std::string::npos);
  m.data.pop_back();
  m.data.push_back(item(DataKind::Array, 0, {2, 1}));
  m.data.push_back(item(DataKind::SetIndex, 0, {1}));
  EXPECT_NO_THROW(read_dis(write_dis(m), "ok"));
}

TEST(DisFile, FlattenDropsValuesOfReplacedArrays) {
  Module m = small_module(16);
  m.types.push_back({2, 4, {}});
  m.data = {item(DataKind::Array, 4, {2, 2}), item(DataKind::SetIndex, 4, {0}),
            item(DataKind::Words, 0, {7, 8}), item(DataKind::PopBase, 0, {}),
            item(DataKind::Array, 4, {2, 3}), item(DataKind::SetIndex, 4, {1}),
            item(DataKind::Words, 0, {9}),    item(DataKind::PopBase, 0, {})};
  const std::vector<DataValue> expect = {{{4}, DataKind::Array, 2, 3, {}},
                                         {{4, 4}, DataKind::Words, 9, 0, {}}};
  EXPECT_EQ(flatten_data(m), expect);
}

// -------------------------------------------------------------- errors

TEST(DisFile, TruncationAtEveryByteIsAnError) {
  DIS_NEEDS_SHARED();
  for (const char* name : {"exceptions", "modload"}) {
    const std::vector<std::uint8_t> bytes = slurp(kCorpus / name / (std::string(name) + ".dis"));
    const Module full = read_dis(bytes, "full");
    ASSERT_TRUE(full.source_path.has_value());
    // Cut exactly before the optional source path: a valid module without it.
    const std::size_t no_path = bytes.size() - full.source_path->size() - 1;
    for (std::size_t n = 0; n < bytes.size(); ++n) {
      const std::vector<std::uint8_t> cut(bytes.begin(), bytes.begin() + static_cast<long>(n));
      if (n == no_path) {
        Module expect = full;
        expect.source_path.reset();
        EXPECT_EQ(read_dis(cut, "cut"), expect);
        continue;
      }
      try {
        read_dis(cut, "cut.dis");
        ADD_FAILURE() << name << " cut at " << n << " accepted";
      } catch (const InputError& e) {
        const Diagnostic& d = e.diagnostics().front();
        EXPECT_EQ(d.file, "cut.dis");
        EXPECT_GE(d.offset, 0);
        EXPECT_LE(d.offset, static_cast<std::int64_t>(n));
      }
    }
  }
}

TEST(DisFile, LyingCountsFailFastWithoutAllocating) {
  const auto big = kOperandMax;
  struct Case {
    const char* what;
    std::vector<std::uint8_t> bytes;
  };
  const std::vector<Case> cases = {
      {"code size", Bytes().header(big, 0, 0, 0).b},
      {"type section size", Bytes().header(0, 0, big, 0).b},
      {"link section size", Bytes().header(0, 0, 0, big).byte(0).str("M").b},
      {"signature length", Bytes().op(kSMagic).op(big).b},
      {"data item 0 count", Bytes().header(0, 0, 0, 0).byte(0x20).op(big).op(0).b},
      {"data item 0 string length", Bytes().header(0, 0, 0, 0).byte(0x30).op(big).op(0).b},
      {"import table count", Bytes().header(0, 0, 0, 0, kHasLdt).byte(0).str("M").op(big).b},
      {"import table 0 size", Bytes().header(0, 0, 0, 0, kHasLdt).byte(0).str("M").op(1).op(big).b},
      {"handler count", Bytes().header(0, 0, 0, 0, kHasExcept).byte(0).str("M").op(big).b},
      {"handler 0 label count", Bytes()
                                    .header(0, 0, 0, 0, kHasExcept)
                                    .byte(0)
                                    .str("M")
                                    .op(1)
                                    .op(0)
                                    .op(0)
                                    .op(0)
                                    .op(-1)
                                    .op(0xFFFF)
                                    .b},
      {"pointer map", Bytes().header(0, 0, 1, 0).op(0).op(4).op(big).b},
      {"pointer map", Bytes().header(0, 0, 1, 0).op(0).op(4).op(1000).b},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    const auto t0 = std::chrono::steady_clock::now();
    const Diagnostic d = read_error(c.bytes);
    EXPECT_NE(d.message.find(c.what), std::string::npos) << d.message;
    EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::milliseconds(200));
  }
}

TEST(DisFile, RecordBudgetBoundsMemory) {
  // Two-byte "restore base" items are the cheapest records a file can hold.
  Bytes b;
  b.header(0, 0, 0, 0);
  const std::size_t first = b.b.size();
  for (std::int64_t i = 0; i <= kMaxDisRecords; ++i) b.byte(0x71).byte(0);
  b.byte(0).str("M");
  const Diagnostic d = read_error(b.b);
  EXPECT_NE(d.message.find("implausible"), std::string::npos) << d.message;
  EXPECT_EQ(d.offset, static_cast<std::int64_t>(first + 2 * kMaxDisRecords));
}

TEST(DisFile, HeaderErrors) {
  {
    const Diagnostic d = read_error(Bytes().op(12345).header(0, 0, 0, 0).b);
    EXPECT_EQ(d.offset, 0);
    EXPECT_NE(d.message.find("bad magic"), std::string::npos);
  }
  {
    const Diagnostic d = read_error(Bytes().header(0, 0, 0, 0, kHasLdt0).byte(0).str("M").b);
    EXPECT_EQ(d.offset, 4);
    EXPECT_NE(d.message.find("HASLDT0"), std::string::npos);
  }
  {
    const Diagnostic d = read_error(Bytes().header(-2, 0, 0, 0).b);
    EXPECT_NE(d.message.find("negative code size"), std::string::npos);
  }
  {
    Bytes b;
    b.op(kXMagic).op(0).op(-1);  // negative stack extent
    EXPECT_NE(read_error(b.b).message.find("negative stack extent"), std::string::npos);
  }
  {
    std::vector<std::uint8_t> huge(kMaxDisFileSize + 1, 0);
    EXPECT_NE(read_error(huge).message.find("larger than"), std::string::npos);
  }
  {
    // data size 16 but type 0 says 8: Inferno refuses it ("bad desc for mp").
    const Diagnostic d =
        read_error(Bytes().header(0, 16, 1, 0).op(0).op(8).op(0).byte(0).str("M").b);
    EXPECT_EQ(d.offset, 7);
    EXPECT_NE(d.message.find("does not match type 0"), std::string::npos);
  }
}

TEST(DisFile, CodeErrors) {
  auto one = [](std::uint8_t opcode, std::uint8_t mode, std::vector<std::int64_t> ops) {
    Bytes b;
    b.header(1, 0, 0, 0).byte(opcode).byte(mode);
    for (auto v : ops) b.op(v);
    b.byte(0).str("M");
    return b.b;
  };
  const std::size_t at = Bytes().header(1, 0, 0, 0).b.size();
  {
    const Diagnostic d = read_error(one(175, 0x1b, {}));
    EXPECT_EQ(d.offset, static_cast<std::int64_t>(at));
    EXPECT_NE(d.message.find("invalid opcode 0xaf"), std::string::npos);
  }
  {
    const Diagnostic d = read_error(one(0xff, 0x1b, {}));
    EXPECT_NE(d.message.find("invalid opcode"), std::string::npos);
  }
  for (std::uint8_t mode :
       {std::uint8_t{0x33}, std::uint8_t{0x3b}, std::uint8_t{0x1e}, std::uint8_t{0x1f}}) {
    const Diagnostic d = read_error(one(static_cast<std::uint8_t>(Op::movw_), mode, {1, 2}));
    EXPECT_EQ(d.offset, static_cast<std::int64_t>(at + 1));
    EXPECT_NE(d.message.find("reserved"), std::string::npos);
  }
  const std::uint8_t movw = static_cast<std::uint8_t>(Op::movw_);
  const std::uint8_t addw = static_cast<std::uint8_t>(Op::addw_);
  const std::uint8_t ret = static_cast<std::uint8_t>(Op::ret_);
  const std::uint8_t indw = static_cast<std::uint8_t>(Op::indw_);
  EXPECT_NE(read_error(one(movw, 0x0b, {4})).message.find("missing destination"),
            std::string::npos);  // src only
  EXPECT_NE(read_error(one(movw, 0x1b | 0x00, {})).message.find("missing source"),
            std::string::npos);
  EXPECT_NE(read_error(one(movw, 0x49, {1, 2, 3})).message.find("middle operand not allowed"),
            std::string::npos);
  EXPECT_NE(read_error(one(ret, 0x1a, {3})).message.find("destination operand not allowed"),
            std::string::npos);
  EXPECT_NE(read_error(one(indw, 0x09, {1, 2})).message.find("missing middle"), std::string::npos);
  EXPECT_NO_THROW(read_dis(one(addw, 0x09, {1, 2}), "ok"));  // middle defaults to dst
  EXPECT_NE(read_error(one(movw, 0x21, {-1, 0, 8})).message.find("double-indirect"),
            std::string::npos);
  EXPECT_NE(read_error(one(addw, 0x89, {70000, 1, 2})).message.find("middle offset"),
            std::string::npos);
  EXPECT_NE(read_error(one(addw, 0x49, {40000, 1, 2})).message.find("middle immediate"),
            std::string::npos);
}

TEST(DisFile, DataErrors) {
  // Module data of 8 bytes (type 0) and a type 1 of 4 bytes for arrays.
  auto with_data = [](const Bytes& items) {
    Bytes b;
    b.header(0, 8, 2, 0).op(0).op(8).op(0).op(1).op(4).op(0);
    b.b.insert(b.b.end(), items.b.begin(), items.b.end());
    b.byte(0).str("M");
    return b.b;
  };
  EXPECT_NE(read_error(with_data(Bytes().byte(0x91).op(0))).message.find("unknown kind 9"),
            std::string::npos);
  EXPECT_NE(read_error(with_data(Bytes().byte(0x22).op(4).word(1).word(2)))
                .message.find("outside module data"),
            std::string::npos);
  EXPECT_NE(read_error(with_data(Bytes().byte(0x21).op(-4).word(1))).message.find("outside"),
            std::string::npos);
  EXPECT_NE(read_error(with_data(Bytes().byte(0x71).op(0))).message.find("no saved base"),
            std::string::npos);
  EXPECT_NE(read_error(with_data(Bytes().byte(0x61).op(0).word(0)))
                .message.find("does not name an array"),
            std::string::npos);
  EXPECT_NE(
      read_error(with_data(Bytes().byte(0x51).op(0).word(7).word(1))).message.find("unknown type"),
      std::string::npos);
  EXPECT_NE(read_error(with_data(Bytes().byte(0x51).op(0).word(1).word(2).byte(0x61).op(0).word(3)))
                .message.find("array index 3"),
            std::string::npos);
  // Arrays of arrays nested DADEPTH deep are fine; one more level is not.
  Bytes nest;
  for (int i = 0; i < kDataBaseDepth; ++i)
    nest.byte(0x51).op(0).word(1).word(1).byte(0x61).op(0).word(0);
  EXPECT_NO_THROW(read_dis(with_data(nest), "nest"));
  nest.byte(0x51).op(0).word(1).word(1).byte(0x61).op(0).word(0);
  const Diagnostic d = read_error(with_data(nest));
  EXPECT_NE(d.message.find("nested deeper than 4"), std::string::npos);
  // The error names the offset of the offending item.
  EXPECT_EQ(static_cast<std::size_t>(d.offset), with_data(Bytes()).size() - 3 + nest.b.size() - 6);
}

TEST(DisFile, TrailingAndTerminatorErrors) {
  Bytes ok;
  ok.header(0, 0, 0, 0, kHasLdt).byte(0).str("M").op(0).byte(0).str("m.b");
  EXPECT_NO_THROW(read_dis(ok.b, "ok"));
  Bytes trailing = ok;
  trailing.byte(7);
  EXPECT_NE(read_error(trailing.b).message.find("after the source path"), std::string::npos);
  Bytes bad_end;
  bad_end.header(0, 0, 0, 0, kHasLdt).byte(0).str("M").op(0).byte(5);
  EXPECT_NE(read_error(bad_end.b).message.find("not terminated"), std::string::npos);
}

TEST(DisFile, WriterRefusesUnencodableModules) {
  Module m = small_module();
  m.code.push_back(ins(Op::movw_, fp(4)));  // no destination
  EXPECT_THROW(write_dis(m), EncodeError);
  m = small_module();
  m.flags = 0;  // imports but no HASLDT
  EXPECT_THROW(write_dis(m), EncodeError);
  m = small_module();
  m.name = std::string("a\0b", 3);
  EXPECT_THROW(write_dis(m), EncodeError);
  m = small_module();
  m.stack_extent = 1 << 30;
  EXPECT_THROW(write_dis(m), EncodeError);
}

// read(x) either fails with InputError or gives a module that writes and
// reads back equal (with its data merged as the writer merges it).
void check_read_write_read(const std::vector<std::uint8_t>& bytes) {
  Module m;
  try {
    m = read_dis(bytes, "mut.dis");
  } catch (const InputError&) {
    return;
  }
  const std::vector<std::uint8_t> out = write_dis(m);
  m.data = merge_data_items(m.data);
  ASSERT_EQ(read_dis(out, "out.dis"), m);
}

TEST(DisFile, MutatedCorpusFilesNeverCrash) {
  DIS_NEEDS_SHARED();
  std::mt19937 rng(7);
  for (const fs::path& p : corpus_files(".dis")) {
    SCOPED_TRACE(p.string());
    const std::vector<std::uint8_t> bytes = slurp(p);
    for (int i = 0; i < 300; ++i) {
      std::vector<std::uint8_t> mut = bytes;
      const int edits = 1 + static_cast<int>(rng() % 4);
      for (int e = 0; e < edits; ++e) {
        const std::size_t at = rng() % mut.size();
        switch (rng() % 3) {
          case 0:
            mut[at] = static_cast<std::uint8_t>(rng());
            break;
          case 1:
            mut[at] ^= static_cast<std::uint8_t>(1u << (rng() % 8));
            break;
          default:
            mut.erase(mut.begin() + static_cast<long>(at));
            break;
        }
      }
      check_read_write_read(mut);
    }
  }
}

}  // namespace
