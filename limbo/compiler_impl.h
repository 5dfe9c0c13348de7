// Internal: the compiler's state shared by compile_decls.cpp (declarations,
// types, module assembly), const_eval.cpp (constant folding),
// compile_expr.cpp, compile_unary.cpp and compile_values.cpp (expressions),
// compile_call.cpp (calls), compile_stmt.cpp (statements) and the smaller
// files the limbo/README.md lists. Not a public interface.
#pragma once

#include <algorithm>
#include <boost/container/flat_map.hpp>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "ast.h"
#include "compiler.h"
#include "diag.h"
#include "eval_order.h"
#include "limbo_types.h"
#include "module.h"
#include "pushed.h"
#include "sbl.h"

namespace dis::limbo {

// An argument, local or global as the .sbl id tables describe it.
struct DebugVar {
  std::string name;
  Type* type = nullptr;
  std::int32_t off = 0;
  Pos pos;
  bool exception = false;  // a handler's exception value: Inferno's `ref (...)`
};

struct FuncInfo {
  std::string name;  // link name: "fn" or "Adt.fn"
  Type* type = nullptr;
  const Decl* decl = nullptr;
  AdtInfo* adt = nullptr;
  std::int32_t desc = -1;  // frame descriptor
  std::int32_t pc = -1;
  bool exported = false;
  int late_link = -1;  // exported only to be reached through $self: links after the module's
  // Made by the compiler for references to a polymorphic function with a
  // `for` clause (fn_refs.cpp): it calls the function with the hidden
  // arguments of one binding.
  bool wrapper = false;
  std::vector<DebugVar> args, locals;  // for the .sbl fn table
};

// A value's location: an operand plus its type.
struct Loc {
  Operand op;
  Type* t = nullptr;
};

struct ExceptionInfo;

struct Sym {
  // AdtCon: `Z: con Point(0, 0)`, an adt-valued con of this module, built
  // where it is used; its fields fold as constants (`Z.x`).
  // Subst: an inlined function's parameter standing for its argument's
  // expression, computed at each use in the caller's scopes.
  // Exc: an exception declared inside a function, for its block.
  enum Kind { Var, Con, Func, AdtName, ModType, TypeAlias, Imported, AdtCon, Subst, Exc };
  Kind kind = Var;
  Type* type = nullptr;
  Operand loc;            // Var: Mp or Fp slot
  std::int64_t ival = 0;  // Con
  double rval = 0;
  std::string sval;
  FuncInfo* func = nullptr;
  AdtInfo* adt = nullptr;
  ModInfo* mod = nullptr;
  std::string member;             // Imported: member name in mod
  const Expr* modexpr = nullptr;  // Imported: the module value expression
  const Expr* adtcon = nullptr;   // AdtCon: the `Adt(...)` call
  // Var: the last name holding pointers of `(a, b) := f()` unpacked in
  // place, whose pointers Inferno's compiler sets to nil twice when the
  // block is left.
  bool nil_twice = false;
  // Var: the frame offset of the tuple `(a, b) := f()` laid this name out
  // in, -1 if none: `(a, b) = g()` writes that tuple whole.
  std::int32_t tuple_at = -1;
  const Expr* subst = nullptr;         // Subst: the argument
  int subst_depth = -1;                // Subst: its caller's scopes in inline_outer_
  const ExceptionInfo* exc = nullptr;  // Exc
};

// A declared exception (exception_values.cpp).
struct ExceptionInfo {
  std::string full;           // "Module.N.Name", the value's first word
  std::vector<Field> values;  // types and offsets in the object
  std::int32_t desc = -1;
  Type* type = nullptr;        // the type of its values
  Type* value_type = nullptr;  // a handler's name for it: its one value or their tuple
};

// The frame header words the fixed-point instructions read (DIS-FACTS 4):
// the shift at 28(fp), the divisor or multiplier of the *0 forms at 20(fp).
constexpr std::int32_t kFixedShift = 28, kFixedFactor = 20;

// Operand shorthands of the code generators.
inline Operand fp(std::int32_t off) { return Operand{AddrMode::Fp, off, 0}; }
inline Operand imm(std::int32_t v) { return Operand{AddrMode::Imm, v, 0}; }
inline bool is_ind(const Operand& o) {
  return o.mode == AddrMode::IndFp || o.mode == AddrMode::IndMp;
}
// n(16(fp)): where a function's result (or a part of it) goes, in its
// caller's frame.
inline bool is_result_slot(const Operand& o) { return o.mode == AddrMode::IndFp && o.a == 16; }
// Whether an operand can be an instruction's middle one as it is: a small
// immediate, or a small frame or module offset.
inline bool fits_middle(const Operand& op) {
  if (op.mode == AddrMode::Imm) return op.a >= -32768 && op.a <= 32767;
  return (op.mode == AddrMode::Fp || op.mode == AddrMode::Mp) && op.a <= 65535;
}

// Whether op is one of the six comparisons.
inline bool is_cmp(const std::string& op) {
  return op == "==" || op == "!=" || op == "<" || op == "<=" || op == ">" || op == ">=";
}

// An integer literal keeps all its bits until it is typed: `big 16rffffffff`
// is 4294967295, not the int -1 widened (Inferno's compiler does the same).
// `typed` is the value as typed, returned for anything but a literal.
std::int64_t literal_value(const Expr* e, std::int64_t typed);

// An adt whose members are resolved once every type name is declared: the
// declaration and the module it was declared in (null at top level).
struct PendingAdt {
  AdtInfo* adt;
  const Decl* decl;
  ModInfo* scope;
};

// What a call calls (Compiler::call_target): a function of this module
// (local), or of module mod by name (mname, the module value modexpr); ft its
// type, self_arg the adt value of a `v.f(...)`. construct: `Adt(...)` makes
// an adt value, no call.
struct CallTarget {
  FuncInfo* local = nullptr;
  ModInfo* mod = nullptr;
  std::string mname;
  const Expr* modexpr = nullptr;
  Type* ft = nullptr;
  const Expr* self_arg = nullptr;
  AdtInfo* construct = nullptr;
  Type* construct_type = nullptr;  // construct's instance when given type arguments
  // Polymorphic callee (poly.cpp): the parameters bound at this call, those
  // whose required functions are passed as hidden arguments; or a required
  // function called through the current function's hidden slot poly_slot.
  std::map<Type*, Type*> bindings;
  std::vector<Type*> hidden;
  std::int32_t poly_slot = -1;
  const Expr* fnref = nullptr;  // calling through this function reference (fn_refs.cpp)
};

// An adt-valued con of a module (`Sys->nulldir`, or imported by name): its
// constructor call, read in mod's scope, and the adt type; call null if none.
struct ModAdtCon {
  const Expr* call = nullptr;
  ModInfo* mod = nullptr;
  Type* type = nullptr;
};

struct ConstVal {
  TK k = TK::Int;
  std::int64_t i = 0;  // Fixed: the int the value is stored as
  double r = 0;
  std::string s;
  Type* ft = nullptr;  // Fixed: its type
};

struct JumpFix {
  std::int32_t pc;
  std::int32_t label;
  // A jmp a constant test decided: left out when it only jumps over code
  // no path reaches (`if(0) ...`), as Inferno's compiler emits nothing.
  bool weak = false;
};

// What an inlined function computes (inline_calls.cpp): `value`, or
// `cond ? then_value : value`.
struct InlineBody {
  const Expr* cond = nullptr;
  const Expr* then_value = nullptr;
  const Expr* value = nullptr;
};
// f's body when it has one of the shapes Inferno's compiler inlines.
std::optional<InlineBody> inline_body(const FuncInfo& f);

class CompileError {};  // aborts the current statement after an error

class Compiler {
 public:
  Compiler(Program& prog, const CompileOptions& opts) : prog_(prog), opts_(opts) {}
  Module run();
  Sbl symbols(const Module& m);  // the .sbl tables of m, which run() produced (symbols.cpp)
  void run_declarations();
  std::vector<std::pair<std::string, std::string>> declared(const std::string& module_name);

  // ---- shared state ----
  Program& prog_;
  const CompileOptions& opts_;
  Module m_;
  std::vector<Diagnostic> errs_;
  std::deque<Type> types_;
  std::deque<AdtInfo> adts_;
  std::deque<ModInfo> mods_;
  std::deque<FuncInfo> funcs_;
  Type *t_int_ = nullptr, *t_big_ = nullptr, *t_byte_ = nullptr, *t_real_ = nullptr,
       *t_string_ = nullptr, *t_none_ = nullptr, *t_nil_ = nullptr, *t_error_ = nullptr;
  // Block scopes are flat maps: a few names each, looked up far more often
  // than added to, and type_of copies the innermost one. The global scope
  // (hundreds of names from included modules, added one at a time) stays a
  // tree, searched after every block scope. A Sym* from lookup() is used at
  // once, never kept across an insertion (which moves a flat map's entries).
  using Scope = boost::container::flat_map<std::string, Sym>;
  std::map<std::string, Sym> globals_;
  std::vector<Scope> scopes_;  // [0] is the module level's own, empty unless type_of adds
  // `implement A, B;`: every module named (impls_, in that order) is
  // implemented by this one; impl_ is the first, whose name its exception
  // names take (as Inferno's compiler does).
  ModInfo* impl_ = nullptr;
  std::vector<ModInfo*> impls_;
  std::string impl_name_;
  std::vector<std::string> impl_names_;
  bool implements(const ModInfo* m) const {
    return m && std::find(impls_.begin(), impls_.end(), m) != impls_.end();
  }

  // module data
  std::int32_t mp_size_ = 0;
  std::int32_t nil_slot_ = -1;  // nil_slot()'s offset once used
  std::vector<DebugVar> globals_dbg_;
  std::vector<std::int32_t> mp_ptrs_;
  // Constant pools and the descriptor cache: value -> mp offset (or type id),
  // found again far more often than a new value is added.
  boost::container::flat_map<std::string, std::int32_t> str_consts_;
  boost::container::flat_map<std::int64_t, std::int32_t> word_consts_, big_consts_;
  boost::container::flat_map<std::uint64_t, std::int32_t> real_consts_;
  boost::container::flat_map<std::string, std::int32_t> desc_cache_;

  // import tables: per module type name, the functions used
  struct ImportUse {
    ModInfo* mod;
    std::vector<std::string> names;  // link names used
  };
  std::vector<ImportUse> imports_;
  struct ImportFix {
    std::int32_t pc;
    int table;
    std::string name;
    bool in_src = false;  // the index is the source immediate (a hidden argument), not mid
  };
  std::vector<ImportFix> import_fixes_;
  struct CallFix {
    std::int32_t pc;
    FuncInfo* f;
  };
  std::vector<CallFix> call_fixes_;
  struct TableFix {  // case/goto tables: words holding pcs of labels
    std::size_t item;
    std::size_t index;
    std::int32_t label;
  };
  std::vector<TableFix> table_fixes_;

  // current function
  FuncInfo* fn_ = nullptr;
  std::int32_t frame_size_ = 0;
  std::vector<std::int32_t> frame_ptrs_;
  struct TempSlot {
    std::string key;
    std::int32_t off;
    bool busy;
    bool pointer;         // holds one pointer
    bool pinned = false;  // an inlined call's argument: not freed before the call's end
  };
  std::vector<TempSlot> temps_;
  std::vector<std::int32_t> label_pc_;  // label id -> pc (-1 unknown)
  std::vector<JumpFix> jump_fixes_;
  struct LoopCtx {
    std::string label;
    std::int32_t brk, cont;  // label ids (-1 for none)
    bool block_only;         // a labelled block: only `break label` leaves it
    std::size_t blocks = 0;  // open_blocks_ outside it: those after are left by a jump out
  };
  void push_loop(LoopCtx c) {
    c.blocks = open_blocks_.size() - (c.block_only ? 1 : 0);
    loops_.push_back(std::move(c));
  }
  // A braced block being compiled: the pointer words of its variables, which
  // a break or continue out of it sets to nil, as at its end.
  struct OpenBlock {
    const Stmt* blk;
    std::size_t scope;  // its index in scopes_
    std::size_t used;   // most pointer words a jump out of it has reset
  };
  std::vector<OpenBlock> open_blocks_;
  std::vector<std::int32_t> new_objects_;  // temporaries of `ref Adt(...)` being filled
  std::vector<std::int32_t> block_pointers(const Scope& scope) const;
  void nil_left_blocks(std::size_t from);
  // Each block's pointer words as its end found them; given to a second
  // compilation when a jump out of a block came before some of its
  // declarations (rerun_), so that the jump resets those too.
  std::map<const Stmt*, std::vector<std::int32_t>> block_memo_;
  bool rerun_ = false;
  std::vector<std::int32_t> exc_slots_;  // frame offsets of enclosing handlers' exception values
  std::vector<std::int32_t> arm_entries_;
  // frame ranges [lo, hi) of temporaries a tuple or adt value is being built in
  std::vector<std::pair<std::int32_t, std::int32_t>>
      building_;  // pcs of handler arms: reached by raise
  std::vector<LoopCtx> loops_;
  Pos cur_pos_;
  std::int32_t block_ = -1;  // .sbl statement number of the current position
  std::int64_t iota_ = -1;
  ModInfo* const_mod_ = nullptr;             // module whose cons are being declared
  std::map<const Expr*, Type*> type_cache_;  // type_of results
  std::map<const Expr*, std::optional<ConstVal>> const_cache_;
  std::map<std::string, ExceptionInfo> exceptions_;
  // Declared inside functions, by declaration (made once, however often
  // its function's code is generated); numbered in the order first met.
  std::map<const Stmt*, std::vector<ExceptionInfo>> local_exceptions_;

  // ---- exceptions (exception_values.cpp) ----
  void declare_exceptions();
  ExceptionInfo exception_layout(const TypeNode* values);  // its values and descriptor
  void declare_local_exceptions(const Stmt& s);            // `E: exception(T);` in a block
  const ExceptionInfo* exception_named(const Expr* e);     // a name not shadowed, else null
  std::optional<Loc> gen_exception_value(const Expr* e);   // `E(v, ...)` or `E`, else nullopt
  Loc gen_raised(const Expr* e);                           // what `raise e` raises
  bool is_exception_value(const Type* t) const;
  // `raises` clauses (limbo.txt 4.3): a function's clause names declared
  // exceptions, and a definition's clause is its declaration's. A raise
  // the clause does not list is accepted, as Inferno's compiler accepts it
  // (the difftest corpus's r_exc_adt_propagate.b, compiled by Inferno,
  // raises Err from a function with no clause).
  void check_raises_clause(const FuncInfo& f);
  void check_raises_match(const Type* defined, const Type* declared, const std::string& fname,
                          const Pos& pos);
  // `exception e`: in an arm naming one declared exception, e is its values;
  // elsewhere the exception's string.
  void bind_exception_name(const CaseArm& arm, const std::string& name, std::int32_t slot,
                           const Pos& pos);

  // ---- polymorphism (poly.cpp) ----
  using Bindings = std::map<Type*, Type*>;
  std::vector<std::map<std::string, Type*>> tparam_scopes_;  // type parameters in scope
  class TparamScope {                                        // names type parameters while it lives
   public:
    TparamScope(Compiler& c, const std::vector<std::string>& names,
                const std::vector<Type*>& types);
    ~TparamScope();
    TparamScope(const TparamScope&) = delete;
    TparamScope& operator=(const TparamScope&) = delete;

   private:
    Compiler& c_;
  };
  struct PolySlot {  // a hidden argument pair of the current function
    Type* tparam;
    std::string fn;
    std::int32_t off;  // module value; the link index follows
  };
  std::vector<PolySlot> poly_slots_;
  std::int32_t self_slot_ = -1;  // MP slot of the "$self" module value
  int self_table_ = -1;          // its import table: all of the module's links
  struct SelfFix {
    std::int32_t pc;
    FuncInfo* f;
  };
  std::vector<SelfFix> self_fixes_;
  // Where a function's code, case tables and handlers begin (flow.cpp).
  struct FlowStart {
    std::int32_t pc;
    std::size_t tables, handlers;
  };
  void finish_jumps(const FlowStart& from);
  bool calls_in(const Expr* e);
  std::string temp_key(Type* t);
  std::optional<Loc> reusable_base(const Loc& l, Type* t);
  Loc alt_target(const Expr* target, bool declare, std::size_t guards, Type* rt);
  Type* tparam_named(const std::string& name) const;
  std::vector<Type*> make_tparams(const std::vector<std::string>& names, const Pos& pos);
  void constrain(const std::vector<TypeConstraint>& clause, const std::vector<Type*>& tps,
                 ModInfo* scope);
  Type* resolve_poly_fn(const TypeNode* tn, ModInfo* scope);
  Type* instance(Type* base, const std::vector<Type*>& targs, const Pos& pos);
  Type* resolve_instance(Type* base, const TypeNode* tn, ModInfo* scope);
  void check_type_arg(Type* a, const Pos& pos);
  bool unify(Type* p, Type* a, Bindings& b);
  Type* subst(Type* t, const Bindings& b);
  Type* member_type(const Type* inst, Type* t);
  static bool mentions(const Type* t, const Type* p);  // whether p occurs in t
  const Expr* inst_base(const Expr* e, std::vector<Type*>* targs);
  void instantiate(const Expr* call, CallTarget& c, AdtInfo* adt,
                   const std::vector<Type*>& explicit_args);
  std::string poly_names(const Bindings& b);  // "T is string, U is ..." for messages
  bool poly_call_target(const Expr* call, CallTarget& c);
  void alloc_poly_slots(FuncInfo& f);
  void gen_hidden_args(const CallTarget& c, const Operand& fr, std::int32_t off, const Pos& pos);
  Operand self_module();
  void export_late(FuncInfo* f);  // a link for $self, after the declared ones
  int late_links_ = 0;
  int poly_hidden_size(const CallTarget& c);

  // ---- function references (fn_refs.cpp) ----
  Loc gen_fn_value(const Expr* e, const Loc* dest, Type* want = nullptr);
  bool names_poly_fn(const Expr* e);
  // A reference to a polymorphic function with a `for` clause is to a
  // wrapper with the instance's signature that passes the hidden arguments
  // of the binding: one per function and binding, compiled after the others.
  struct PolyWrapper {
    std::string callee;          // the function as its references name it
    std::vector<Type*> binding;  // its type parameters' types, in order
    std::size_t index;           // the wrapper in funcs_
  };
  std::vector<PolyWrapper> poly_wrappers_;
  std::deque<Decl> wrapper_decls_;
  std::map<const Expr*, Bindings> bound_calls_;  // a wrapper's call: its binding
  FuncInfo* poly_wrapper(const Expr* callee, const std::vector<Type*>& tps, const Bindings& b,
                         Type* inst, const Pos& pos);
  // An adt's function as a value (`Adt.f`, `m->Adt.f`): its adt; report
  // refuses a name the adt lacks.
  AdtInfo* adt_fn_ref(const Expr* e, const Expr** modexpr, std::vector<Type*>* targs, bool report);
  void refuse_self_ref(const Expr* e, AdtInfo* ad, Type* ft);
  bool top_level_name(const std::string& name) const;  // not hidden by a block's name
  bool fn_ref_target(const Expr* callee, CallTarget& c);
  Operand fn_ref_module(const Expr* ref, Loc& idx);

  // ---- diagnostics ----
  void error(const Pos& p, const std::string& msg);
  [[noreturn]] void fail(const Pos& p, const std::string& msg);
  [[noreturn]] void unsupported(const Pos& p, const std::string& what);

  // ---- types and declarations (compile_decls.cpp) ----
  Type* mk(TK k, Type* elem = nullptr);
  Type* resolve(const TypeNode* tn, ModInfo* scope);
  Sym* lookup(const std::string& name);
  ModInfo* declared_module_var(const std::string& name, ModInfo* scope);
  void declare_globals();
  // declare_globals' passes and forms.
  std::vector<PendingAdt> declare_names();
  Type* con_type(TK k) const;                 // a constant's type: string, real, big, byte or int
  Type* const_type(const ConstVal& v) const;  // that, or a fixed-point constant's type
  // Fixed-point types and values (fixed_point.cpp).
  Type* resolve_fixed(const TypeNode* tn);
  Loc gen_fixed_muldiv(const Expr* e, Type* t, const Loc* dest);
  Loc gen_fixed_convert(const Loc& v, Type* to, const Pos& pos, const Loc* dest);
  void rescale(const Operand& x, double ratio, const Operand& d);
  void emit_fixed_muldiv(bool mul, Type* t, const Loc& x, const Loc& y, const Operand& d);
  Type* fixed_call_type(const Expr* call);  // `fpt(e)`: fpt a fixed-point type name, else null
  std::optional<ConstVal> const_fixed(const ConstVal& v, Type* to, const Pos& pos);
  void declare_module_members(const Decl& d);
  void declare_module_cons(const Decl& mm, ModInfo* mod);
  void import_implemented_members();
  void declare_global_cons(const Decl& d);
  std::optional<Sym> adt_con_sym(const Expr* value);  // `con Adt(...)`, else nullopt
  void declare_global_var(const Decl& d);
  void init_global(const Decl& d);  // `name = constant;` at top level
  void declare_import(const Decl& d);
  // Module data (module_data.cpp): the implemented module's variables, first
  // in its data; `m->x` and an imported x of another module's data.
  void declare_implemented_data();
  // The data of every module `implement A, B;` names, sorted by name: this
  // module's own data, as laid out and exported as `.mp`.
  std::vector<std::pair<std::string, Type*>> implemented_data();
  std::optional<Loc> module_data_member(const Expr* modexpr, ModInfo* mod, const std::string& name,
                                        const Pos& pos);
  std::optional<Loc> imported_data(const Expr* e);  // else nullopt
  std::vector<std::pair<std::string, Sym>> imported_syms(const std::vector<std::string>& names,
                                                         const Expr* from, const Pos& pos);
  void declare_function(const Decl& d);
  // Globals kept in the data section (global_data.cpp).
  void const_data(const ConstVal& v, Type* t, std::int32_t off);
  const std::vector<ExprP>* composite_values(const Expr* e, ModInfo*& scope);
  bool const_elem_data(const Expr* e, Type* t, std::int32_t off);
  Type* global_init_type(const Expr* e);
  bool array_values(const Expr* e, std::vector<const Expr*>& out);
  bool array_data(const Expr* e, Type* t, std::int32_t off);
  // Type aliases of every module (modules true) and of the top level, in any order.
  void declare_module_types(bool modules);
  void import_type_names();  // top-level imports of type names, before adts resolve
  void declare_adt(AdtInfo& a, const Decl& d, ModInfo* scope);
  void resolve_adt(AdtInfo& a, const Decl& d, ModInfo* scope);
  void compile_function(FuncInfo& f);
  std::int32_t mp_alloc(Type* t);
  std::int32_t desc_for(std::int32_t size, const std::vector<std::int32_t>& ptrs);
  std::int32_t desc_for_type(Type* t);
  std::int32_t adt_desc(AdtInfo& a, int variant);
  Operand str_const(const std::string& s);
  Operand word_const(std::int64_t v);  // an immediate when it fits, else MP
  Operand nil_slot();                  // a module data word holding nil (H)
  Operand big_const(std::int64_t v);
  Operand real_const(double v);
  int import_table(ModInfo* mod);
  std::vector<FuncInfo*> exported_in_order();  // the link table's order
  std::vector<std::string> self_links();
  void finish_module();

  // ---- code emission ----
  std::int32_t emit(Op op, const Operand& src, const Middle& mid, const Operand& dst);
  std::int32_t emit(Op op, const Operand& src, const Operand& dst) {
    return emit(op, src, Middle{}, dst);
  }
  std::int32_t pc() const { return static_cast<std::int32_t>(m_.code.size()); }
  std::int32_t new_label();
  void place(std::int32_t label);
  std::int32_t jump(Op op, const Operand& src, const Middle& mid, std::int32_t label);
  std::int32_t frame_alloc(Type* t);
  Loc temp(Type* t);
  void release_temps();
  bool unreachable() const;
  bool falls_through() const;
  bool jumped_to(std::int32_t at) const;
  TempSlot* busy_temp(std::int32_t off);
  std::vector<std::int32_t> open_frames_;
  int block_depth_ = 0;
  bool for_init_ = false;  // compiling a for loop's init part
  // The next block takes the scope already open (an alt arm's, holding the
  // names its guard declares) as its own, as Inferno's compiler scopes them.
  bool adopt_scope_ = false;
  bool declare_tuple_in_place(const Expr* lhs, const Expr* rhs);
  void declare_tuple_names(const Expr* lhs, const Loc& whole, bool twice);
  Loc alt_sent(const Expr* v, Type* et);
  void alt_unpack(const Expr* target, const Loc& val, bool declare);
  bool reads_scope_var(const Expr* e, const Scope& scope) const;
  std::vector<const FuncInfo*> inlining_;         // inlined calls being expanded
  std::vector<std::vector<Scope>> inline_outer_;  // their callers' scopes
  Loc gen_subst(const Sym& s, const Loc* dest);
  std::set<const FuncInfo*> inlined_only();
  std::optional<InlineBody> inlinable(const FuncInfo& f);
  void check_dropped(const std::set<const FuncInfo*>& skipped);
  void compile_functions();
  std::optional<Loc> gen_inline_call(const Expr* e, const CallTarget& c, const Loc* dest);
  bool inline_scope(const Expr* e, const CallTarget& c,
                    const std::function<void(const InlineBody&)>& body_gen);
  bool gen_inline_cond(const Expr* e, bool when, std::int32_t label);
  std::optional<Loc> gen_folded_sum(const Expr* e, Type* t, const Loc* dest);
  void nil_tuple_temp(const Loc& v);
  bool local_field(const Expr* e);          // braced blocks open in the current function
  void nil_block_vars(const Scope& scope);  // frames whose arguments are being set
  bool is_arg_slot(const Operand& o) const;
  bool names(const Expr* e, const Loc& l);
  void free_temp(const Loc& l, const Operand* keep = nullptr);
  Loc load_temp(const Loc& l, bool consume);
  bool reusable_temp(const Loc& l, Type* t);
  Middle as_mid(const Loc& l, bool consume = false);
  // value in a slot (consume: l is not used again, its temporaries may go)
  Operand direct(
      const Loc& l,
      bool consume = false);  // value in a slot usable as a middle operand or register base
  Operand field_or_direct(const Loc& l);

  // ---- constants (const_eval.cpp) ----
  std::optional<ConstVal> const_eval(const Expr* e);
  std::optional<ConstVal> const_eval_uncached(const Expr* e);
  std::optional<ConstVal> const_ident(const Expr* e);  // con names, iota, imported cons
  std::optional<ConstVal> const_field(const Expr* e);  // Mod->con, Adt.con
  std::optional<ConstVal> const_unary(const Expr* e);
  std::optional<ConstVal> const_cast_of(const Expr* e);
  std::optional<ConstVal> const_binary(const Expr* e);

  // ---- expressions (compile_expr.cpp) ----
  Type* type_of(const Expr* e);  // type of an expression without generating code
  Loc gen(const Expr* e, const Loc* dest = nullptr);
  // gen's forms: folded constants, names, nil, x++ and x--, assignments as
  // values, indexing, slices, load.
  Loc gen_const(const ConstVal& v, const Loc* dest);
  Loc gen_nil(const Loc* dest);
  Loc gen_ident(const Expr* e, const Loc* dest);
  Loc gen_post_step(const Expr* e, const Loc* dest);
  Loc gen_assign_value(const Expr* e, const Loc* dest);
  Loc assigned_value(const Loc& var, const Loc* dest);
  Loc gen_index(const Expr* e, const Loc* dest);
  Loc gen_slice(const Expr* e, const Loc* dest);
  Loc gen_slice_of_name(const Expr* e, Type* at, const Loc* dest);
  Loc gen_load(const Expr* e, const Loc* dest);
  // New values (compile_values.cpp).
  Loc gen_tuple_lit(const Expr* e, const Loc* dest);
  Loc gen_array_new(const Expr* e, const Loc* dest);
  Loc gen_list_lit(const Expr* e, const Loc* dest);
  Loc gen_chan_new(const Expr* e, const Loc* dest);
  void emit_cons(Op op, const Operand& v, Type* et, const Operand& list);  // op from cons_op
  Loc gen_to(const Expr* e, Type* want, const Loc* dest = nullptr);  // with conversion of constants
  void move(const Loc& src, const Loc& dst);
  Loc deliver(const Loc& r, const Loc* dest);
  Loc lvalue(const Expr* e);
  void assign_expr(const Expr* e);
  std::optional<bool> const_test(const Expr* e);
  void gen_cond(const Expr* e, bool when, std::int32_t label);
  static constexpr int kNeedsCode = 10;
  int addressing_rank(const Expr* e);
  void check_format(const Expr* call);  // Sys->print and the like (format_check.cpp)
  // Calls (compile_call.cpp).
  Loc gen_call(const Expr* e, const Loc* dest);
  Loc gen_call_full(const Expr* e, const Loc* dest, bool spawn);
  CallTarget call_target(const Expr* call);
  std::pair<const Expr*, const Expr*> module_self(const Expr* e);  // self and module value
  std::vector<ExprP> synthetic_;      // expressions the compiler made, kept while it runs
  std::optional<Loc> assigned_elem_;  // the element the last `a[i] = v` stored into
  // Whether e calls something once compiled: as has_call, but a constructor
  // (`ref T(...)`) or a function expanded in place calls nothing itself.
  bool calls(const Expr* e);
  bool inert_call(const Expr* call);
  void nil_made_adt(const Expr* made, const Loc& field);
  int calls_depth_ = 0;
  // modexpr: the module value of `m->Adt.f(...)`, else found through the adt's import.
  void adt_call_target(const Expr* call, AdtInfo* ad, const std::string& name, const Expr* self,
                       CallTarget& c, const Expr* modexpr = nullptr);
  void call_args(const Expr* call, const CallTarget& c, std::vector<const Expr*>& args,
                 std::vector<Type*>& ptypes);
  Loc gen_binary(const Expr* e, const Loc* dest);
  // A binary node's operands, computed in Inferno's order (eval_order.h).
  std::pair<Loc, Loc> gen_operands(const Expr* e, Type* ta, Type* tb, Order order = Order::Arith);
  void assign_index(const Expr* lhs, const Expr* rhs);  // a[i] = v, index first
  // Unary operators (compile_unary.cpp).
  Loc gen_unary(const Expr* e, const Loc* dest);
  Type* ref_call_type(const Expr* callee);
  Loc gen_ref(const Expr* e, const Loc* dest);
  Loc gen_ref_values(const Expr* call, Type* ct, const Loc* dest);
  Loc gen_ref_empty(Type* named, const Loc* dest);
  Loc gen_tagof(const Expr* e, const Loc* dest);
  Loc gen_pre_step(const Expr* e, const Loc* dest);
  Loc gen_negate(const Expr* e, const Loc& v, const Loc* dest);
  Loc gen_head(const Expr* e, const Loc& v, const Loc* dest);
  // The adt (or pick variant) a type name denotes, else null.
  Type* adt_type_named(const Expr* e);
  AdtInfo* qualified_call_target(const Expr* call, const Expr* modexpr, const Expr* inner,
                                 const std::string& name, CallTarget& c);
  // The type of a name declared by `name := rhs` whose value has type t
  // (decl_types.cpp).
  Type* declared_type(const Expr* rhs, Type* t);
  // `ref Adt.Tag...`: the variant's ref type, else null.
  Type* variant_ref_type(const Expr* e);
  // gen_to of such an expression for a variable of the variant's type.
  std::optional<Loc> gen_variant_to(const Expr* e, Type* want, const Loc* dest);
  ModAdtCon module_adt_con(const Expr* e);
  std::optional<Loc> adt_con(const Expr* e, const Loc* dest);  // Mod->adtcon, else nullopt
  Loc gen_cast(const Expr* e, const Loc* dest);
  bool whole_value(Type* t, const std::vector<ExprP>& args);  // `Adt(v)` of an Adt v
  Loc gen_construct(Type* t, const std::vector<ExprP>& args, const Pos& pos, const Loc* dest);
  Loc gen_array_lit(const Expr* e, const Loc* dest, Type* want_elem = nullptr);
  Loc addr_of_field(const Loc& base, std::int32_t off, Type* ft);
  Loc index_loc(const Expr* e);
  // `s[i]` of a string, and its update by op ("+", "-"...) with rhs (null:
  // 1); post yields the old character, else the new (string_elems.cpp).
  bool is_str_elem(const Expr* e);
  Loc str_elem_update(const Expr* ix, const std::string& op, const Expr* rhs, bool post,
                      const Loc* dest);
  std::optional<Loc> gen_str_step(const Expr* e, const Loc* dest);  // s[i]++ and the like
  void check_assignable(Type* to, Type* from, const Pos& pos, const char* what);
  Loc result_loc(Type* t, const Loc* dest);
  Loc materialize_bool(const Expr* e, const Loc* dest);
  void tuple_assign(const Expr* lhs, const Loc& val, bool declare);
  std::optional<Loc> names_tuple(const Expr* lhs, Type* t);
  bool assign_tuple_in_place(const Expr* lhs, const Expr* rhs, Type* t);
  Loc tuple_copy(const Loc& whole, const Loc* dest);
  void declare_local(const std::string& name, Type* t, const Pos& pos, Loc* out = nullptr);
  void note_local(const std::string& name, Type* t, std::int32_t off, const Pos& pos,
                  bool exception = false);

  // ---- statements (compile_stmt.cpp) ----
  void gen_stmt(const Stmt& s);
  // gen_stmt's forms.
  void gen_expr_stmt(const Stmt& s);
  void gen_decl_stmt(const Stmt& s);
  void gen_con_decl(const Stmt& s);
  // `a[lo:] = b` (b the expression rhs, else value): a and lo.
  std::pair<Loc, Loc> assign_slice(const Expr* lhs, const Expr* rhs, const Loc* value);
  void gen_type_decl(const Stmt& s);    // `T: type t;` in a block
  void gen_import_decl(const Stmt& s);  // `a, b: import m;` in a block
  void gen_if(const Stmt& s);
  void gen_while(const Stmt& s);
  void gen_do_while(const Stmt& s);
  void gen_break(const Stmt& s);
  void gen_return(const Stmt& s);
  void gen_raise(const Stmt& s);
  void gen_block(const Stmt& s);
  void gen_body(const Stmt& s);
  void set_pos(const Pos& p);
  void gen_case(const Stmt& s);
  void gen_case_arms(const Stmt& s, const std::vector<std::int32_t>& arm_labels, std::int32_t end);
  struct JumpEntry {
    std::int64_t lo, hi;  // inclusive
    std::int32_t label;
  };
  bool gen_jump_table(const Operand& x, const std::vector<JumpEntry>& entries, std::int32_t deflt,
                      Pos pos);
  void gen_pick(const Stmt& s);
  void gen_alt(const Stmt& s);
  Type* pick_parent(Type* a, Type* b);
  bool pick_assignable(Type* to, Type* from);
  Loc gen_send_value(const Expr* e, const Loc* dest);
  const Expr* nested_comm(const Expr* guard);
  // Sends and receives an alt has done for guards that hold them deeper:
  // the value's place.
  std::map<const Expr*, Loc> received_;
  // What `<-c` gives: c's element, or for an array of channels `(int, T)`,
  // the index of the channel that was ready and its value (chan_array.cpp).
  Type* received_type(Type* chan, const Pos& pos);
  void gen_array_recv(const Loc& chans, const Loc& into);
  // Where an alt entry receiving from chans into `into` points, and the copy
  // of the index that a value aligned to 8 needs after it (chan_array.cpp).
  Operand array_recv_entry(const Type* chans, const Operand& into);
  void wide_recv_fixup(const Type* chans, const Operand& into);
  void gen_exception(const Stmt& s);
  void gen_for(const Stmt& s);
};

Op mov_op(const Type* t);
std::int32_t round_up(std::int32_t v, std::int32_t a);

// The typed Dis op for a binary operator on operands of kind k (nop_ if none).
Op arith_op(const std::string& op, TK k);
Op cons_op(const Type* et);  // the cons* that puts a value of type et on a list
// `int "s"`, `big "s"`, `real "s"` of a constant string, as Inferno folds
// them (const_cast_fold.h); null for other conversions.
std::optional<ConstVal> fold_string_cast(const std::string& s, const std::string& to);
// The op that takes the address of an array element of type et.
Op index_op(const Type* et);

}  // namespace dis::limbo
