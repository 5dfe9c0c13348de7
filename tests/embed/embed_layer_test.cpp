// The embedding layer (embed/embed.h): C++ functions registered from their
// signatures and called from Limbo, source run in one call, Limbo functions
// called from C++, failures as exceptions both ways.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <stdexcept>

#include "embed.h"

namespace {

using dis::embed::Error;
using dis::embed::Module;
using dis::embed::Script;

// A VM whose program output and diagnostics are kept.
struct Host {
  std::ostringstream out, err;
  dis::embed::VM vm{options()};
  dis::vm::Options options() {
    dis::vm::Options o;
    o.out = &out;
    o.err = &err;
    o.heap_limit = 64 << 20;
    return o;
  }
};

// A program calling $Host's functions as `decl` declares them.
std::string host_program(const std::string& decl, const std::string& body) {
  return "implement T;\n"
         "include \"sys.m\";\n"
         "\tsys: Sys;\n"
         "include \"draw.m\";\n"
         "T: module { init: fn(nil: ref Draw->Context, argv: list of string); };\n"
         "Host: module {\n" +
         decl +
         "};\n"
         "init(nil: ref Draw->Context, argv: list of string)\n"
         "{\n"
         "\tsys = load Sys Sys->PATH;\n"
         "\th := load Host \"$Host\";\n"
         "\tif(h == nil) {\n"
         "\t\tsys->print(\"load: %r\\n\");\n"
         "\t\treturn;\n"
         "\t}\n" +
         body + "}\n";
}

TEST(EmbedModule, TypesFramesAndMapsComeFromTheSignature) {
  Module m("$Host");
  m.def("greet", [](std::string s) { return "hello, " + s; });
  m.def("add", [](int a, int b) { return a + b; });
  m.def("mix", [](int, double, const std::string&) {});
  m.def("big", [](std::int64_t v, std::uint8_t b) -> double { return double(v) + b; });
  m.def("sum", [](std::vector<int> v, std::list<std::string> l) {
    return static_cast<std::int64_t>(v.size() + l.size());
  });
  const auto& f = m.functions();
  ASSERT_EQ(f.size(), 5u);
  EXPECT_EQ(f[0].type, "f(s)s");
  EXPECT_EQ(f[0].frame_size, 40);
  EXPECT_EQ(f[0].map, (std::vector<std::uint8_t>{0x00, 0x80}));  // offset 32
  EXPECT_EQ(f[1].type, "f(i,i)i");
  EXPECT_EQ(f[1].frame_size, 40);
  EXPECT_TRUE(f[1].map.empty());
  // int at 32, real aligned to 40, string at 48 (word 12).
  EXPECT_EQ(f[2].type, "f(i,r,s)n");
  EXPECT_EQ(f[2].frame_size, 56);
  EXPECT_EQ(f[2].map, (std::vector<std::uint8_t>{0x00, 0x08}));
  EXPECT_EQ(f[3].type, "f(B,b)r");
  EXPECT_EQ(f[3].frame_size, 48);
  EXPECT_EQ(f[4].type, "f(Ai,Ls)B");
  EXPECT_EQ(f[4].map, (std::vector<std::uint8_t>{0x00, 0xC0}));
}

TEST(EmbedModule, TuplesAreLaidOutAsLimboLaysThemOut) {
  Module m("$Host");
  m.def("pair", [](std::tuple<int, std::string> p, double) {
    return std::tuple<std::int64_t, std::string>{std::get<0>(p) * 2, std::get<1>(p) + "!"};
  });
  const auto& f = m.functions()[0];
  EXPECT_EQ(f.type, "f(t(i,s),r)t(B,s)");
  // The tuple at 32 (its string at 36, word 9), the real at 40.
  EXPECT_EQ(f.frame_size, 48);
  EXPECT_EQ(f.map, (std::vector<std::uint8_t>{0x00, 0x40}));
  using Big = dis::embed::Marshal<std::tuple<std::uint8_t, double, std::string>>;
  EXPECT_EQ(Big::code(), "t(b,r,s)");
  EXPECT_EQ(Big::size, 24u);
  EXPECT_EQ(Big::align, 8u);
  EXPECT_EQ(Big::pointers(), (std::vector<std::uint32_t>{16}));
}

TEST(EmbedModule, LimboPassesAndGetsTuples) {
  Host h;
  h.vm.add(Module("$Host").def("pair", [](std::tuple<int, std::string> p, double r) {
    return std::tuple<std::int64_t, std::string>{static_cast<std::int64_t>(std::get<0>(p) * r),
                                                 std::get<1>(p) + "!"};
  }));
  h.vm.run_string(host_program("\tpair: fn(p: (int, string), r: real): (big, string);\n",
                               "\t(n, s) := h->pair((21, \"hi\"), 2.0);\n"
                               "\tsys->print(\"%bd %s\\n\", n, s);\n"));
  EXPECT_EQ(h.out.str(), "42 hi!\n") << h.err.str();
}

TEST(EmbedModule, LimboCallsRegisteredFunctions) {
  Host h;
  Module m("$Host");
  m.def("greet", [](std::string s) { return "hello, " + s; });
  m.def("add", [](int a, int b) { return a + b; });
  m.def("scale", [](double x, std::int64_t k) { return x * static_cast<double>(k); });
  m.def("count", [](std::vector<int> v, std::list<std::string> l) {
    int n = 0;
    for (int x : v) n += x;
    for (auto& s : l) n += static_cast<int>(s.size());
    return n;
  });
  m.def("split", [](std::string s) { return std::list<std::string>{s, s + s}; });
  m.def("squares", [](int n) {
    std::vector<std::int64_t> v;
    for (int i = 1; i <= n; ++i) v.push_back(std::int64_t{i} * i << 32);
    return v;
  });
  h.vm.add(m);
  h.vm.run_string(host_program(
      "\tgreet: fn(s: string): string;\n\tadd: fn(a, b: int): int;\n"
      "\tscale: fn(x: real, k: big): real;\n"
      "\tcount: fn(v: array of int, l: list of string): int;\n"
      "\tsplit: fn(s: string): list of string;\n\tsquares: fn(n: int): array of big;\n",
      "\tsys->print(\"%s %d %g\\n\", h->greet(\"dis\"), h->add(40, 2), h->scale(1.5, big 4));\n"
      "\tsys->print(\"%d\\n\", h->count(array[] of {1, 2, 3}, \"ab\" :: \"c\" :: nil));\n"
      "\tl := h->split(\"x\");\n"
      "\tsys->print(\"%s %s %d\\n\", hd l, hd tl l, len l);\n"
      "\ta := h->squares(3);\n"
      "\tsys->print(\"%d %bd\\n\", len a, a[2]);\n"));
  EXPECT_EQ(h.out.str(), "hello, dis 42 6\n9\nx xx 2\n3 38654705664\n") << h.err.str();
}

TEST(EmbedModule, MismatchedDeclarationNamesFunctionAndBothTypes) {
  Host h;
  h.vm.add(Module("$Host").def("greet", [](std::string s) { return s; }));
  // Only the functions a program uses are imported, so checked.
  h.vm.run_string(host_program("\tgreet: fn(n: int): string;\n", "\th->greet(1);\n"));
  EXPECT_EQ(h.out.str(),
            "load: link typecheck Host->greet(): the importer declares f(i)s, $Host provides "
            "f(s)s\n");
}

TEST(EmbedModule, MissingFunctionIsNamed) {
  Host h;
  h.vm.add(Module("$Host").def("greet", [](std::string s) { return s; }));
  h.vm.run_string(host_program("\tgreet: fn(s: string): string;\n\tbye: fn(): int;\n",
                               "\th->greet(\"x\");\n\th->bye();\n"));
  EXPECT_EQ(h.out.str(), "load: link typecheck Host->bye(): $Host has no function bye\n");
}

TEST(EmbedModule, CppExceptionBecomesLimboException) {
  Host h;
  h.vm.add(Module("$Host").def("fail", [](int n) -> int {
    if (n > 0) throw std::runtime_error("no luck");
    return n;
  }));
  const std::string decl = "\tfail: fn(n: int): int;\n";
  h.vm.run_string(host_program(decl,
                               "\t{\n\t\th->fail(1);\n\t} exception e {\n"
                               "\t\"*\" =>\n\t\tsys->print(\"caught %s\\n\", e);\n\t}\n"));
  EXPECT_EQ(h.out.str(), "caught no luck\n");
  // Uncaught, it ends the program at the call's line.
  try {
    h.vm.run_string(host_program(decl, "\th->fail(2);\n"));
    FAIL() << "no exception";
  } catch (const Error& e) {
    EXPECT_EQ(e.message(), "no luck");
    EXPECT_EQ(e.where(), "string.b:17");
    EXPECT_STREQ(e.what(), "string.b:17: no luck");
  }
}

const char* kDivide =
    "implement Calc;\n"
    "include \"sys.m\";\n"
    "\tsys: Sys;\n"
    "include \"draw.m\";\n"
    "Calc: module { init: fn(nil: ref Draw->Context, argv: list of string); };\n"
    "init(nil: ref Draw->Context, argv: list of string)\n"
    "{\n"
    "\tsys = load Sys Sys->PATH;\n"
    "\tsys->print(\"%d args, %s\\n\", len argv, hd tl argv);\n"
    "\tzero := len argv - 2;\n"
    "\tsys->print(\"%d\\n\", 7 / zero);\n"
    "}\n";

TEST(EmbedRun, RunStringPassesArgumentsAndRaisesWithTheLine) {
  Host h;
  try {
    h.vm.run_string(kDivide, {"a"}, "calc.b");
    FAIL() << "no exception";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "calc.b:11: zero divide");
    EXPECT_EQ(e.where(), "calc.b:11");
  }
  EXPECT_EQ(h.out.str(), "2 args, a\n");
}

TEST(EmbedRun, CompileErrorIsAnErrorNamingTheLine) {
  Host h;
  try {
    h.vm.run_string("implement T;\nT: module { init: fn(); };\ninit() { x := ; }\n", {}, "bad.b");
    FAIL() << "no exception";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()).rfind("bad.b:3:", 0), 0u) << e.what();
  }
}

TEST(EmbedRun, RunFileRunsALimboFile) {
  Host h;
  const std::string path = ::testing::TempDir() + "embed_calc.b";
  {
    std::ofstream f(path);
    f << kDivide;
  }
  EXPECT_THROW(h.vm.run_file(path, {"x"}), Error);
  EXPECT_EQ(h.out.str(), "2 args, x\n");
  EXPECT_THROW(h.vm.run_file(path + ".missing"), Error);
}

const char* kLib =
    "implement Lib;\n"
    "Lib: module {\n"
    "\tfib: fn(n: int): int;\n"
    "\tdescribe: fn(a: int, b: big, r: real, s: string, l: list of int, v: array of byte): "
    "string;\n"
    "\tbump: fn(): int;\n"
    "\tdivide: fn(a, b: int): int;\n"
    "\twords: fn(s: string): list of string;\n"
    "\trange: fn(n: int): array of int;\n"
    "\tnothing: fn();\n"
    "\tdivmod: fn(a, b: int): (int, string);\n"
    "};\n"
    "count: int;\n"
    "fib(n: int): int\n{\n\tif(n < 2)\n\t\treturn n;\n\treturn fib(n-1) + fib(n-2);\n}\n"
    "describe(a: int, b: big, r: real, s: string, l: list of int, v: array of byte): string\n"
    "{\n"
    "\treturn string a + \" \" + string b + \" \" + string r + \" \" + s + \" \" +\n"
    "\t\tstring len l + \" \" + string hd l + \" \" + string len v + \" \" + string v[1];\n"
    "}\n"
    "bump(): int\n{\n\tcount++;\n\treturn count;\n}\n"
    "divide(a, b: int): int\n{\n\treturn a / b;\n}\n"
    "words(s: string): list of string\n{\n\treturn s :: \"and\" :: s :: nil;\n}\n"
    "range(n: int): array of int\n{\n\ta := array[n] of int;\n"
    "\tfor(i := 0; i < n; i++)\n\t\ta[i] = i * i;\n\treturn a;\n}\n"
    "nothing()\n{\n}\n"
    "divmod(a, b: int): (int, string)\n{\n\treturn (a / b, string (a % b));\n}\n";

TEST(EmbedCall, CallsLimboFunctionsWithCppValues) {
  Host h;
  Script lib = h.vm.load_string(kLib, "lib.b");
  EXPECT_EQ(lib.call<int>("fib", 20), 6765);
  EXPECT_EQ(lib.call<std::string>("describe", 3, std::int64_t{1} << 40, 2.5, "str",
                                  std::list<int>{7, 8}, std::vector<std::uint8_t>{1, 200}),
            "3 1099511627776 2.5 str 2 7 2 200");
  EXPECT_EQ(lib.call<std::list<std::string>>("words", std::string("x")),
            (std::list<std::string>{"x", "and", "x"}));
  EXPECT_EQ(lib.call<std::vector<int>>("range", 4), (std::vector<int>{0, 1, 4, 9}));
  lib.call("nothing");
  EXPECT_EQ((lib.call<std::tuple<int, std::string>>("divmod", 17, 5)),
            (std::tuple<int, std::string>{3, "2"}));
  // Module data lives between calls.
  EXPECT_EQ(lib.call<int>("bump"), 1);
  EXPECT_EQ(lib.call<int>("bump"), 2);
  auto s = h.vm.vm().stats();
  EXPECT_EQ(s.threads, 8u);  // one per call
}

TEST(EmbedCall, LimboExceptionIsAnErrorWithTheLine) {
  Host h;
  Script lib = h.vm.load_string(kLib, "lib.b");
  EXPECT_EQ(lib.call<int>("divide", 7, 2), 3);
  try {
    lib.call<int>("divide", 1, 0);
    FAIL() << "no exception";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "lib.b:31: zero divide");
  }
  // The module is still usable after a failed call.
  EXPECT_EQ(lib.call<int>("divide", 9, 3), 3);
}

TEST(EmbedCall, WrongTypeOrNameIsAnError) {
  Host h;
  Script lib = h.vm.load_string(kLib, "lib.b");
  try {
    lib.call<int>("fib", "twenty");
    FAIL() << "no exception";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("Lib->fib(): called as f(s)i"), std::string::npos)
        << e.what();
  }
  EXPECT_THROW(lib.call<int>("fibonacci", 1), Error);
  EXPECT_THROW(lib.call<std::string>("fib", 1), Error);
}

TEST(EmbedCall, NothingLeaksAfterTheScriptGoes) {
  Host h;
  {
    Script lib = h.vm.load_string(kLib, "lib.b");
    for (int i = 0; i < 50; ++i) {
      EXPECT_EQ(lib.call<std::list<std::string>>("words", std::string("w")).size(), 3u);
      EXPECT_EQ(lib.call<std::vector<int>>("range", 10).size(), 10u);
    }
  }
  const auto s = h.vm.vm().stats();
  EXPECT_EQ(s.heap.allocs, s.heap.frees);
}

}  // namespace
