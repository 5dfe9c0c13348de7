// The builtin modules' .m declarations (module/*.m) against the builtin
// tables: every table function is declared, nothing else is, and the
// canonical type string derived from each declaration hashes to the
// table's signature. The derivation here is a small reader of the subset of
// Limbo the .m files use (adts, type aliases, tuples, ref/array/list/chan).
#include <gtest/gtest.h>

#include <cctype>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "builtin_types.h"
#include "signature.h"

namespace {

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<std::string> tokenize(const std::string& text) {
  std::vector<std::string> toks;
  std::size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (c == '#') {
      while (i < text.size() && text[i] != '\n') ++i;
    } else if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
    } else if (c == '"') {
      std::size_t j = text.find('"', i + 1);
      toks.push_back(text.substr(i, j - i + 1));
      i = j + 1;
    } else if (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.') {
      std::size_t j = i;
      while (j < text.size() && (std::isalnum(static_cast<unsigned char>(text[j])) ||
                                 text[j] == '_' || text[j] == '.'))
        ++j;
      toks.push_back(text.substr(i, j - i));
      i = j;
    } else if (c == '-' && i + 1 < text.size() && text[i + 1] == '>') {
      toks.push_back("->");
      i += 2;
    } else {
      toks.push_back(std::string(1, c));
      ++i;
    }
  }
  return toks;
}

// A parsed type expression.
struct Type {
  std::string kind;  // "basic", "array", "list", "chan", "ref", "tuple", "name"
  std::string name;  // basic letter, or adt/alias name
  std::vector<std::shared_ptr<Type>> elems;
};
using TypeP = std::shared_ptr<Type>;

struct Field {
  std::string name;
  TypeP type;
};

struct Func {
  std::vector<TypeP> args;
  bool varargs = false;
  TypeP result;  // null: no result
};

struct ModuleDecl {
  std::string name;
  std::string path;
  std::map<std::string, std::vector<Field>> adts;
  std::map<std::string, TypeP> aliases;
  std::map<std::string, Func> funcs;
};

class Parser {
 public:
  explicit Parser(std::vector<std::string> t) : t_(std::move(t)) {}

  ModuleDecl module() {
    ModuleDecl m;
    // File-level constants before the module (sys.m's SELF) are not part of it.
    while (peek_at(1) == ":" && peek_at(2) == "con") {
      while (next() != ";") {
      }
    }
    m.name = next();
    expect(":");
    expect("module");
    expect("{");
    while (peek() != "}") {
      std::vector<std::string> names{next()};
      while (peek() == ",") {
        next();
        names.push_back(next());
      }
      expect(":");
      const std::string what = peek();
      if (what == "con") {
        next();
        std::string value;
        while (peek() != ";") value += next();
        if (names[0] == "PATH") m.path = value.substr(1, value.size() - 2);
      } else if (what == "adt") {
        next();
        m.adts[names[0]] = adt_body();
      } else if (what == "type") {
        next();
        m.aliases[names[0]] = type();
      } else if (what == "fn") {
        Func f = func();
        for (const auto& n : names) m.funcs[n] = f;
      } else {
        throw std::runtime_error("unexpected declaration " + what);
      }
      expect(";");
    }
    return m;
  }

 private:
  std::vector<Field> adt_body() {
    std::vector<Field> fields;
    expect("{");
    while (peek() != "}") {
      std::vector<std::string> names{next()};
      while (peek() == ",") {
        next();
        names.push_back(next());
      }
      expect(":");
      if (peek() == "fn" || peek() == "con") {  // members that are not data
        while (peek() != ";") next();
      } else {
        TypeP ty = type();
        for (const auto& n : names) fields.push_back({n, ty});
      }
      expect(";");
    }
    expect("}");
    return fields;
  }

  Func func() {
    expect("fn");
    expect("(");
    Func f;
    int pending = 0;  // names waiting for the type that follows them
    while (peek() != ")") {
      if (peek() == "*") {
        next();
        f.varargs = true;
      } else {
        next();  // the argument name
        ++pending;
        if (peek() == ":") {
          next();
          TypeP ty = type();
          for (; pending > 0; --pending) f.args.push_back(ty);
        }
      }
      if (peek() == ",") next();
    }
    expect(")");
    if (peek() == ":") {
      next();
      f.result = type();
    }
    return f;
  }

  TypeP type() {
    auto t = std::make_shared<Type>();
    const std::string w = next();
    static const std::map<std::string, std::string> basic = {
        {"int", "i"}, {"big", "B"}, {"byte", "b"}, {"real", "r"}, {"string", "s"}};
    if (auto it = basic.find(w); it != basic.end()) {
      t->kind = "basic";
      t->name = it->second;
    } else if (w == "array" || w == "list" || w == "chan") {
      expect("of");
      t->kind = w;
      t->elems.push_back(type());
    } else if (w == "ref") {
      t->kind = "ref";
      t->elems.push_back(type());
    } else if (w == "(") {
      t->kind = "tuple";
      t->elems.push_back(type());
      while (peek() == ",") {
        next();
        t->elems.push_back(type());
      }
      expect(")");
    } else {
      t->kind = "name";
      t->name = w;
      if (peek() == "->") {  // Module->Name: the adt's own name is enough here
        next();
        t->name = next();
      }
    }
    return t;
  }

  const std::string& peek() const { return peek_at(0); }
  const std::string& peek_at(std::size_t ahead) const {
    static const std::string end;
    return i_ + ahead < t_.size() ? t_[i_ + ahead] : end;
  }
  std::string next() {
    if (i_ >= t_.size()) throw std::runtime_error("unexpected end");
    return t_[i_++];
  }
  void expect(const std::string& s) {
    if (next() != s)
      throw std::runtime_error("expected " + s + " before token " + std::to_string(i_));
  }

  std::vector<std::string> t_;
  std::size_t i_ = 0;
};

// Writes canonical type strings (DIS-FACTS section 11): adts and tuples are
// numbered as written and a repeat becomes @N. Adts are identified by name
// and tuples by their written form, which is all these files need.
class Canon {
 public:
  explicit Canon(std::vector<const ModuleDecl*> scope) : scope_(std::move(scope)) {}

  std::string func(const Func& f) {
    numbered_.clear();
    std::string s = f.varargs ? "f*(" : "f(";
    for (std::size_t i = 0; i < f.args.size(); ++i) s += (i ? "," : "") + type(f.args[i]);
    s += ")";
    s += f.result ? type(f.result) : "n";
    return s;
  }

 private:
  std::string type(const TypeP& t) {
    if (t->kind == "basic") return t->name;
    if (t->kind == "array") return "A" + type(t->elems[0]);
    if (t->kind == "list") return "L" + type(t->elems[0]);
    if (t->kind == "chan") return "C" + type(t->elems[0]);
    if (t->kind == "ref") return "R" + type(t->elems[0]);
    if (t->kind == "tuple") {
      std::string key = "t:";
      for (const auto& e : t->elems) key += describe(e) + ";";
      if (auto n = number_of(key)) return "@" + std::to_string(n);
      numbered_.push_back(key);
      std::string s = "t(";
      for (std::size_t i = 0; i < t->elems.size(); ++i) s += (i ? "," : "") + type(t->elems[i]);
      return s + ")";
    }
    for (const ModuleDecl* m : scope_) {
      if (auto a = m->aliases.find(t->name); a != m->aliases.end()) return type(a->second);
    }
    for (const ModuleDecl* m : scope_) {
      auto a = m->adts.find(t->name);
      if (a == m->adts.end()) continue;
      const std::string key = "a:" + t->name;
      if (auto n = number_of(key)) return "@" + std::to_string(n);
      numbered_.push_back(key);
      std::string s = "a(";
      for (std::size_t i = 0; i < a->second.size(); ++i)
        s += (i ? "," : "") + a->second[i].name + ":" + type(a->second[i].type);
      return s + ")";
    }
    throw std::runtime_error("unknown type " + t->name);
  }

  // A name-level description, used only as the identity of tuples.
  std::string describe(const TypeP& t) {
    std::string s = t->kind + ":" + t->name + "(";
    for (const auto& e : t->elems) s += describe(e) + ",";
    return s + ")";
  }

  std::size_t number_of(const std::string& key) const {
    for (std::size_t i = 0; i < numbered_.size(); ++i)
      if (numbered_[i] == key) return i + 1;
    return 0;
  }

  std::vector<const ModuleDecl*> scope_;
  std::vector<std::string> numbered_;
};

ModuleDecl load(const std::string& file) {
  return Parser(tokenize(read_text(std::string(DIS_SOURCE_DIR) + "/module/" + file))).module();
}

const std::map<std::string, std::string> kFileOf = {
    {"$Sys", "sys.m"},         {"$Math", "math.m"},   {"$Bench", "bench.m"},
    {"$Keyring", "keyring.m"}, {"$Crypt", "crypt.m"}, {"$IPints", "ipints.m"},
    {"$Loader", "loader.m"}};

// The modules this small parser reads, with the files their types refer
// to. Beyond it: crypt.m's pick adts, loader.m's module types and
// keyring.m's structurally equal adts (PK and SK are one type in a
// signature, and it tells adts apart by name); tests/limbo checks those
// through our compiler and against Inferno's compiled programs.
const std::map<std::string, std::vector<std::string>> kParsed = {
    {"$Sys", {}}, {"$Math", {}}, {"$Bench", {}}, {"$IPints", {}}};

// Module-level functions only: the parser skips adt members ("IPint.add").
bool module_level(std::string_view name) { return name.find('.') == std::string_view::npos; }

}  // namespace

TEST(ModuleDecls, EveryTableFunctionIsDeclaredTextually) {
  for (const auto& m : dis::vm::builtin_modules()) {
    const std::string text =
        read_text(std::string(DIS_SOURCE_DIR) + "/module/" + kFileOf.at(std::string(m.path)));
    EXPECT_NE(text.find("PATH:\tcon \"" + std::string(m.path) + "\";"), std::string::npos)
        << m.path;
    for (const auto& f : m.funcs) {
      // "<tab>name:<white>fn(" somewhere (adt fields may share the name;
      // an adt's function "Adt.name" is declared as its member "name").
      const std::string decl = "\t" + std::string(f.name.substr(f.name.find('.') + 1)) + ":";
      bool found = false;
      for (std::size_t at = text.find(decl); at != std::string::npos && !found;
           at = text.find(decl, at + 1))
        found = text.compare(text.find_first_not_of(" \t", at + decl.size()), 3, "fn(") == 0;
      EXPECT_TRUE(found) << m.path << " " << f.name;
    }
  }
}

TEST(ModuleDecls, DeclaredFunctionsMatchTheTablesExactly) {
  for (const auto& m : dis::vm::builtin_modules()) {
    if (!kParsed.contains(std::string(m.path))) continue;
    const ModuleDecl decl = load(kFileOf.at(std::string(m.path)));
    EXPECT_EQ(decl.path, m.path);
    std::set<std::string> declared, table;
    for (const auto& [name, f] : decl.funcs) declared.insert(name);
    for (const auto& f : m.funcs)
      if (module_level(f.name)) table.insert(std::string(f.name));
    EXPECT_EQ(declared, table) << m.path;
  }
}

TEST(ModuleDecls, DerivedSignaturesMatchTheTables) {
  for (const auto& m : dis::vm::builtin_modules()) {
    auto parsed = kParsed.find(std::string(m.path));
    if (parsed == kParsed.end()) continue;
    const ModuleDecl decl = load(kFileOf.at(std::string(m.path)));
    std::vector<ModuleDecl> others;
    for (const auto& file : parsed->second) others.push_back(load(file));
    std::vector<const ModuleDecl*> scope{&decl};
    for (const auto& o : others) scope.push_back(&o);
    Canon canon(scope);
    for (const auto& f : m.funcs) {
      if (!module_level(f.name)) continue;
      auto it = decl.funcs.find(std::string(f.name));
      ASSERT_NE(it, decl.funcs.end()) << f.name;
      const std::string derived = canon.func(it->second);
      EXPECT_EQ(derived, f.canonical) << m.path << " " << f.name;
      EXPECT_EQ(dis::type_sig(derived), f.sig) << m.path << " " << f.name;
    }
  }
}

TEST(ModuleDecls, DrawContextGivesTheCommandInitSignature) {
  const ModuleDecl sys = load("sys.m");
  const ModuleDecl draw = load("draw.m");
  EXPECT_EQ(draw.path, "$Draw");
  const ModuleDecl cmd =
      Parser(tokenize("Cmd: module { init: fn(ctxt: ref Draw->Context, argv: list of string); };"))
          .module();
  Canon canon({&draw, &sys});
  const std::string s = canon.func(cmd.funcs.at("init"));
  EXPECT_EQ(dis::type_sig(s), 0x4244b354u) << s;
}
