#include "parser.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "data_dirs.h"
#include "lexer.h"

namespace dis::limbo {

namespace fs = std::filesystem;

namespace {

struct SyntaxError {};  // unwinds to the nearest recovery point

constexpr std::size_t kMaxErrors = 30;
constexpr int kMaxIncludeDepth = 16;
constexpr int kMaxNesting = 1000;  // bounds recursion on hostile input

int binary_prec(const std::string& op) {
  if (op == "**") return 12;
  if (op == "*" || op == "/" || op == "%") return 11;
  if (op == "+" || op == "-") return 10;
  if (op == "<<" || op == ">>") return 9;
  if (op == "<" || op == ">" || op == "<=" || op == ">=") return 8;
  if (op == "==" || op == "!=") return 7;
  if (op == "&") return 6;
  if (op == "^") return 5;
  if (op == "|") return 4;
  if (op == "::") return 3;
  if (op == "&&") return 2;
  if (op == "||") return 1;
  return -1;
}

bool is_assign_op(const std::string& op) {
  return op == "=" || op == ":=" || op == "<-=" || op == "+=" || op == "-=" || op == "*=" ||
         op == "/=" || op == "%=" || op == "&=" || op == "|=" || op == "^=" || op == "<<=" ||
         op == ">>=" || op == "**=";
}

std::string read_text(const std::string& path, bool& ok) {
  std::ifstream in(path, std::ios::binary);
  ok = static_cast<bool>(in);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

class Parser {
 public:
  Parser(Program& prog, std::vector<Diagnostic>& errs, const std::vector<std::string>& dirs)
      : prog_(prog), errs_(errs), dirs_(dirs) {}

  void parse_file(const std::string& path, const std::string& src, int depth) {
    int file = static_cast<int>(prog_.files.size());
    prog_.files.push_back(path);
    auto toks = lex(src, path, errs_);
    // Save the state of an including file while its include is parsed.
    std::vector<Token> saved_toks;
    saved_toks.swap(toks_);
    toks_ = std::move(toks);
    std::size_t saved_p = p_;
    int saved_file = file_;
    std::string saved_path = path_;
    p_ = 0;
    file_ = file;
    path_ = path;
    while (cur().kind != Tok::End && errs_.size() < kMaxErrors) {
      try {
        top_decl(depth);
      } catch (SyntaxError&) {
        recover_top();
      }
    }
    toks_.swap(saved_toks);
    p_ = saved_p;
    file_ = saved_file;
    path_ = saved_path;
  }

 private:
  Program& prog_;
  std::vector<Diagnostic>& errs_;
  const std::vector<std::string>& dirs_;
  std::vector<Token> toks_;
  std::size_t p_ = 0;
  int file_ = 0;
  std::string path_;
  int nest_ = 0;

  struct NestGuard {
    Parser& p;
    explicit NestGuard(Parser& pp) : p(pp) {
      if (++p.nest_ > kMaxNesting) {
        p.error_at(p.cur(), "expression or statement nested too deeply");
      }
    }
    ~NestGuard() { --p.nest_; }
  };

  const Token& cur() const { return toks_[p_]; }
  const Token& peek(std::size_t k) const {
    return p_ + k < toks_.size() ? toks_[p_ + k] : toks_.back();
  }
  bool is(const char* text) const {
    return (cur().kind == Tok::Punct || cur().kind == Tok::Keyword) && cur().text == text;
  }
  bool is_at(std::size_t k, const char* text) const {
    const Token& t = peek(k);
    return (t.kind == Tok::Punct || t.kind == Tok::Keyword) && t.text == text;
  }
  bool accept(const char* text) {
    if (!is(text)) return false;
    ++p_;
    return true;
  }
  Pos pos_of(const Token& t) const { return Pos{file_, t.line, t.col, t.line, t.end_col}; }
  Pos here() const { return pos_of(cur()); }
  void finish(Pos& p) const {
    const Token& t = p_ > 0 ? toks_[p_ - 1] : toks_[0];
    p.end_line = t.line;
    p.end_col = t.end_col;
  }

  static std::string describe(const Token& t) {
    switch (t.kind) {
      case Tok::End:
        return "end of file";
      case Tok::Ident:
        return "'" + t.text + "'";
      case Tok::IntLit:
      case Tok::RealLit:
        return "number";
      case Tok::StrLit:
        return "string";
      case Tok::CharLit:
        return "character constant";
      default:
        return "'" + t.text + "'";
    }
  }

  [[noreturn]] void error_at(const Token& t, const std::string& msg) {
    errs_.push_back(Diagnostic{path_, t.line, t.col + 1, -1, msg});
    throw SyntaxError{};
  }
  void expect(const char* text) {
    if (!accept(text))
      error_at(cur(), std::string("expected '") + text + "', found " + describe(cur()));
  }
  std::string ident() {
    if (cur().kind != Tok::Ident) error_at(cur(), "expected identifier, found " + describe(cur()));
    return toks_[p_++].text;
  }

  void recover_top() {
    // Skip to the end of the current declaration: a `;` at brace depth 0, or
    // a closing `}` that returns to depth 0.
    int depth = 0;
    while (cur().kind != Tok::End) {
      if (is("{")) ++depth;
      if (is("}")) {
        if (--depth <= 0) {
          ++p_;
          accept(";");
          return;
        }
      }
      if (is(";") && depth == 0) {
        ++p_;
        return;
      }
      ++p_;
    }
  }

  void recover_stmt() {
    int depth = 0;
    while (cur().kind != Tok::End) {
      if (is("{")) ++depth;
      if (is("}")) {
        if (depth == 0) return;  // leave the block's closer for the block
        if (--depth == 0) {
          ++p_;
          return;
        }
      }
      if (is(";") && depth == 0) {
        ++p_;
        return;
      }
      ++p_;
    }
  }

  // ---- declarations ----

  void top_decl(int depth) {
    if (accept(";")) return;
    if (is("implement")) {
      auto d = std::make_shared<Decl>();
      d->kind = Decl::Implement;
      d->pos = here();
      ++p_;
      d->names.push_back(ident());
      while (accept(",")) d->names.push_back(ident());
      expect(";");
      prog_.decls.push_back(d);
      return;
    }
    if (is("include")) {
      Token at = cur();
      ++p_;
      if (cur().kind != Tok::StrLit) error_at(cur(), "expected file name string after include");
      std::string name = cur().text;
      ++p_;
      expect(";");
      if (depth >= kMaxIncludeDepth) error_at(at, "includes nested too deeply");
      std::string found = find_include(name, path_, dirs_);
      if (found.empty()) {
        errs_.push_back(Diagnostic{path_, at.line, at.col + 1, -1,
                                   "cannot find include file \"" + name + "\""});
        return;
      }
      bool ok = false;
      std::string text = read_text(found, ok);
      if (!ok) {
        errs_.push_back(Diagnostic{path_, at.line, at.col + 1, -1,
                                   "cannot read include file \"" + found + "\""});
        return;
      }
      parse_file(found, text, depth + 1);
      return;
    }
    if (cur().kind != Tok::Ident) error_at(cur(), "expected declaration, found " + describe(cur()));
    // Function definition: name( or Adt.name(
    if (is_at(1, "(") || (is_at(1, ".") && peek(2).kind == Tok::Ident && is_at(3, "("))) {
      auto d = std::make_shared<Decl>();
      d->kind = Decl::Func;
      d->pos = here();
      std::string first = ident();
      if (accept(".")) {
        d->adt = first;
        d->name = ident();
      } else {
        d->name = first;
      }
      d->type = fn_rest(d->pos);
      if (!is("{")) error_at(cur(), "expected function body, found " + describe(cur()));
      d->body = block();
      finish(d->pos);
      prog_.decls.push_back(d);
      return;
    }
    prog_.decls.push_back(named_decl());
  }

  // `names : ...` or `name := expr`, at top level, inside modules or (via
  // decl statements) in functions.
  DeclP named_decl() {
    auto d = std::make_shared<Decl>();
    d->pos = here();
    d->names.push_back(ident());
    while (accept(",")) d->names.push_back(ident());
    if (accept(":=")) {
      d->kind = Decl::Var;
      d->value = expr();
      expect(";");
      finish(d->pos);
      return d;
    }
    expect(":");
    if (accept("module")) {
      d->kind = Decl::Module;
      d->name = d->names[0];
      expect("{");
      while (!is("}")) {
        if (cur().kind == Tok::End) error_at(cur(), "unterminated module declaration");
        if (accept(";")) continue;
        d->mod_members.push_back(named_decl());
        if (d->mod_members.back()->kind == Decl::Exception)
          error_at(cur(), "exception declarations in modules are not supported");
      }
      expect("}");
      expect(";");
      finish(d->pos);
      return d;
    }
    if (accept("adt")) {
      d->kind = Decl::Adt;
      d->name = d->names[0];
      adt_body(*d);
      expect(";");
      finish(d->pos);
      return d;
    }
    if (accept("con")) {
      d->kind = Decl::Con;
      d->value = expr();
      expect(";");
      finish(d->pos);
      return d;
    }
    if (accept("type")) {
      d->kind = Decl::Type;
      d->name = d->names[0];
      d->type = type();
      expect(";");
      finish(d->pos);
      return d;
    }
    if (accept("exception")) {  // `E: exception(T, ...);`: the value types as a tuple
      d->kind = Decl::Exception;
      d->name = d->names[0];
      d->type = std::make_shared<TypeNode>();
      d->type->kind = TypeNode::Tuple;
      if (accept("(")) do
          d->type->elems.push_back(type());
        while (accept(","));
      if (!d->type->elems.empty()) expect(")");
      expect(";");
      finish(d->pos);
      return d;
    }
    if (accept("import")) {
      d->kind = Decl::Import;
      d->value = expr();
      expect(";");
      finish(d->pos);
      return d;
    }
    d->kind = Decl::Var;
    d->type = type();
    if (accept("=")) d->value = expr();
    expect(";");
    finish(d->pos);
    return d;
  }

  void adt_fields(std::vector<AdtMember>& out, bool in_pick) {
    Pos pos = here();
    std::vector<std::string> names{ident()};
    while (accept(",")) names.push_back(ident());
    expect(":");
    if (accept("con")) {
      if (in_pick) error_at(cur(), "con not allowed in pick");
      ExprP v = expr();
      expect(";");
      for (auto& n : names) out.push_back(AdtMember{AdtMember::Con, n, nullptr, false, v, pos});
      return;
    }
    bool cyc = accept("cyclic");
    TypeP t = type();
    expect(";");
    for (auto& n : names) {
      AdtMember::Kind k = t->kind == TypeNode::Fn ? AdtMember::Func : AdtMember::Field;
      if (k == AdtMember::Func && in_pick) error_at(cur(), "function not allowed in pick");
      out.push_back(AdtMember{k, n, t, cyc, nullptr, pos});
    }
  }

  void adt_body(Decl& d) {
    expect("{");
    while (!is("}")) {
      if (cur().kind == Tok::End) error_at(cur(), "unterminated adt declaration");
      if (accept(";")) continue;
      if (accept("pick")) {
        expect("{");
        while (!is("}")) {
          if (cur().kind == Tok::End) error_at(cur(), "unterminated pick");
          PickVariant v;
          v.tags.push_back(ident());
          while (accept("or")) v.tags.push_back(ident());
          expect("=>");
          while (cur().kind == Tok::Ident && !(is_at(1, "=>") || is_at(1, "or")))
            adt_fields(v.fields, true);
          d.variants.push_back(std::move(v));
        }
        expect("}");
        continue;
      }
      adt_fields(d.members, false);
    }
    expect("}");
  }

  // ---- types ----

  TypeP type() {
    NestGuard g(*this);
    auto t = std::make_shared<TypeNode>();
    t->pos = here();
    const Token& c = cur();
    if (c.kind == Tok::Keyword) {
      if (c.text == "int" || c.text == "big" || c.text == "byte" || c.text == "real" ||
          c.text == "string") {
        t->kind = TypeNode::Basic;
        t->name = c.text;
        ++p_;
      } else if (c.text == "ref") {
        ++p_;
        t->kind = TypeNode::Ref;
        t->elem = type();
      } else if (c.text == "array" || c.text == "list" || c.text == "chan") {
        ++p_;
        t->kind = c.text == "array"  ? TypeNode::Array
                  : c.text == "list" ? TypeNode::List
                                     : TypeNode::Chan;
        expect("of");
        t->elem = type();
      } else if (c.text == "fixed") {
        error_at(c, "fixed-point types are not supported");
      } else if (c.text == "fn") {
        ++p_;
        return fn_rest(t->pos);
      } else {
        error_at(c, "expected type, found " + describe(c));
      }
    } else if (c.kind == Tok::Punct && c.text == "(") {
      ++p_;
      t->kind = TypeNode::Tuple;
      t->elems.push_back(type());
      while (accept(",")) t->elems.push_back(type());
      expect(")");
    } else if (c.kind == Tok::Ident) {
      t->name = ident();
      t->kind = TypeNode::Name;
      if (accept("->")) {
        t->kind = TypeNode::Arrow;
        t->member = ident();
        if (accept(".")) {  // Mod->Adt.Tag
          t->name += "->" + t->member;
          t->member = ident();
        }
      } else if (accept(".")) {
        t->kind = TypeNode::Dot;
        t->member = ident();
      }
    } else {
      error_at(c, "expected type, found " + describe(c));
    }
    finish(t->pos);
    return t;
  }

  // After `fn` (or a function's name): `(params) [: result] [raises ...]`.
  TypeP fn_rest(Pos pos) {
    auto t = std::make_shared<TypeNode>();
    t->kind = TypeNode::Fn;
    t->pos = pos;
    expect("(");
    if (!is(")")) {
      for (;;) {
        if (accept("*")) {
          t->varargs = true;
          break;
        }
        std::vector<std::pair<std::string, Pos>> names;
        do {
          Pos np = here();
          if (accept("nil"))
            names.emplace_back("", np);
          else
            names.emplace_back(ident(), np);
        } while (accept(","));
        expect(":");
        bool self = accept("self");
        TypeP pt = type();
        for (auto& [n, np] : names) t->params.push_back(Param{n, pt, self, np});
        if (!accept(",")) break;
      }
    }
    expect(")");
    if (accept(":")) t->elem = type();
    if (accept("raises")) {
      if (accept("(")) {
        while (!accept(")")) {
          if (cur().kind == Tok::End) error_at(cur(), "unterminated raises list");
          ++p_;
        }
      } else {
        ident();
      }
    }
    finish(t->pos);
    return t;
  }

  // ---- statements ----

  StmtP block() {
    auto s = std::make_shared<Stmt>();
    s->kind = Stmt::Block;
    s->pos = here();
    expect("{");
    while (!is("}")) {
      if (cur().kind == Tok::End) error_at(cur(), "missing '}' at end of file");
      if (errs_.size() >= kMaxErrors) throw SyntaxError{};
      try {
        s->stmts.push_back(stmt());
      } catch (SyntaxError&) {
        recover_stmt();
      }
    }
    ++p_;
    finish(s->pos);
    return s;
  }

  // True when the tokens from here form case/alt labels ending in `=>`.
  bool at_arm() const {
    int depth = 0;
    for (std::size_t k = 0; p_ + k < toks_.size(); ++k) {
      const Token& t = toks_[p_ + k];
      if (t.kind == Tok::End) return false;
      if (t.kind == Tok::Punct) {
        if (t.text == "(" || t.text == "[") ++depth;
        if (t.text == ")" || t.text == "]") --depth;
        if (depth == 0 && (t.text == ";" || t.text == "{" || t.text == "}")) return false;
        if (depth == 0 && t.text == "=>") return true;
      }
      if (depth < 0) return false;
    }
    return false;
  }

  // Statements of one arm, up to the next arm or the closing `}`.
  StmtP arm_body() {
    auto s = std::make_shared<Stmt>();
    s->kind = Stmt::Block;
    s->pos = here();
    while (!is("}") && !at_arm()) {
      if (cur().kind == Tok::End) error_at(cur(), "missing '}' at end of file");
      if (errs_.size() >= kMaxErrors) throw SyntaxError{};
      try {
        s->stmts.push_back(stmt());
      } catch (SyntaxError&) {
        recover_stmt();
      }
    }
    finish(s->pos);
    return s;
  }

  std::vector<CaseArm> case_arms(bool tags) {
    std::vector<CaseArm> arms;
    expect("{");
    while (!is("}")) {
      if (cur().kind == Tok::End) error_at(cur(), "missing '}' at end of file");
      CaseArm arm;
      arm.pos = here();
      do {
        CaseArm::Label l;
        if (accept("*")) {
          l.star = true;
          arm.tags.push_back("*");
        } else if (tags) {
          arm.tags.push_back(ident());
        } else {
          l.lo = expr_noassign();
          if (accept("to")) l.hi = expr_noassign();
        }
        arm.labels.push_back(l);
      } while (accept("or"));
      expect("=>");
      arm.body = arm_body();
      arms.push_back(std::move(arm));
    }
    expect("}");
    return arms;
  }

  StmtP stmt() {
    NestGuard g(*this);
    auto s = std::make_shared<Stmt>();
    s->pos = here();
    // label:
    if (cur().kind == Tok::Ident && is_at(1, ":") &&
        (is_at(2, "for") || is_at(2, "while") || is_at(2, "do") || is_at(2, "case") ||
         is_at(2, "alt") || is_at(2, "pick") || is_at(2, "{"))) {
      std::string label = ident();
      ++p_;
      StmtP inner = stmt();
      inner->label = label;
      return inner;
    }
    if (accept(";")) {
      s->kind = Stmt::Empty;
      return s;
    }
    if (is("{")) {
      StmtP b = block();
      if (accept("exception")) {
        auto x = std::make_shared<Stmt>();
        x->kind = Stmt::Exception;
        x->pos = b->pos;
        x->body = b;
        if (cur().kind == Tok::Ident) x->names.push_back(ident());
        x->arms = case_arms(false);
        finish(x->pos);
        return x;
      }
      return b;
    }
    if (accept("if")) {
      s->kind = Stmt::If;
      expect("(");
      s->e = expr();
      expect(")");
      s->body = stmt();
      if (accept("else")) s->else_body = stmt();
    } else if (accept("while")) {
      s->kind = Stmt::While;
      expect("(");
      if (!is(")")) s->e = expr();
      expect(")");
      s->body = stmt();
    } else if (accept("do")) {
      s->kind = Stmt::DoWhile;
      s->body = stmt();
      expect("while");
      expect("(");
      if (!is(")")) s->e = expr();
      expect(")");
      expect(";");
    } else if (accept("for")) {
      s->kind = Stmt::For;
      expect("(");
      if (!is(";")) s->init = expr();
      expect(";");
      if (!is(";")) s->e = expr();
      expect(";");
      if (!is(")")) s->step = expr();
      expect(")");
      s->body = stmt();
    } else if (is("break") || is("continue")) {
      s->kind = is("break") ? Stmt::Break : Stmt::Continue;
      ++p_;
      if (cur().kind == Tok::Ident) s->label = ident();
      expect(";");
    } else if (accept("return")) {
      s->kind = Stmt::Return;
      if (!is(";")) s->e = expr();
      expect(";");
    } else if (accept("case")) {
      s->kind = Stmt::Case;
      s->e = expr();
      s->arms = case_arms(false);
    } else if (accept("alt")) {
      s->kind = Stmt::Alt;
      expect("{");
      while (!is("}")) {
        if (cur().kind == Tok::End) error_at(cur(), "missing '}' at end of file");
        AltArm a;
        a.pos = here();
        if (!accept("*")) {
          a.guards.push_back(expr());
          while (accept("or")) a.guards.push_back(expr());
        }
        expect("=>");
        a.body = arm_body();
        s->alts.push_back(std::move(a));
      }
      expect("}");
    } else if (accept("pick")) {
      s->kind = Stmt::Pick;
      s->name_pos.push_back(here());
      s->names.push_back(ident());
      expect(":=");
      s->e = expr();
      s->arms = case_arms(true);
    } else if (accept("spawn")) {
      s->kind = Stmt::Spawn;
      s->e = expr();
      expect(";");
    } else if (accept("exit")) {
      s->kind = Stmt::Exit;
      expect(";");
    } else if (accept("raise")) {
      s->kind = Stmt::Raise;
      if (!is(";")) s->e = expr();
      expect(";");
    } else if (cur().kind == Tok::Ident && (is_at(1, ":") || (is_at(1, ",") && decl_ahead()))) {
      // names : type;   names : con v;   names : import m;
      DeclP d = named_decl();
      s->names = d->names;
      s->type = d->type;
      s->e = d->value;
      s->kind = d->kind == Decl::Con      ? Stmt::ConDecl
                : d->kind == Decl::Type   ? Stmt::TypeDecl
                : d->kind == Decl::Import ? Stmt::ImportDecl
                                          : Stmt::Decl;
      if (d->kind == Decl::Module || d->kind == Decl::Adt || d->kind == Decl::Exception)
        errs_.push_back(Diagnostic{
            path_, s->pos.line, s->pos.col + 1, -1,
            "module, adt and exception declarations are not supported inside functions"});
      if (d->kind == Decl::Type) s->type = d->type;
    } else {
      s->kind = Stmt::ExprS;
      s->e = expr();
      expect(";");
    }
    finish(s->pos);
    return s;
  }

  // `a, b, c :` starts a declaration (as opposed to an expression list).
  bool decl_ahead() const {
    for (std::size_t k = 0;; k += 2) {
      if (peek(k).kind != Tok::Ident) return false;
      const Token& sep = peek(k + 1);
      if (sep.kind != Tok::Punct) return false;
      if (sep.text == ":") return true;
      if (sep.text != ",") return false;
    }
  }

  // ---- expressions ----

  ExprP mk(Expr::Kind k, Pos pos) {
    auto e = std::make_shared<Expr>();
    e->kind = k;
    e->pos = pos;
    return e;
  }

  ExprP expr() {
    NestGuard g(*this);
    ExprP lhs = binary(1);
    // A send may be written with a space: `c <- = v` (limbo.txt 8.4.3).
    bool spaced_send = is("<-") && is_at(1, "=");
    if ((cur().kind == Tok::Punct) && (is_assign_op(cur().text) || spaced_send)) {
      auto e = mk(Expr::Assign, lhs->pos);
      e->op = spaced_send ? "<-=" : cur().text;
      p_ += spaced_send ? 2 : 1;
      e->a = lhs;
      e->b = expr();
      finish(e->pos);
      return e;
    }
    return lhs;
  }

  ExprP expr_noassign() { return binary(1); }

  ExprP binary(int min_prec) {
    NestGuard g(*this);
    ExprP lhs = unary();
    // Each operator of a left-associative chain deepens the tree by one.
    int chain = 0;
    struct ChainGuard {
      Parser& p;
      int& n;
      ~ChainGuard() { p.nest_ -= n; }
    } cg{*this, chain};
    for (;;) {
      if (++nest_, ++chain; nest_ > kMaxNesting)
        error_at(cur(), "expression or statement nested too deeply");
      if (cur().kind != Tok::Punct) return lhs;
      std::string op = cur().text;
      int prec = binary_prec(op);
      if (prec < min_prec) return lhs;
      ++p_;
      bool right = op == "**" || op == "::";
      ExprP rhs = binary(right ? prec : prec + 1);
      auto e = mk(Expr::Binary, lhs->pos);
      e->op = op;
      e->a = lhs;
      e->b = rhs;
      finish(e->pos);
      lhs = e;
    }
  }

  ExprP unary() {
    NestGuard g(*this);
    Pos pos = here();
    const Token& c = cur();
    if (c.kind == Tok::Punct) {
      static const std::set<std::string> ops = {"-", "+", "!", "~", "*", "<-", "++", "--"};
      if (ops.count(c.text)) {
        std::string op = c.text;
        ++p_;
        auto e = mk(Expr::Unary, pos);
        e->op = op;
        e->a = unary();
        finish(e->pos);
        return e;
      }
    }
    if (c.kind == Tok::Keyword) {
      const std::string& k = c.text;
      if (k == "hd" || k == "tl" || k == "len" || k == "tagof" || k == "ref") {
        ++p_;
        auto e = mk(Expr::Unary, pos);
        e->op = k;
        e->a = unary();
        finish(e->pos);
        return e;
      }
      if (k == "int" || k == "big" || k == "byte" || k == "real" || k == "string") {
        auto e = mk(Expr::Cast, pos);
        e->type = type();
        e->a = unary();
        finish(e->pos);
        return e;
      }
      if (k == "load") {
        ++p_;
        auto e = mk(Expr::Load, pos);
        e->type = type();
        e->a = binary(1);
        finish(e->pos);
        return e;
      }
      if (k == "array") {
        ++p_;
        if (accept("of")) {  // conversion: array of byte expr
          auto e = mk(Expr::Cast, pos);
          auto t = std::make_shared<TypeNode>();
          t->kind = TypeNode::Array;
          t->pos = pos;
          t->elem = type();
          e->type = t;
          e->a = unary();
          finish(e->pos);
          return e;
        }
        expect("[");
        ExprP n;
        if (!is("]")) n = expr();
        expect("]");
        expect("of");
        if (is("{")) {
          auto e = mk(Expr::ArrayLit, pos);
          e->a = n;
          array_inits(*e);
          finish(e->pos);
          return e;
        }
        if (!n) error_at(cur(), "array size missing");
        auto e = mk(Expr::ArrayNew, pos);
        e->a = n;
        e->type = type();
        finish(e->pos);
        return e;
      }
      if (k == "list") {
        ++p_;
        expect("of");
        auto e = mk(Expr::ListLit, pos);
        expect("{");
        if (!is("}")) {
          e->args.push_back(expr());
          while (accept(",")) {
            if (is("}")) break;
            e->args.push_back(expr());
          }
        }
        expect("}");
        finish(e->pos);
        return e;
      }
      if (k == "chan") {
        ++p_;
        auto e = mk(Expr::ChanNew, pos);
        if (accept("[")) {
          e->a = expr();
          expect("]");
        }
        expect("of");
        e->type = type();
        finish(e->pos);
        return e;
      }
    }
    return postfix(primary());
  }

  void array_inits(Expr& e) {
    expect("{");
    while (!is("}")) {
      ArrayInit ai;
      ExprP first;
      if (accept("*")) {
        ai.star = true;
        expect("=>");
        ai.value = expr();
      } else {
        first = expr();
        if (is("=>") || is("to") || is("or")) {
          for (;;) {
            ExprP hi;
            if (accept("to")) hi = expr_noassign();
            ai.keys.push_back(first);
            ai.highs.push_back(hi);
            if (!accept("or")) break;
            if (accept("*")) {
              ai.star = true;
              break;
            }
            first = expr_noassign();
          }
          expect("=>");
          ai.value = expr();
        } else {
          ai.value = first;
        }
      }
      e.inits.push_back(std::move(ai));
      if (!accept(",")) break;
    }
    expect("}");
  }

  ExprP primary() {
    Pos pos = here();
    const Token& c = cur();
    switch (c.kind) {
      case Tok::IntLit:
      case Tok::CharLit: {
        auto e = mk(Expr::IntLit, pos);
        e->ival = c.ival;
        e->is_char = c.kind == Tok::CharLit;
        e->radix = c.text == "r";
        ++p_;
        return e;
      }
      case Tok::RealLit: {
        auto e = mk(Expr::RealLit, pos);
        e->rval = c.rval;
        ++p_;
        return e;
      }
      case Tok::StrLit: {
        auto e = mk(Expr::StrLit, pos);
        e->sval = c.text;
        ++p_;
        return e;
      }
      case Tok::Ident: {
        auto e = mk(Expr::Ident, pos);
        e->op = c.text;
        ++p_;
        return e;
      }
      case Tok::Keyword:
        if (c.text == "nil") {
          ++p_;
          return mk(Expr::Nil, pos);
        }
        if (c.text == "self") {
          ++p_;
          return mk(Expr::Self, pos);
        }
        break;
      case Tok::Punct:
        if (c.text == "(") {
          ++p_;
          std::vector<ExprP> elems{expr()};
          while (accept(",")) elems.push_back(expr());
          expect(")");
          if (elems.size() == 1) {
            // keep the parenthesised range for positions
            return elems[0];
          }
          auto e = mk(Expr::TupleLit, pos);
          e->args = std::move(elems);
          finish(e->pos);
          return e;
        }
        break;
      default:
        break;
    }
    error_at(c, "expected expression, found " + describe(c));
  }

  ExprP postfix(ExprP e) {
    for (;;) {
      Pos pos = e->pos;
      if (accept(".")) {
        auto f = mk(Expr::Field, pos);
        f->a = e;
        f->op = ident();
        finish(f->pos);
        e = f;
      } else if (accept("->")) {
        auto f = mk(Expr::ModField, pos);
        f->a = e;
        f->op = ident();
        finish(f->pos);
        e = f;
      } else if (accept("(")) {
        auto f = mk(Expr::Call, pos);
        f->a = e;
        if (!is(")")) {
          f->args.push_back(expr());
          while (accept(",")) f->args.push_back(expr());
        }
        expect(")");
        finish(f->pos);
        e = f;
      } else if (accept("[")) {
        ExprP lo;
        if (!is(":")) lo = expr();
        if (accept(":")) {
          auto f = mk(Expr::Slice, pos);
          f->a = e;
          f->b = lo ? lo : nullptr;
          if (!lo) {
            auto z = mk(Expr::IntLit, pos);
            f->b = z;
          }
          if (!is("]")) f->c = expr();
          expect("]");
          finish(f->pos);
          e = f;
        } else {
          expect("]");
          auto f = mk(Expr::Index, pos);
          f->a = e;
          f->b = lo;
          finish(f->pos);
          e = f;
        }
      } else if (is("++") || is("--")) {
        auto f = mk(is("++") ? Expr::PostInc : Expr::PostDec, pos);
        ++p_;
        f->a = e;
        finish(f->pos);
        e = f;
      } else {
        return e;
      }
    }
  }
};

}  // namespace

std::vector<std::string> module_search_dirs() { return data_dirs("module", "module"); }

std::string find_include(const std::string& name, const std::string& including_file,
                         const std::vector<std::string>& include_dirs) {
  std::error_code ec;
  if (!name.empty() && name[0] == '/') return fs::is_regular_file(name, ec) ? name : "";
  std::vector<std::string> dirs;
  fs::path parent = fs::path(including_file).parent_path();
  dirs.push_back(parent.empty() ? "." : parent.string());
  for (auto& d : include_dirs) dirs.push_back(d);
  for (auto& d : module_search_dirs()) dirs.push_back(d);
  for (auto& d : dirs) {
    fs::path p = fs::path(d) / name;
    if (fs::is_regular_file(p, ec)) return p.string();
  }
  return "";
}

Program parse_program(const std::string& path, const std::string& src,
                      const std::vector<std::string>& include_dirs) {
  Program prog;
  std::vector<Diagnostic> errs;
  Parser p(prog, errs, include_dirs);
  p.parse_file(path, src, 0);
  if (!errs.empty()) throw InputError(errs);
  return prog;
}

}  // namespace dis::limbo
