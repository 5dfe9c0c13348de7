// The parser's statements: blocks, case/alt/pick arms and every statement
// form (reference/limbo.txt section 9).
#include "parser_impl.h"

namespace dis::limbo::parsing {

StmtP Parser::block() {
  auto s = std::make_shared<Stmt>();
  s->kind = Stmt::Block;
  s->pos = here();
  expect("{");
  statements_until(*s, false);
  ++p_;
  finish(s->pos);
  return s;
}

// Statements into `into` up to the closing `}` (or, for an arm, the next
// arm), each error recovered from at the next statement.
void Parser::statements_until(Stmt& into, bool arm_ends) {
  while (!is("}") && !(arm_ends && at_arm())) {
    if (cur().kind == Tok::End) error_at(cur(), "missing '}' at end of file");
    if (errs_.size() >= kMaxErrors) throw SyntaxError{};
    try {
      into.stmts.push_back(stmt());
    } catch (SyntaxError&) {
      recover_stmt();
    }
  }
}

// True when the tokens from here form case/alt labels ending in `=>`.
bool Parser::at_arm() const {
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
StmtP Parser::arm_body() {
  auto s = std::make_shared<Stmt>();
  s->kind = Stmt::Block;
  s->pos = here();
  statements_until(*s, true);
  finish(s->pos);
  return s;
}

std::vector<CaseArm> Parser::case_arms(bool tags) {
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

StmtP Parser::stmt() {
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
    s->kind = d->kind == Decl::Con         ? Stmt::ConDecl
              : d->kind == Decl::Type      ? Stmt::TypeDecl
              : d->kind == Decl::Import    ? Stmt::ImportDecl
              : d->kind == Decl::Exception ? Stmt::ExcDecl
                                           : Stmt::Decl;
    // limbo.txt 9: a function's statements hold the declarations of 6;
    // module and adt declarations are top-declarations only (5).
    if (d->kind == Decl::Module || d->kind == Decl::Adt)
      errs_.push_back(Diagnostic{path_, s->pos.line, s->pos.col + 1, -1,
                                 std::string(d->kind == Decl::Module ? "module" : "adt") +
                                     " declarations are not allowed inside functions"});
    if (d->kind == Decl::Type) s->type = d->type;
  } else {
    s->kind = Stmt::ExprS;
    s->e = expr();
    expect(";");
  }
  finish(s->pos);
  return s;
}

}  // namespace dis::limbo::parsing
