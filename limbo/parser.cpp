// The parser's driver (files, includes, error recovery), declarations and
// types (reference/limbo.txt sections 4-7); statements and expressions are in
// parser_stmts.cpp and parser_exprs.cpp.
#include "parser.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "data_dirs.h"
#include "parser_impl.h"

namespace dis::limbo {

namespace fs = std::filesystem;

namespace parsing {
namespace {

std::string read_text(const std::string& path, bool& ok) {
  std::ifstream in(path, std::ios::binary);
  ok = static_cast<bool>(in);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

void Parser::parse_file(const std::string& path, const std::string& src, int depth) {
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

std::string Parser::describe(const Token& t) {
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

void Parser::recover_top() {
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

void Parser::recover_stmt() {
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

void Parser::top_decl(int depth) {
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
      errs_.push_back(
          Diagnostic{path_, at.line, at.col + 1, -1, "cannot find include file \"" + name + "\""});
      return;
    }
    bool ok = false;
    std::string text = read_text(found, ok);
    if (!ok) {
      errs_.push_back(
          Diagnostic{path_, at.line, at.col + 1, -1, "cannot read include file \"" + found + "\""});
      return;
    }
    parse_file(found, text, depth + 1);
    return;
  }
  if (cur().kind != Tok::Ident) error_at(cur(), "expected declaration, found " + describe(cur()));
  // Function definition: name( or Adt.name(, polymorphic name[T]( or Adt[T].name(
  if (is_at(1, "(") || is_at(1, "[") ||
      (is_at(1, ".") && peek(2).kind == Tok::Ident && (is_at(3, "(") || is_at(3, "[")))) {
    auto d = std::make_shared<Decl>();
    d->kind = Decl::Func;
    d->pos = here();
    std::string first = ident();
    if (is("[") && !is_at(peek_close(), ".")) {
      d->name = first;  // fn_rest reads the function's own `[T]`
    } else if (accept("[")) {
      d->tparams = tparam_list();
      expect(".");
      d->adt = first;
      d->name = ident();
    } else if (accept(".")) {
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
  if (is_at(1, "=")) {  // `name = constant;`: module data's initial value
    auto d = std::make_shared<Decl>();
    d->kind = Decl::Init;
    d->pos = here();
    d->names.push_back(ident());
    expect("=");
    d->value = expr();
    expect(";");
    finish(d->pos);
    prog_.decls.push_back(d);
    return;
  }
  prog_.decls.push_back(named_decl());
}

// `names : ...` or `name := expr`, at top level, inside modules or (via
// decl statements) in functions.
DeclP Parser::named_decl() {
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
      // limbo.txt 6: a module declaration's members (mod-member) are
      // functions, data, adts, cons and types.
      const Decl& m = *d->mod_members.back();
      if (m.kind == Decl::Exception)
        errs_.push_back(
            Diagnostic{path_, m.pos.line, m.pos.col + 1, -1,
                       "exception declarations are not allowed in module declarations"});
    }
    expect("}");
    expect(";");
    finish(d->pos);
    return d;
  }
  if (accept("adt")) {
    d->kind = Decl::Adt;
    d->name = d->names[0];
    if (accept("[")) d->tparams = tparam_list();
    if (accept("for")) d->constraints = for_clause();
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

void Parser::adt_fields(std::vector<AdtMember>& out, bool in_pick) {
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

void Parser::adt_body(Decl& d) {
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

TypeP Parser::type() {
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
    } else if (c.text == "fixed") {  // `fixed(scale [, max])`: checked when resolved
      ++p_;
      t->kind = TypeNode::Fixed;
      expect("(");
      t->fixed_args.push_back(expr());
      if (accept(",")) t->fixed_args.push_back(expr());
      expect(")");
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
    if (t->elems.size() == 1) return t->elems[0];  // `(list of int)`: parentheses only
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
    if (accept("[")) {  // Adt[int, T], Mod->Adt[T]
      t->targs = type_list();
      if (t->kind == TypeNode::Name && accept(".")) {  // Adt[T].Tag
        t->kind = TypeNode::Dot;
        t->member = ident();
      }
    }
  } else {
    error_at(c, "expected type, found " + describe(c));
  }
  finish(t->pos);
  return t;
}

// After `fn` (or a function's name): `(params) [: result] [raises ...]`.
TypeP Parser::fn_rest(Pos pos) {
  auto t = std::make_shared<TypeNode>();
  t->kind = TypeNode::Fn;
  t->pos = pos;
  if (accept("[")) t->tparams = tparam_list();
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
    auto one = [&] {
      Pos np = here();
      if (!accept("nil")) t->raises.emplace_back(ident(), np);
    };
    if (accept("(")) {
      do one();
      while (accept(","));
      expect(")");
    } else {
      one();
    }
  }
  if (accept("for")) t->constraints = for_clause();
  finish(t->pos);
  return t;
}

// After `[`: `T, U]`, the names of type parameters.
std::vector<std::string> Parser::tparam_list() {
  std::vector<std::string> names{ident()};
  while (accept(",")) names.push_back(ident());
  expect("]");
  return names;
}

// After `[` in a type or expression: `int, ref T]`, type arguments.
std::vector<TypeP> Parser::type_list() {
  std::vector<TypeP> types{type()};
  while (accept(",")) types.push_back(type());
  expect("]");
  return types;
}

// The offset from the current `[` of the token after its matching `]`.
std::size_t Parser::peek_close() const {
  int depth = 0;
  for (std::size_t k = 0;; ++k) {
    const Token& t = peek(k);
    if (t.kind == Tok::End) return k;
    if (is_at(k, "[")) ++depth;
    if (is_at(k, "]") && --depth == 0) return k + 1;
  }
}

// After `for`: `{ T => f: fn(...); ... U => ... }`.
std::vector<TypeConstraint> Parser::for_clause() {
  std::vector<TypeConstraint> out;
  expect("{");
  while (!accept("}")) {
    if (cur().kind == Tok::End) error_at(cur(), "unterminated for clause");
    TypeConstraint c;
    c.pos = here();
    c.tparam = ident();
    expect("=>");
    while (cur().kind == Tok::Ident && !is_at(1, "=>")) adt_fields(c.funcs, false);
    for (auto& f : c.funcs)
      if (f.kind != AdtMember::Func)
        error_at(toks_[p_ - 1], "a for clause declares only functions, not " + f.name);
    finish(c.pos);
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace parsing

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
  parsing::Parser p(prog, errs, include_dirs);
  p.parse_file(path, src, 0);
  if (!errs.empty()) throw InputError(errs);
  return prog;
}

}  // namespace dis::limbo
