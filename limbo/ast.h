// The Limbo syntax tree produced by the parser and consumed by the compiler
// (limbo_types.cpp, compile*.cpp). Nodes carry their source range; semantic fields
// (resolved types, slots) live in the compiler, not here.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace dis::limbo {

struct Pos {
  std::int32_t file = 0;  // index into the compilation's file list
  std::int32_t line = 0;
  std::int32_t col = 0;  // 0-based
  std::int32_t end_line = 0;
  std::int32_t end_col = 0;
};

struct TypeNode;
struct Expr;
struct Stmt;
using TypeP = std::shared_ptr<TypeNode>;
using ExprP = std::shared_ptr<Expr>;
using StmtP = std::shared_ptr<Stmt>;

struct Param {
  std::string name;  // empty for `nil`
  TypeP type;
  bool self = false;
  Pos pos;
};

struct AdtMember {
  enum Kind { Field, Func, Con };
  Kind kind = Field;
  std::string name;
  TypeP type;  // field type or function type
  bool cyclic = false;
  ExprP value;  // Con
  Pos pos;
};

// `for { T => f: fn(...); ... }`: the functions a type parameter must provide.
struct TypeConstraint {
  std::string tparam;
  std::vector<AdtMember> funcs;
  Pos pos;
};

struct TypeNode {
  enum Kind { Basic, Name, Dot, Arrow, Ref, Array, List, Chan, Tuple, Fn, Fixed };
  Kind kind = Basic;
  std::string name;                  // Basic: int/big/byte/real/string; Name/Dot/Arrow: first part
  std::string member;                // Dot: Adt.Tag or Mod.Adt; Arrow: Mod->Type
  TypeP elem;                        // Ref/Array/List/Chan element, Fn result (null = none)
  std::vector<TypeP> elems;          // Tuple
  std::vector<Param> params;         // Fn
  bool varargs = false;              // Fn: trailing `*`
  std::vector<std::string> tparams;  // Fn: `fn[T, U]`
  std::vector<TypeConstraint> constraints;          // Fn: its `for { ... }` clause
  std::vector<std::pair<std::string, Pos>> raises;  // Fn: its `raises` clause (nil left out)
  std::vector<TypeP> targs;                         // Name/Dot/Arrow: `Adt[int, T]`
  std::vector<ExprP> fixed_args;                    // Fixed: the scale [and the maximum]
  Pos pos;
};

struct ArrayInit {           // one element of `array[...] of {...}`
  std::vector<ExprP> keys;   // empty: positional; `*` is a null key
  std::vector<ExprP> highs;  // for `lo to hi` keys: the hi expression, else null
  bool star = false;
  ExprP value;
};

struct Expr {
  enum Kind {
    IntLit,
    RealLit,
    StrLit,
    Nil,
    Ident,
    Self,
    Binary,  // op in `op`: arithmetic, comparison, &&, ||, ::
    Unary,   // - ! ~ * <- hd tl len tagof ref ++pre --pre
    PostInc,
    PostDec,
    Assign,  // op: "=", ":=", "+=", ...
    Index,
    Slice,
    Call,
    Field /* a.b */,
    ModField /* m->b; m->(e) with e in b */,
    TupleLit,
    Cast /* type expr */,
    ArrayNew,
    ArrayLit,
    ListLit,
    ChanNew,
    Load,
    TypeRef,  // a type used as an expression head (tagof Shape.Circle)
    Inst,     // a[targs]: a polymorphic function or adt given its type arguments
  };
  Kind kind = IntLit;
  std::string op;  // operator, identifier name, field name
  std::int64_t ival = 0;
  double rval = 0;
  std::string sval;              // string literal
  bool is_char = false;          // IntLit written as a character constant
  bool radix = false;            // IntLit written with a radix (16rFF)
  ExprP a, b, c;                 // operands (Slice: a[b:c], c null for a[b:])
  std::vector<ExprP> args;       // Call arguments, tuple elements, list elements
  TypeP type;                    // Cast, ArrayNew/ArrayLit/ChanNew element, Load module type name
  std::vector<ArrayInit> inits;  // ArrayLit
  std::vector<TypeP> targs;      // Inst
  Pos pos;
};

struct CaseArm {
  struct Label {
    ExprP lo, hi;  // hi null unless `lo to hi`
    bool star = false;
  };
  std::vector<Label> labels;
  std::vector<std::string> tags;  // pick arms
  StmtP body;                     // a Block
  Pos pos;
};

struct AltArm {
  // `x := <-c`, `<-c`, `c <-= v`, several joined by `or` sharing the body;
  // empty for `*`.
  std::vector<ExprP> guards;
  StmtP body;
  Pos pos;
};

struct Stmt {
  enum Kind {
    Empty,
    ExprS,
    Decl,
    Block,
    If,
    While,
    DoWhile,
    For,
    Break,
    Continue,
    Return,
    Case,
    Alt,
    Pick,
    Spawn,
    Exit,
    Raise,
    Exception,
    ConDecl,
    TypeDecl,
    ImportDecl,
    ExcDecl,  // `E: exception(T, ...);` inside a function: names, type (the values' tuple)
  };
  Kind kind = Empty;
  std::string label;               // for loops/case/alt/blocks: `label:`; Break/Continue target
  ExprP e;                         // expression, condition, return value, case subject, spawn call
  ExprP init, step;                // For
  std::vector<std::string> names;  // Decl names, pick variable, exception variable
  std::vector<Pos> name_pos;
  TypeP type;  // Decl type (null for `:=`)
  StmtP body, else_body;
  std::vector<StmtP> stmts;   // Block
  std::vector<CaseArm> arms;  // Case / Pick / Exception handlers
  std::vector<AltArm> alts;   // Alt
  Pos pos;
};

struct PickVariant {
  std::vector<std::string> tags;  // `A or B =>`
  std::vector<AdtMember> fields;
};

struct Decl;
using DeclP = std::shared_ptr<Decl>;

struct Decl {
  // Init: `name = constant;` at top level, initialising module data.
  enum Kind { Implement, Module, Adt, Con, Type, Var, Import, Func, Exception, Init };
  Kind kind = Var;
  std::vector<std::string> names;     // Implement/Var/Con/Import: the names
  std::string name;                   // Module/Adt/Type/Func name (Func: bare)
  std::string adt;                    // Func: the adt for `Adt.fn`
  TypeP type;                         // Var/Type type, Func type (Fn), Exception values (Tuple)
  ExprP value;                        // Con value, Var `:=` initializer, Import module expr
  std::vector<AdtMember> members;     // Adt data/functions/cons
  std::vector<PickVariant> variants;  // pick adt
  std::vector<std::string> tparams;   // Adt: `adt[T, U]`; Func: `Adt[T, U].fn`
  std::vector<TypeConstraint> constraints;  // Adt: its `for { ... }` clause
  std::vector<DeclP> mod_members;           // Module: member declarations
  StmtP body;                               // Func
  Pos pos;
};

struct Program {
  std::vector<std::string> files;  // files[0] is the main source; then includes
  std::vector<DeclP> decls;
};

}  // namespace dis::limbo
