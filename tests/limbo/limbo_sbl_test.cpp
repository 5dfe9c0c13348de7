// `limbo -g` symbol tables against the .sbl files Inferno's compiler wrote
// for the corpus. Frame and MP offsets of locals and globals follow our
// layout, so those are compared by name and type; argument offsets (fixed at
// +32 on) and adt layouts must agree exactly. Inferno drops functions nothing
// calls, so its fn table must be an ordered subsequence of ours.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>

#include "compiler.h"
#include "sbl.h"
#include "shared_corpus.h"

namespace fs = std::filesystem;

namespace {

const fs::path kCorpus = fs::path(DIS_SHARED_DIR) / "testdata" / "limbo";

std::vector<std::string> programs() {
  std::vector<std::string> out;
  for (auto& d : distest::entries_of(kCorpus))
    if (d.is_directory()) out.push_back(d.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

// A type with table references replaced by the adt's name, so two files'
// tables can be compared.
std::string render(const dis::SblType& t, const dis::Sbl& s, int depth = 0) {
  if (depth > 8) return "...";
  std::string out(1, t.kind);
  switch (t.kind) {
    case '@':
      if (t.index >= 0 && static_cast<std::size_t>(t.index) < s.types.size())
        return s.types[static_cast<std::size_t>(t.index)].name;
      return "@?";
    case 'A':
    case 'L':
    case 'C':
    case 'R':
      return out + render(t.sub.at(0), s, depth + 1);
    case 't':
    case 'F': {
      out += std::to_string(t.size) + "(";
      for (auto& id : t.ids)
        out += std::to_string(id.offset) + ":" + render(id.type, s, depth + 1) + ",";
      out += ")";
      if (!t.sub.empty()) out += render(t.sub[0], s, depth + 1);
      return out;
    }
    case 'a':
    case 'p':
    case 'm':
      return out + t.name;
    default:
      return out;
  }
}

std::multiset<std::string> names_and_types(const std::vector<dis::SblId>& ids, const dis::Sbl& s) {
  std::multiset<std::string> out;
  for (auto& id : ids) out.insert(id.name + ":" + render(id.type, s));
  return out;
}

std::vector<std::string> exact(const std::vector<dis::SblId>& ids, const dis::Sbl& s) {
  std::vector<std::string> out;
  for (auto& id : ids)
    out.push_back(std::to_string(id.offset) + ":" + id.name + ":" + render(id.type, s));
  return out;
}

class SblCorpus : public ::testing::TestWithParam<std::string> {};

TEST_P(SblCorpus, TablesMatchInfernos) {
  const std::string name = GetParam();
  fs::path src = kCorpus / name / (name + ".b");
  dis::limbo::CompileOptions opts;
  auto cm = dis::limbo::compile_file_with_symbols(src.string(), opts);
  const dis::Sbl& ours = cm.symbols;
  dis::Sbl theirs = dis::read_sbl_file((kCorpus / name / (name + ".sbl")).string());

  // The written text reads back to the same tables.
  const std::string text = dis::write_sbl(ours);
  EXPECT_EQ(dis::write_sbl(dis::read_sbl(text, "ours.sbl")), text);
  EXPECT_EQ(ours.module, theirs.module);
  EXPECT_EQ(ours.files, theirs.files);
  ASSERT_EQ(ours.pcs.size(), cm.module.code.size());

  // Function table: pc order, matching Module::functions and the entry point.
  ASSERT_EQ(ours.fns.size(), cm.module.functions.size());
  for (std::size_t i = 0; i < ours.fns.size(); ++i) {
    EXPECT_EQ(ours.fns[i].name, cm.module.functions[i].name);
    EXPECT_EQ(ours.fns[i].pc, cm.module.functions[i].pc);
    if (i > 0) {
      EXPECT_LT(ours.fns[i - 1].pc, ours.fns[i].pc);
    }
  }
  ASSERT_FALSE(ours.fns.empty());
  EXPECT_EQ(ours.fns[0].pc, 0);
  bool entry_named = false;
  for (auto& f : ours.fns) entry_named |= f.name == "init" && f.pc == cm.module.entry_pc;
  EXPECT_TRUE(entry_named);

  std::size_t j = 0;
  for (const dis::SblFn& tf : theirs.fns) {
    while (j < ours.fns.size() && ours.fns[j].name != tf.name) ++j;
    ASSERT_LT(j, ours.fns.size()) << "function " << tf.name << " missing or out of order";
    const dis::SblFn& of = ours.fns[j];
    EXPECT_EQ(exact(of.args, ours), exact(tf.args, theirs)) << tf.name;
    EXPECT_EQ(names_and_types(of.locals, ours), names_and_types(tf.locals, theirs)) << tf.name;
    EXPECT_EQ(render(of.ret, ours), render(tf.ret, theirs)) << tf.name;
  }
  EXPECT_EQ(names_and_types(ours.globals, ours), names_and_types(theirs.globals, theirs));

  // Every adt both describe has the same layout.
  std::map<std::string, const dis::SblType*> their_adts;
  for (auto& t : theirs.types) their_adts[t.name] = &t;
  for (auto& t : ours.types) {
    auto it = their_adts.find(t.name);
    // The program's own adts are always described; included ones when used.
    if (t.name.find("->") == std::string::npos) {
      EXPECT_NE(it, their_adts.end()) << t.name;
    }
    if (it == their_adts.end()) continue;
    EXPECT_EQ(t.kind, it->second->kind) << t.name;
    EXPECT_EQ(t.size, it->second->size) << t.name;
    EXPECT_EQ(exact(t.ids, ours), exact(it->second->ids, theirs)) << t.name;
    ASSERT_EQ(t.tags.size(), it->second->tags.size()) << t.name;
    for (std::size_t k = 0; k < t.tags.size(); ++k) {
      EXPECT_EQ(t.tags[k].name, it->second->tags[k].name);
      EXPECT_EQ(t.tags[k].same_as_previous, it->second->tags[k].same_as_previous);
      EXPECT_EQ(t.tags[k].size, it->second->tags[k].size);
      EXPECT_EQ(exact(t.tags[k].fields, ours), exact(it->second->tags[k].fields, theirs));
    }
  }
}

INSTANTIATE_TEST_SUITE_P(All, SblCorpus, ::testing::ValuesIn(programs()),
                         [](const auto& param_info) { return param_info.param; });
// Empty in a clone without ../shared: nothing to instantiate then.
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(SblCorpus);

// The fn table of a small program, exactly.
TEST(SblOwn, FunctionTableOfASmallProgram) {
  const char* src =
      "implement T;\n"
      "include \"sys.m\";\n"
      "T: module { init: fn(nil: ref Draw->Context, a: list of string); };\n"
      "Draw: module { Context: adt { x: int; }; };\n"
      "P: adt { a, b: int; s: string; sum: fn(p: self ref P): int; };\n"
      "g: int;\n"
      "P.sum(p: self ref P): int { t := p.a + p.b; return t; }\n"
      "init(nil: ref Draw->Context, a: list of string) { p := ref P(1, 2, \"x\"); g = p.sum(); "
      "q: big; q = big g; }\n";
  auto cm = dis::limbo::compile_source_with_symbols("t.b", src, {});
  const dis::Sbl& s = cm.symbols;
  ASSERT_EQ(s.fns.size(), 2u);
  EXPECT_EQ(s.fns[0].name, "P.sum");
  EXPECT_EQ(s.fns[0].pc, 0);
  EXPECT_EQ(exact(s.fns[0].args, s), std::vector<std::string>{"32:p:RP"});
  ASSERT_EQ(s.fns[0].locals.size(), 1u);
  EXPECT_EQ(s.fns[0].locals[0].name, "t");
  EXPECT_EQ(render(s.fns[0].ret, s), "i");
  EXPECT_EQ(s.fns[1].name, "init");
  EXPECT_EQ(s.fns[1].pc, cm.module.entry_pc);
  EXPECT_EQ(exact(s.fns[1].args, s), std::vector<std::string>{"36:a:Ls"});
  EXPECT_EQ(names_and_types(s.fns[1].locals, s), (std::multiset<std::string>{"p:RP", "q:B"}));
  EXPECT_EQ(render(s.fns[1].ret, s), "n");
  EXPECT_EQ(exact(s.globals, s).size(), 1u);
  EXPECT_EQ(s.globals[0].name, "g");
  // The adt entry: name, size, fields with their source columns.
  const dis::SblType* p = nullptr;
  for (auto& t : s.types)
    if (t.name == "P") p = &t;
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->size, 12);
  EXPECT_EQ(exact(p->ids, s), (std::vector<std::string>{"0:a:i", "4:b:i", "8:s:s"}));
  EXPECT_EQ(p->ids[2].src.start.line, 5);
  EXPECT_EQ(p->ids[2].src.start.col, 20);
  // Module::functions carries the same names for tools without the tables.
  EXPECT_EQ(dis::sbl_from_module(cm.module).fns.size(), 2u);
}

}  // namespace
