// The builtin tables: every row's sig is the hash of its canonical string,
// and every row's frame size and pointer map follow from its argument types
// by Inferno's frame rule (recomputed here from the canonical string).
#include "builtin_types.h"

#include <gtest/gtest.h>

#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "signature.h"

namespace {

using dis::vm::BuiltinFunc;

// A small reader of canonical type strings that knows the by-value layout of
// each type: enough to recompute a builtin's frame from its signature.
class Layout {
 public:
  explicit Layout(std::string_view s) : s_(s) {}

  struct Frame {
    std::int32_t size = 0;
    std::vector<std::uint8_t> map;
  };

  Frame function_frame() {
    expect('f');
    if (peek() == '*') ++pos_;
    if (s_.substr(pos_, 3) == "()(") pos_ += 2;  // type parameters
    expect('(');
    std::vector<int> args;
    while (peek() != ')') {
      if (peek() == 'S') ++pos_;  // self
      args.push_back(type());
      if (peek() == ',') ++pos_;
    }
    ++pos_;
    type();  // result
    if (pos_ != s_.size()) throw std::runtime_error("trailing text");
    Frame f;
    std::int32_t off = 32;
    std::vector<std::int32_t> ptrs;
    for (int a : args) {
      off = align(off, align_of(a));
      pointers(a, off, ptrs);
      off += size_of(a);
    }
    f.size = align(off, 8);
    for (std::int32_t p : ptrs) {
      std::size_t w = static_cast<std::size_t>(p / 4);
      if (f.map.size() <= w / 8) f.map.resize(w / 8 + 1);
      f.map[w / 8] |= static_cast<std::uint8_t>(0x80 >> (w % 8));
    }
    while (!f.map.empty() && f.map.back() == 0) f.map.pop_back();
    return f;
  }

 private:
  struct Node {
    char kind;               // i B b r s(pointer-like) t a
    std::vector<int> elems;  // by-value members of t/a
  };

  char peek() const { return pos_ < s_.size() ? s_[pos_] : '\0'; }
  void expect(char c) {
    if (peek() != c) throw std::runtime_error(std::string("expected ") + c);
    ++pos_;
  }
  int add(char kind) {
    nodes_.push_back({kind, {}});
    return static_cast<int>(nodes_.size()) - 1;
  }
  int number(int node) {
    numbered_.push_back(node);
    return node;
  }
  std::string name_until(char stop) {
    std::size_t end = s_.find(stop, pos_);
    if (end == std::string_view::npos) throw std::runtime_error("unterminated name");
    std::string n(s_.substr(pos_, end - pos_));
    pos_ = end + 1;
    return n;
  }

  // Fields "name:[y]type" and pick arms "Tag=>type", comma separated.
  void fields(int owner) {
    while (peek() != ')') {
      if (peek() == ',') {
        ++pos_;
        continue;
      }
      std::size_t colon = s_.find(':', pos_), arrow = s_.find("=>", pos_);
      if (arrow < colon) {
        pos_ = arrow + 2;
        type();
        continue;
      }
      name_until(':');
      if (peek() == 'y') ++pos_;
      int e = type();  // may grow nodes_: evaluate first
      nodes_[owner].elems.push_back(e);
    }
    ++pos_;
  }

  int type() {
    char c = s_[pos_++];
    switch (c) {
      case 'i':
      case 'B':
      case 'b':
      case 'r':
      case 'n':
      case 'P':
        return add(c);
      case 's':
        return add('s');
      case 'R':
      case 'L':
      case 'A':
      case 'C':
        type();
        return add('s');
      case 'm': {
        // A module value ($Loader's Nilmod) is one pointer; skip its members.
        int depth = 0;
        do {
          if (peek() == '{') ++depth;
          if (peek() == '}') --depth;
          ++pos_;
        } while (depth > 0 && pos_ < s_.size());
        return add('s');
      }
      case 'f':
        // Function values only occur behind a ref; the builtin tables have none.
        throw std::runtime_error("function types are not laid out here");
      case 't': {
        int n = number(add('t'));
        expect('(');
        while (peek() != ')') {
          int e = type();
          nodes_[n].elems.push_back(e);
          if (peek() == ',') ++pos_;
        }
        ++pos_;
        return n;
      }
      case 'a': {
        int n = number(add('a'));
        expect('(');
        fields(n);
        return n;
      }
      case 'p': {
        int n = number(add('a'));
        expect('(');
        fields(n);
        type();  // parent adt
        return n;
      }
      case '@': {
        std::size_t end = pos_;
        while (end < s_.size() && isdigit(static_cast<unsigned char>(s_[end]))) ++end;
        int k = std::stoi(std::string(s_.substr(pos_, end - pos_)));
        pos_ = end;
        return numbered_.at(static_cast<std::size_t>(k - 1));
      }
      default:
        throw std::runtime_error(std::string("unexpected ") + c);
    }
  }

  static std::int32_t align(std::int32_t v, std::int32_t a) { return (v + a - 1) / a * a; }
  std::int32_t align_of(int n) const {
    const Node& t = nodes_[static_cast<std::size_t>(n)];
    switch (t.kind) {
      case 'b':
        return 1;
      case 'B':
      case 'r':
        return 8;
      case 't':
      case 'a': {
        std::int32_t a = 1;
        for (int e : t.elems) a = std::max(a, align_of(e));
        return a;
      }
      default:
        return 4;
    }
  }
  std::int32_t size_of(int n) const {
    const Node& t = nodes_[static_cast<std::size_t>(n)];
    switch (t.kind) {
      case 'b':
        return 1;
      case 'B':
      case 'r':
        return 8;
      case 't':
      case 'a': {
        std::int32_t off = 0;
        for (int e : t.elems) off = align(off, align_of(e)) + size_of(e);
        return align(off, align_of(n));
      }
      default:
        return 4;
    }
  }
  void pointers(int n, std::int32_t at, std::vector<std::int32_t>& out) const {
    const Node& t = nodes_[static_cast<std::size_t>(n)];
    if (t.kind == 's') out.push_back(at);
    if (t.kind != 't' && t.kind != 'a') return;
    std::int32_t off = 0;
    for (int e : t.elems) {
      off = align(off, align_of(e));
      pointers(e, at + off, out);
      off += size_of(e);
    }
  }

  std::string_view s_;
  std::size_t pos_ = 0;
  std::vector<Node> nodes_;
  std::vector<int> numbered_;
};

bool varargs(const BuiltinFunc& f) { return f.canonical.substr(0, 2) == "f*"; }

}  // namespace

TEST(BuiltinTypes, ModulesAndRowCounts) {
  auto mods = dis::vm::builtin_modules();
  ASSERT_EQ(mods.size(), 7u);
  EXPECT_EQ(dis::vm::find_builtin_module("$Sys")->funcs.size(), 43u);
  EXPECT_EQ(dis::vm::find_builtin_module("$Math")->funcs.size(), 68u);
  EXPECT_EQ(dis::vm::find_builtin_module("$Bench")->funcs.size(), 6u);  // 5 + nsec
  EXPECT_EQ(dis::vm::find_builtin_module("$Keyring")->funcs.size(), 94u);
  EXPECT_EQ(dis::vm::find_builtin_module("$Crypt")->funcs.size(), 36u);
  EXPECT_EQ(dis::vm::find_builtin_module("$IPints")->funcs.size(), 35u);
  EXPECT_EQ(dis::vm::find_builtin_module("$Loader")->funcs.size(), 8u);
  EXPECT_EQ(dis::vm::find_builtin_module("Sys"), nullptr);
}

TEST(BuiltinTypes, EveryRowSigIsTheHashOfItsType) {
  int rows = 0;
  for (const auto& m : dis::vm::builtin_modules()) {
    for (const BuiltinFunc& f : m.funcs) {
      EXPECT_EQ(dis::type_sig(f.canonical), f.sig) << m.path << " " << f.name;
      ++rows;
    }
  }
  EXPECT_EQ(rows, 117 + 94 + 36 + 35 + 8);
}

TEST(BuiltinTypes, SortedByteWiseAndUnique) {
  for (const auto& m : dis::vm::builtin_modules()) {
    for (std::size_t i = 1; i < m.funcs.size(); ++i)
      EXPECT_LT(m.funcs[i - 1].name, m.funcs[i].name) << m.path;
  }
}

TEST(BuiltinTypes, FrameSizeAndMapFollowTheFrameRule) {
  for (const auto& m : dis::vm::builtin_modules()) {
    for (const BuiltinFunc& f : m.funcs) {
      SCOPED_TRACE(std::string(m.path) + " " + std::string(f.name));
      Layout::Frame want = Layout(f.canonical).function_frame();
      if (varargs(f)) {
        EXPECT_EQ(f.frame_size, 0);  // callers size varargs frames themselves
        EXPECT_EQ(f.np, 0);
        continue;
      }
      EXPECT_EQ(f.frame_size, want.size);
      ASSERT_EQ(f.np, want.map.size());
      for (std::size_t i = 0; i < want.map.size(); ++i) EXPECT_EQ(f.map[i], want.map[i]) << i;
    }
  }
}

TEST(BuiltinTypes, LookupByName) {
  const BuiltinFunc* p = dis::vm::find_builtin("$Sys", "print");
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->sig, 0xac849033u);
  EXPECT_EQ(p->canonical, "f*(s)i");
  const BuiltinFunc* fw = dis::vm::find_builtin("$Sys", "fwstat");
  ASSERT_NE(fw, nullptr);
  EXPECT_EQ(fw->frame_size, 104);
  EXPECT_EQ(fw->np, 2);
  EXPECT_EQ(fw->map[1], 0xbc);
  const BuiltinFunc* ns = dis::vm::find_builtin("$Bench", "nsec");
  ASSERT_NE(ns, nullptr);
  EXPECT_EQ(ns->canonical, "f()B");
  EXPECT_EQ(ns->sig, dis::vm::find_builtin("$Bench", "microsec")->sig);
  const BuiltinFunc* g = dis::vm::find_builtin("$Math", "gemm");
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(g->frame_size, 96);
  EXPECT_EQ(dis::vm::find_builtin("$Math", "FPcontrol")->sig, 0x6584767bu);
  EXPECT_EQ(dis::vm::find_builtin("$Sys", "nosuch"), nullptr);
  EXPECT_EQ(dis::vm::find_builtin("$Nope", "print"), nullptr);
}
