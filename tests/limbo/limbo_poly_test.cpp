// Polymorphic code laid out as Inferno's compiler lays it out: signatures
// with `()` after `f` and `P` for each use of a parameter, the .sbl's `P`
// type, hidden (module, link index) arguments for functions a for clause
// requires, called with mframe/mcall through the frame, and this module's
// adt functions reached through "$self"; programs of ours calling Inferno's
// compiled Sort and Lists (with function references) and ours alike.
// (polymorphism.b, fn_refs.b and poly_errors.b under programs/ run and
// refuse such code.)
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <sstream>
#include <string>

#include "compiler.h"
#include "dis_file.h"
#include "sbl.h"
#include "vm.h"

namespace {

const char* kSource =
    "implement S;\n"
    "include \"sys.m\";\n"
    "S: module {\n"
    "  sort: fn[S, T](s: S, a: array of T)\n"
    "    for { S => gt: fn(s: self S, x, y: T): int; };\n"
    "  init: fn(nil: ref Draw->Context, nil: list of string);\n"
    "};\n"
    "Draw: module { Context: adt { x: int; }; };\n"
    "By: adt { n: int; gt: fn(b: self ref By, x, y: string): int; };\n"
    "By.gt(b: self ref By, x, y: string): int { return len x > len y + b.n; }\n"
    "sort[S, T](s: S, a: array of T)\n"
    "  for { S => gt: fn(s: self S, x, y: T): int; }\n"
    "{\n"
    "  for(i := 1; i < len a; i++)\n"
    "    if(s.gt(a[i-1], a[i])) { t := a[i]; a[i] = a[i-1]; a[i-1] = t; }\n"
    "}\n"
    "init(nil: ref Draw->Context, nil: list of string)\n"
    "{\n"
    "  sort(ref By(0), array[] of {\"ccc\", \"a\", \"bb\"});\n"
    "}\n";

const dis::Link* link_named(const dis::Module& m, const std::string& name) {
  for (auto& l : m.links)
    if (l.name == name) return &l;
  return nullptr;
}

TEST(LimboPoly, SignatureIsInfernos) {
  auto m = dis::limbo::compile_source("s.b", kSource, {});
  const dis::Link* l = link_named(m, "sort");
  ASSERT_NE(l, nullptr);
  // Inferno's compiler signs fn[S, T](s: S, a: array of T) as f()(P,AP)n.
  EXPECT_EQ(l->sig, 0xdbbce348u);
}

TEST(LimboPoly, RequiredFunctionTravelsAsHiddenArguments) {
  auto m = dis::limbo::compile_source("s.b", kSource, {});
  const dis::Link* sort = link_named(m, "sort");
  ASSERT_NE(sort, nullptr);
  // In sort: s at 32, a at 36, gt's module at 40 and link index at 44.
  auto mframe = std::find_if(m.code.begin(), m.code.end(),
                             [](const dis::Instruction& i) { return i.op == dis::Op::mframe_; });
  ASSERT_NE(mframe, m.code.end());
  EXPECT_EQ(mframe->src, (dis::Operand{dis::AddrMode::Fp, 40, 0}));
  EXPECT_EQ(mframe->mid, (dis::Middle{dis::MidMode::Fp, 44}));
  auto mcall = std::find_if(m.code.begin(), m.code.end(),
                            [](const dis::Instruction& i) { return i.op == dis::Op::mcall_; });
  ASSERT_NE(mcall, m.code.end());
  EXPECT_EQ(mcall->dst, (dis::Operand{dis::AddrMode::Fp, 40, 0}));
  // By.gt is reached through the module's own links: exported, and the
  // caller loads "$self" with an import table listing every link.
  const dis::Link* gt = link_named(m, "By.gt");
  ASSERT_NE(gt, nullptr);
  // After the module's declared functions, as Inferno appends it.
  ASSERT_EQ(m.links.size(), 3u);
  EXPECT_EQ(m.links[0].name, "init");
  EXPECT_EQ(m.links[1].name, "sort");
  EXPECT_EQ(m.links[2].name, "By.gt");
  auto load = std::find_if(m.code.begin(), m.code.end(),
                           [](const dis::Instruction& i) { return i.op == dis::Op::load_; });
  ASSERT_NE(load, m.code.end());
  ASSERT_EQ(load->mid.mode, dis::MidMode::Imm);
  const auto& table = m.imports.at(static_cast<std::size_t>(load->mid.a));
  ASSERT_EQ(table.size(), m.links.size());
  std::int32_t gt_index = -1;
  for (std::size_t i = 0; i < table.size(); ++i) {
    EXPECT_EQ(table[i].name, m.links[i].name);
    EXPECT_EQ(table[i].sig, m.links[i].sig);
    if (table[i].name == "By.gt") gt_index = static_cast<std::int32_t>(i);
  }
  // The caller stores that index in the frame's word after the module value.
  bool passed = false;
  for (auto& i : m.code)
    passed |= i.op == dis::Op::movw_ && i.src == dis::Operand{dis::AddrMode::Imm, gt_index, 0} &&
              i.dst.mode == dis::AddrMode::IndFp && i.dst.b == 44;
  EXPECT_TRUE(passed);
}

TEST(LimboPoly, SblRecordsTypeParametersAsP) {
  auto cm = dis::limbo::compile_source_with_symbols("s.b", kSource, {});
  const dis::Sbl& s = cm.symbols;
  auto f = std::find_if(s.fns.begin(), s.fns.end(), [](auto& fn) { return fn.name == "sort"; });
  ASSERT_NE(f, s.fns.end());
  ASSERT_EQ(f->args.size(), 2u);
  EXPECT_EQ(f->args[0].type.kind, 'P');
  EXPECT_EQ(f->args[1].type.kind, 'A');
  ASSERT_EQ(f->args[1].type.sub.size(), 1u);
  EXPECT_EQ(f->args[1].type.sub[0].kind, 'P');
}

// References to sort bound alike share one wrapper, another binding gets
// its own; each is a link reached through "$self", named by its binding in
// the .sbl, its code on the line of the reference that made it.
TEST(LimboPoly, WrapsForClauseReferencesOncePerBinding) {
  std::string src = kSource;
  src.replace(src.rfind('}'), 1,
              "  f := sort[ref By, string];\n"
              "  g: ref fn(s: ref By, a: array of string);\n"
              "  g = sort;\n"
              "  h := sort[ref Cy, list of int];\n"
              "}\n"
              "Cy: adt { gt: fn(c: self ref Cy, x, y: list of int): int; };\n"
              "Cy.gt(c: self ref Cy, x, y: list of int): int { return hd x > hd y; }\n");
  auto cm = dis::limbo::compile_source_with_symbols("s.b", src, {});
  const dis::Module& m = cm.module;
  ASSERT_NE(link_named(m, "sort[ref By, string]"), nullptr);
  ASSERT_NE(link_named(m, "sort[ref Cy, list of int]"), nullptr);
  EXPECT_EQ(m.links.size(), 6u);  // init, sort, By.gt, the two wrappers, Cy.gt
  const dis::Sbl& s = cm.symbols;
  for (auto [name, line] : {std::pair<std::string, int>{"sort[ref By, string]", 20},
                            {"sort[ref Cy, list of int]", 23}}) {
    auto f = std::find_if(s.fns.begin(), s.fns.end(), [&](auto& fn) { return fn.name == name; });
    ASSERT_NE(f, s.fns.end()) << name;
    ASSERT_EQ(f->args.size(), 2u);
    EXPECT_EQ(f->args[0].name, "s");
    auto next = f + 1;
    std::size_t end = next == s.fns.end() ? s.pcs.size() : static_cast<std::size_t>(next->pc);
    ASSERT_LT(static_cast<std::size_t>(f->pc), end);
    for (std::size_t pc = static_cast<std::size_t>(f->pc); pc < end; ++pc)
      EXPECT_EQ(s.pcs[pc].src.start.line, line) << name << " pc " << pc;
  }
}

// A reference whose function is reached through a local module value: the
// wrapper, compiled in its own frame, could not reach it.
TEST(LimboPoly, RefusesForClauseReferenceThroughLocalModule) {
  std::string src = kSource;
  src.replace(src.rfind('}'), 1,
              "  m := load S \"s.dis\";\n"
              "  f := m->sort[ref By, string];\n"
              "}\n");
  try {
    dis::limbo::compile_source("s.b", src, {});
    FAIL() << "compiled";
  } catch (const dis::InputError& e) {
    ASSERT_EQ(e.diagnostics().size(), 1u) << e.what();
    EXPECT_EQ(e.diagnostics()[0].line, 21);
    EXPECT_NE(e.diagnostics()[0].message.find("must name it (or its module value) at top level"),
              std::string::npos)
        << e.what();
  }
}

namespace fs = std::filesystem;

const fs::path kInferno = fs::path(DIS_SHARED_DIR) / "corpus" / "inferno";

// What program prints when `lib` is the library at /dis/lib/NAME.dis.
std::string run_with_library(const dis::Module& program, const dis::Module& lib,
                             const std::string& name) {
  fs::path root = fs::temp_directory_path() / ("limbo_poly_" + std::to_string(::getpid()));
  fs::create_directories(root / "dis" / "lib");
  dis::write_dis_file(lib, (root / "dis" / "lib" / (name + ".dis")).string());
  std::ostringstream out, err;
  dis::vm::Options vo;
  vo.out = &out;
  vo.err = &err;
  vo.root = root.string();
  dis::vm::VM vm(vo);
  auto r = vm.run_module(program, "u.b", {"u"});
  fs::remove_all(root);
  return out.str() + "status " + std::to_string(r.status) + "\n" + err.str();
}

// The program run with Inferno's compiled library NAME and with ours
// compiled from the same source: both print want.
void expect_alike(const char* program, const std::string& name, const std::string& want) {
  dis::limbo::CompileOptions opts;
  opts.include_dirs.push_back((kInferno / "module").string());
  dis::Module prog = dis::limbo::compile_source("u.b", program, opts);
  dis::Module ours =
      dis::limbo::compile_file((kInferno / "appl/lib" / (name + ".b")).string(), opts);
  dis::Module theirs = dis::read_dis_file((kInferno / "ref/lib" / (name + ".dis")).string());
  EXPECT_EQ(run_with_library(prog, theirs, name), want) << "with Inferno's " << name;
  EXPECT_EQ(run_with_library(prog, ours, name), want) << "with our " << name;
}

// A program of ours sorting by Sort->sort (s, a module value at top level)
// with Len, which orders strings by length (reversed when rev is set):
// decls after Len, before ahead of the two sorts in init, by calling sorter,
// and after them.
std::string sort_user(const std::string& decls, const std::string& before,
                      const std::string& sorter, const std::string& after) {
  return "implement U;\n"
         "include \"sys.m\"; sys: Sys;\n"
         "include \"draw.m\";\n"
         "include \"sort.m\"; s: Sort;\n"
         "U: module { init: fn(nil: ref Draw->Context, nil: list of string); };\n"
         "Len: adt { rev: int; gt: fn(l: self ref Len, x, y: string): int; };\n"
         "Len.gt(l: self ref Len, x, y: string): int\n"
         "{ if(l.rev) return len x < len y; return len x > len y; }\n" +
         decls +
         "init(nil: ref Draw->Context, nil: list of string)\n"
         "{\n"
         "  sys = load Sys Sys->PATH;\n"
         "  s = load Sort Sort->PATH;\n"
         "  a := array[] of {\"dddd\", \"a\", \"ccc\", \"bb\", \"eeeee\"};\n" +
         before + "  " + sorter + "(ref Len(0), a);\n" +
         "  for(i := 0; i < len a; i++) sys->print(\" %s\", a[i]);\n"
         "  " +
         sorter + "(ref Len(1), a);\n" +
         "  for(i = 0; i < len a; i++) sys->print(\" %s\", a[i]);\n" + after +
         "  sys->print(\"\\n\");\n"
         "}\n";
}

// Our caller against Inferno's polymorphic module and against ours compiled
// from the same source: the hidden arguments agree both ways (Sort calls
// back into the caller's $self through them).
TEST(LimboPoly, CallsInfernosSortModuleAndOursAlike) {
  if (!fs::exists(kInferno / "index.tsv")) GTEST_SKIP() << "../shared/corpus/inferno is absent";
  expect_alike(sort_user("", "", "s->sort", "").c_str(), "sort",
               " a bb ccc dddd eeeee eeeee dddd ccc bb a\nstatus 0\n");
}

// References to Sort->sort (a for clause: its gt travels hidden): their
// wrappers call Inferno's module and ours alike, each with its binding's gt.
TEST(LimboPoly, RefersToInfernosSortThroughWrappersAlike) {
  if (!fs::exists(kInferno / "index.tsv")) GTEST_SKIP() << "../shared/corpus/inferno is absent";
  std::string user = sort_user(
      "Val: adt { gt: fn(v: self ref Val, x, y: string): int; };\n"
      "Val.gt(v: self ref Val, x, y: string): int { return x > y; }\n",
      "  f := s->sort[ref Len, string];\n", "f",
      "  g: ref fn(v: ref Val, a: array of string);\n"
      "  g = s->sort;\n"
      "  b := array[] of {\"c\", \"a\", \"b\"};\n"
      "  g(nil, b);\n"
      "  sys->print(\" %s%s%s\", b[0], b[1], b[2]);\n");
  expect_alike(user.c_str(), "sort", " a bb ccc dddd eeeee eeeee dddd ccc bb a abc\nstatus 0\n");
}

// Function references handed to Inferno's polymorphic Lists (map, filter)
// and to ours: the (module, index) object agrees with Inferno's.
TEST(LimboPoly, PassesFunctionReferencesToListsAlike) {
  if (!fs::exists(kInferno / "index.tsv")) GTEST_SKIP() << "../shared/corpus/inferno is absent";
  const char* user =
      "implement U;\n"
      "include \"sys.m\"; sys: Sys;\n"
      "include \"draw.m\";\n"
      "include \"lists.m\";\n"
      "U: module { init: fn(nil: ref Draw->Context, nil: list of string); };\n"
      "twice(s: string): string { return s + s; }\n"
      "short(s: string): int { return len s < 3; }\n"
      "init(nil: ref Draw->Context, nil: list of string)\n"
      "{\n"
      "  sys = load Sys Sys->PATH;\n"
      "  lists := load Lists Lists->PATH;\n"
      "  l := lists->map(twice, \"a\" :: \"bc\" :: \"d\" :: nil);\n"
      "  for(m := lists->filter(short, l); m != nil; m = tl m) sys->print(\" %s\", hd m);\n"
      "  sys->print(\" %d\\n\", lists->allsat(short, lists->reverse[string](l)));\n"
      "}\n";
  expect_alike(user, "lists", " aa dd 0\nstatus 0\n");
}

// A polymorphic adt of Inferno's Tables instantiated with a ref adt and
// with string, through Inferno's module and ours.
TEST(LimboPoly, UsesTablesInstancesAlike) {
  if (!fs::exists(kInferno / "index.tsv")) GTEST_SKIP() << "../shared/corpus/inferno is absent";
  const char* user =
      "implement U;\n"
      "include \"sys.m\"; sys: Sys;\n"
      "include \"draw.m\";\n"
      "include \"tables.m\";\n"
      "  tables: Tables; Table, Strhash: import tables;\n"
      "U: module { init: fn(nil: ref Draw->Context, nil: list of string); };\n"
      "P: adt { x, y: int; };\n"
      "init(nil: ref Draw->Context, nil: list of string)\n"
      "{\n"
      "  sys = load Sys Sys->PATH;\n"
      "  tables = load Tables Tables->PATH;\n"
      "  t := Table[ref P].new(7, nil);\n"
      "  for(i := 0; i < 20; i++) t.add(i, ref P(i, i * i));\n"
      "  p := t.find(12);\n"
      "  sys->print(\"%d %d %d\", p.y, t.del(12), t.find(12) == nil);\n"
      "  h := Strhash[string].new(0, \"none\");\n"
      "  h.add(\"k\", \"v\");\n"
      "  sys->print(\" %s %s\\n\", h.find(\"k\"), h.find(\"j\"));\n"
      "}\n";
  expect_alike(user, "tables", "144 1 1 v none\nstatus 0\n");
}

}  // namespace
