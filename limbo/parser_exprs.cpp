// The parser's expressions: assignments, binary operators by precedence,
// unary and postfix forms, primaries and array initialisers
// (reference/limbo.txt section 8).
#include <set>

#include "parser_impl.h"

namespace dis::limbo::parsing {
namespace {

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

}  // namespace

ExprP Parser::expr() {
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

ExprP Parser::binary(int min_prec) {
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

ExprP Parser::unary() {
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

void Parser::array_inits(Expr& e) {
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

ExprP Parser::primary() {
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

ExprP Parser::postfix(ExprP e) {
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
      if (accept("(")) {  // `m->(e).f(...)`: e's adt function, through m
        f->b = expr();
        expect(")");
      } else {
        f->op = ident();
      }
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
    } else if (is("[") && type_args_ahead()) {
      ++p_;
      auto f = mk(Expr::Inst, pos);
      f->a = e;
      f->targs = type_list();
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

}  // namespace dis::limbo::parsing
