// The Limbo parser's class, shared by its files: parser.cpp (files,
// includes, error recovery, declarations and types), parser_stmts.cpp
// (statements) and parser_exprs.cpp (expressions). Internal to limbo/: the
// interface is parser.h.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "ast.h"
#include "diag.h"
#include "lexer.h"

namespace dis::limbo::parsing {

struct SyntaxError {};  // unwinds to the nearest recovery point

constexpr std::size_t kMaxErrors = 30;
constexpr int kMaxIncludeDepth = 16;
constexpr int kMaxNesting = 1000;  // bounds recursion on hostile input

class Parser {
 public:
  Parser(Program& prog, std::vector<Diagnostic>& errs, const std::vector<std::string>& dirs)
      : prog_(prog), errs_(errs), dirs_(dirs) {}

  void parse_file(const std::string& path, const std::string& src, int depth);

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

  static std::string describe(const Token& t);
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

  void recover_top();
  void recover_stmt();

  // ---- declarations ----

  void top_decl(int depth);
  DeclP named_decl();
  void adt_fields(std::vector<AdtMember>& out, bool in_pick);
  void adt_body(Decl& d);

  // ---- types ----

  TypeP type();
  TypeP fn_rest(Pos pos);
  std::vector<std::string> tparam_list();
  std::vector<TypeP> type_list();
  std::vector<TypeConstraint> for_clause();
  std::size_t peek_close() const;

  // ---- statements ----

  StmtP block();
  bool at_arm() const;
  StmtP arm_body();
  void statements_until(Stmt& into, bool arm_ends);
  std::vector<CaseArm> case_arms(bool tags);
  StmtP stmt();

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

  // At `[`: type arguments (`f[ref T]`, `Tab[string]`, `g[T, U]`) rather than
  // an index. A lone name (`Tab[T]`) reads as an index; the compiler tells.
  bool type_args_ahead() const {
    const Token& t = peek(1);
    if (t.kind == Tok::Keyword) {
      if (t.text == "ref" || t.text == "array" || t.text == "list" || t.text == "chan" ||
          t.text == "fn")
        return true;
      bool basic = t.text == "int" || t.text == "big" || t.text == "byte" || t.text == "real" ||
                   t.text == "string";
      return basic && (is_at(2, "]") || is_at(2, ","));
    }
    return t.kind == Tok::Ident && is_at(2, ",");
  }

  ExprP mk(Expr::Kind k, Pos pos) {
    auto e = std::make_shared<Expr>();
    e->kind = k;
    e->pos = pos;
    return e;
  }

  ExprP expr();
  ExprP expr_noassign() { return binary(1); }

  ExprP binary(int min_prec);
  ExprP unary();
  void array_inits(Expr& e);
  ExprP primary();
  ExprP postfix(ExprP e);
};

}  // namespace dis::limbo::parsing
