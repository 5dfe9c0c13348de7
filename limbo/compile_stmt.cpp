// Functions, assignments and statements; calls are in compile_call.cpp.
#include <algorithm>
#include <cstdint>
#include <functional>

#include "compiler_impl.h"
#include "eval_order.h"

namespace dis::limbo {

namespace {

// `x op= y` uses the op of `x op y`.
Op arith_assign_op(const std::string& op, TK k) {
  if (op.size() < 2 || op.back() != '=') return Op::nop_;
  return arith_op(op.substr(0, op.size() - 1), k);
}
}  // namespace

// ---- functions ----

void Compiler::compile_function(FuncInfo& f) {
  fn_ = &f;
  frame_size_ = 32;
  frame_ptrs_.clear();
  temps_.clear();
  jump_fixes_.clear();
  loops_.clear();
  exc_slots_.clear();
  arm_entries_.clear();
  scopes_.emplace_back();
  f.pc = pc();
  const FlowStart flow{f.pc, table_fixes_.size(), m_.handlers.size()};
  block_depth_ = 0;
  cur_pos_ = f.decl->pos;
  ++block_;
  // The definition's names for its adt's type parameters, then its own.
  TparamScope adt_names(*this, f.decl->tparams, f.adt ? f.adt->tparams : std::vector<Type*>{});
  std::vector<std::string> own;
  for (auto* p : f.type->tparams) own.push_back(p->name);
  TparamScope own_names(*this, own, f.type->tparams);
  const std::vector<Param>* decl_params =
      f.decl->type && f.decl->type->params.size() == f.type->params.size() ? &f.decl->type->params
                                                                           : nullptr;
  for (std::size_t i = 0; i < f.type->params.size(); ++i) {
    const FnParam& p = f.type->params[i];
    std::int32_t off = frame_alloc(p.type);
    f.args.push_back(DebugVar{p.name.empty() ? "nil" : p.name, p.type, off,
                              decl_params ? (*decl_params)[i].pos : f.decl->pos});
    if (!p.name.empty()) {
      Sym s;
      s.kind = Sym::Var;
      s.type = p.type;
      s.loc = fp(off);
      scopes_.back()[p.name] = s;
    }
  }
  alloc_poly_slots(f);
  check_raises_clause(f);
  try {
    gen_block(*f.decl->body);
  } catch (CompileError&) {
  }
  Pos endp = f.decl->pos;
  endp.line = f.decl->pos.end_line;
  endp.col = f.decl->pos.end_col > 0 ? f.decl->pos.end_col - 1 : 0;
  cur_pos_ = endp;
  // The closing ret, unless the end cannot be reached (the body ends in a
  // return or raise and nothing jumps past it), as Inferno's compiler does.
  if (pc() == f.pc || falls_through() || jumped_to(pc())) emit(Op::ret_, Operand{}, Operand{});
  finish_jumps(flow);
  m_.types[static_cast<std::size_t>(f.desc)] =
      TypeDesc{f.desc, round_up(frame_size_, 8), make_map(frame_ptrs_)};
  scopes_.pop_back();
  fn_ = nullptr;
}

// ---- assignment ----

// A tuple temporary unpacked into variables: its pointers are set to nil
// and it is free, as Inferno's compiler leaves it.
void Compiler::nil_tuple_temp(const Loc& v) {
  if (v.op.mode != AddrMode::Fp || !busy_temp(v.op.a)) return;
  std::vector<std::int32_t> ptrs;
  pointer_offsets(v.t, v.op.a, ptrs);
  for (std::int32_t off : ptrs) emit(Op::movp_, imm(-1), fp(off));
  busy_temp(v.op.a)->busy = false;
}

// An assignment's value is a copy of what was assigned, in a temporary of
// its own when nothing else receives it (while((x := f()) != nil) tests the
// copy), as Inferno's compiler makes it; an adt or tuple is not copied.
Loc Compiler::assigned_value(const Loc& var, const Loc* dest) {
  if (dest) {
    move(var, *dest);
    return *dest;
  }
  if (type_size(var.t) > 8 || var.t->k == TK::Adt || var.t->k == TK::Tuple) return var;
  Loc t = temp(var.t);
  move(var, t);
  return t;
}

// Whether e is x.f with x a variable of this function's frame.
// (Or of a global adt value: module data stays where it is, so a call
// cannot move the field.)
bool Compiler::local_field(const Expr* e) {
  if (e->kind != Expr::Field || e->a->kind != Expr::Ident || const_eval(e)) return false;
  Sym* s = lookup(e->a->op);
  if (!s || s->kind != Sym::Var) return false;
  return s->loc.mode == AddrMode::Fp || (s->loc.mode == AddrMode::Mp && s->type->k != TK::Ref);
}

void Compiler::assign_expr(const Expr* e) {
  const Expr* lhs = e->a.get();
  const Expr* rhs = e->b.get();
  const std::string& op = e->op;
  assigned_elem_.reset();
  if (op == ":=") {
    if (lhs->kind == Expr::Ident) {
      Type* t = type_of(rhs);
      if (t->k == TK::Error) {
        gen(rhs);  // reports the error
      }
      if (t->k == TK::Nil) fail(e->pos, "cannot declare " + lhs->op + " from nil");
      if (t->k == TK::None)
        fail(e->pos, "cannot declare " + lhs->op + " from an expression with no value");
      t = declared_type(rhs, t);
      std::int32_t off = frame_alloc(t);
      Loc l{fp(off), t};
      // The value cannot read the new name: a tuple or adt is built there.
      {
        Pushed built(building_, off, off + type_size(t));
        gen_to(rhs, t, &l);
      }
      Sym s;
      s.kind = Sym::Var;
      s.type = t;
      s.loc = l.op;
      scopes_.back()[lhs->op] = s;
      note_local(lhs->op, t, off, lhs->pos);
      return;
    }
    if (lhs->kind == Expr::TupleLit && declare_tuple_in_place(lhs, rhs)) return;
    if (lhs->kind == Expr::TupleLit) {
      Type* t = type_of(rhs);
      Loc v = gen(rhs);
      if (v.op.mode == AddrMode::Imm) fail(e->pos, "cannot unpack " + type_name(t));
      tuple_assign(lhs, v, true);
      nil_tuple_temp(v);
      return;
    }
    fail(e->pos, "only names can be declared with :=");
  }
  if (op == "<-=") {
    // A sent temporary is done with: its pointers are set to nil at once, a
    // tuple's too, as Inferno's compiler resets them.
    Loc v = gen_send_value(e, nullptr);
    if (v.t->k == TK::Tuple || v.t->k == TK::Adt)
      nil_tuple_temp(v);
    else
      free_temp(v);
    return;
  }
  if (op == "=") {
    if (lhs->kind == Expr::TupleLit) {
      Type* t = type_of(rhs);
      // `(a, b) = (nil, x)`: nil takes its type from the variable it goes to.
      if (t->k == TK::Error && rhs->kind == Expr::TupleLit &&
          rhs->args.size() == lhs->args.size()) {
        t = mk(TK::Tuple);
        for (std::size_t i = 0; i < lhs->args.size(); ++i) {
          const Expr* to = lhs->args[i].get();
          t->elems.push_back(type_of(to->kind == Expr::Nil ? rhs->args[i].get() : to));
        }
      }
      if (assign_tuple_in_place(lhs, rhs, t)) return;
      Loc tmp = temp(t);
      Loc v = gen_to(rhs, t, &tmp);
      tuple_assign(lhs, v, false);
      nil_tuple_temp(v);
      return;
    }
    if (lhs->kind == Expr::Nil) {
      gen(rhs);
      return;
    }
    if (lhs->kind == Expr::Index && type_of(lhs->a.get())->k == TK::String) {
      Loc s = lvalue(lhs->a.get());
      Loc i = gen_to(lhs->b.get(), t_int_);
      Loc c = gen_to(rhs, t_int_);
      emit(Op::insc_, c.op, as_mid(i), s.op);
      return;
    }
    if (lhs->kind == Expr::Slice) {
      assign_slice(lhs, rhs, nullptr);
      return;
    }
    // A right side with calls runs before the element or field address is
    // taken: the call may replace the array or object that holds it.
    if (has_call(rhs) && lhs->kind == Expr::Index) return assign_index(lhs, rhs);
    // A field of a local reference is another matter: no call can replace
    // a local, so the value goes straight there (lea 0(32(fp)) as Inferno).
    if (has_call(rhs) && lhs->kind != Expr::Ident && !local_field(lhs)) {
      Type* t = type_of(lhs);
      Loc v = temp(t);
      gen_to(rhs, t, &v);
      Loc l = lvalue(lhs);
      move(v, l);
      return;
    }
    Loc l = lvalue(lhs);
    gen_to(rhs, l.t, &l);
    if (lhs->kind == Expr::Index) assigned_elem_ = l;
    return;
  }
  // compound assignment
  if (is_str_elem(lhs)) {
    str_elem_update(lhs, op.substr(0, op.size() - 1), rhs, false, nullptr);
    return;
  }
  Loc l = lvalue(lhs);
  if (l.t->k == TK::Fixed && (op == "*=" || op == "/=")) {  // rescaled (fixed_point.cpp)
    Loc v = gen_to(rhs, l.t);
    check_assignable(l.t, v.t, e->pos, "assignment");
    emit_fixed_muldiv(op == "*=", l.t, l, v, l.op);
    free_temp(v);
    return;
  }
  Op aop = arith_assign_op(op, l.t->k);
  if (aop == Op::nop_) fail(e->pos, "operator " + op + " not defined on " + type_name(l.t));
  bool shift = op == "<<=" || op == ">>=" || op == "**=";
  Loc v = gen_to(rhs, shift ? t_int_ : l.t);
  if (!shift) check_assignable(l.t, v.t, e->pos, "assignment");
  // A string field too is added to where it is (`addc t,0(x)`), as
  // Inferno's compiler writes it.
  emit(aop, v.op, Middle{}, l.op);
  free_temp(v);
}

// ---- statements ----

void Compiler::gen_block(const Stmt& s) {
  bool adopt = adopt_scope_;
  adopt_scope_ = false;
  if (!adopt) scopes_.emplace_back();
  ++block_depth_;
  if (block_depth_ > 1) open_blocks_.push_back(OpenBlock{&s, scopes_.size() - 1, SIZE_MAX});
  std::int32_t brk = -1;
  if (!s.label.empty()) {
    brk = new_label();
    push_loop(LoopCtx{s.label, brk, -1, true});
  }
  for (auto& st : s.stmts) {
    try {
      gen_stmt(*st);
    } catch (CompileError&) {
    }
    release_temps();
  }
  // Leaving a block inside a function, Inferno's compiler sets the pointers
  // its variables hold to nil (what they point to is freed then, not when
  // the function returns); the function's own block needs none.
  if (block_depth_ > 1) {
    nil_block_vars(scopes_.back());
    std::vector<std::int32_t> ptrs = block_pointers(scopes_.back());
    if (open_blocks_.back().used < ptrs.size()) rerun_ = true;
    block_memo_[&s] = std::move(ptrs);
    open_blocks_.pop_back();
  }
  --block_depth_;
  if (brk >= 0) {
    loops_.pop_back();
    place(brk);
  }
  if (!adopt) scopes_.pop_back();
}

void Compiler::nil_block_vars(const Scope& scope) {
  if (unreachable()) return;
  for (std::int32_t off : block_pointers(scope)) emit(Op::movp_, imm(-1), fp(off));
}

// In frame order; an in-place tuple's last pointer-holding name has all
// its pointers reset a second time right after the first (`(ok, d) :=
// sys->stat(s)`: d's four strings, then the four again), as Inferno's
// compiler resets them.
std::vector<std::int32_t> Compiler::block_pointers(const Scope& scope) const {
  std::vector<std::vector<std::int32_t>> groups;
  for (const auto& [name, sym] : scope) {
    if (sym.kind != Sym::Var || sym.loc.mode != AddrMode::Fp) continue;
    std::vector<std::int32_t> g;
    pointer_offsets(sym.type, sym.loc.a, g);
    if (g.empty()) continue;
    std::sort(g.begin(), g.end());
    if (sym.nil_twice) {
      const std::vector<std::int32_t> once = g;
      g.insert(g.end(), once.begin(), once.end());
    }
    groups.push_back(std::move(g));
  }
  std::sort(groups.begin(), groups.end(),
            [](const auto& x, const auto& y) { return x.front() < y.front(); });
  std::vector<std::int32_t> ptrs;
  for (const auto& g : groups) ptrs.insert(ptrs.end(), g.begin(), g.end());
  return ptrs;
}

// A break or continue leaves the blocks open_blocks_[from...]: Inferno's
// compiler sets their variables' pointers to nil first, innermost block
// first, also those of variables declared after the jump (known from the
// blocks' ends: block_memo_ on a second compilation).
void Compiler::nil_left_blocks(std::size_t from) {
  for (std::size_t i = open_blocks_.size(); i-- > from;) {
    OpenBlock& ob = open_blocks_[i];
    auto known = block_memo_.find(ob.blk);
    std::vector<std::int32_t> ptrs =
        known != block_memo_.end() ? known->second : block_pointers(scopes_[ob.scope]);
    if (known == block_memo_.end()) ob.used = std::min(ob.used, ptrs.size());
    for (std::int32_t off : ptrs) emit(Op::movp_, imm(-1), fp(off));
  }
}

void Compiler::set_pos(const Pos& p) {
  cur_pos_ = p;
  ++block_;
}

void Compiler::gen_stmt(const Stmt& s) {
  set_pos(s.pos);
  switch (s.kind) {
    case Stmt::Empty:
      return;
    case Stmt::ExprS:
      gen_expr_stmt(s);
      return;
    case Stmt::Decl:
      gen_decl_stmt(s);
      return;
    case Stmt::ConDecl:
      gen_con_decl(s);
      return;
    case Stmt::TypeDecl:
      gen_type_decl(s);
      return;
    case Stmt::ImportDecl:
      gen_import_decl(s);
      return;
    case Stmt::Block:
      gen_block(s);
      return;
    case Stmt::If:
      gen_if(s);
      return;
    case Stmt::While:
      gen_while(s);
      return;
    case Stmt::DoWhile:
      gen_do_while(s);
      return;
    case Stmt::For:
      gen_for(s);
      return;
    case Stmt::Break:
    case Stmt::Continue:
      gen_break(s);
      return;
    case Stmt::Return:
      gen_return(s);
      return;
    case Stmt::Case:
      gen_case(s);
      return;
    case Stmt::Pick:
      gen_pick(s);
      return;
    case Stmt::Alt:
      gen_alt(s);
      return;
    case Stmt::Exception:
      gen_exception(s);
      return;
    case Stmt::ExcDecl:
      declare_local_exceptions(s);
      return;
    case Stmt::Spawn:
      if (s.e->kind != Expr::Call) fail(s.pos, "spawn needs a function call");
      gen_call_full(s.e.get(), nullptr, true);
      return;
    case Stmt::Exit:
      emit(Op::exit_, Operand{}, Operand{});
      return;
    case Stmt::Raise:
      gen_raise(s);
      return;
  }
}

void Compiler::gen_expr_stmt(const Stmt& s) {
  const Expr* e = s.e.get();
  if (e->kind == Expr::PostInc || e->kind == Expr::PostDec ||
      (e->kind == Expr::Unary && (e->op == "++" || e->op == "--"))) {
    if (gen_str_step(e, nullptr)) return;
    Loc l = lvalue(e->a.get());
    bool inc = e->kind == Expr::PostInc || e->op == "++";
    Op aop = arith_assign_op(inc ? "+=" : "-=", l.t->k);
    if (aop == Op::nop_ || l.t->k == TK::String || l.t->k == TK::Fixed)
      fail(e->pos, "++/-- needs an arithmetic operand, not " + type_name(l.t));
    Operand one = l.t->k == TK::Big ? big_const(1) : l.t->k == TK::Real ? real_const(1.0) : imm(1);
    emit(aop, one, Middle{}, l.op);
  } else if (e->kind == Expr::Assign) {
    assign_expr(e);
  } else if (e->kind == Expr::Call) {
    // A tuple or adt result nobody takes has its pointers reset, as
    // Inferno's compiler frees the call's temporary (`init0(ctxt, argv)`).
    Loc r = gen_call(e, nullptr);
    if (r.t && (r.t->k == TK::Tuple || r.t->k == TK::Adt)) nil_tuple_temp(r);
  } else {
    gen(e);
  }
}

// `a, b: T` and `a, b: T = e` in a function.
void Compiler::gen_decl_stmt(const Stmt& s) {
  Type* t = resolve(s.type.get(), nullptr);
  // `a, b: T = e` evaluates e once, before the names exist.
  std::optional<Loc> init;
  if (s.e) {
    // The value goes straight into the first name (`state: ref T = nil` is
    // a movp) and the others are copies of it (`d1, d2: int = 0` is `movw
    // $0,d1; movw d1,d2`), as Inferno's compiler writes it, unless it
    // reads an outer variable of one of those names.
    Scope named;
    for (auto& n : s.names) named[n] = Sym{};
    if (!reads_scope_var(s.e.get(), named)) {
      Loc first;
      declare_local(s.names[0], t, s.pos, &first);
      gen_to(s.e.get(), t, &first);
      for (std::size_t i = 1; i < s.names.size(); ++i) {
        Loc l;
        declare_local(s.names[i], t, s.pos, &l);
        move(first, l);
      }
      return;
    }
  }
  if (s.e) {
    Loc tmp = temp(t);
    init = gen_to(s.e.get(), t, &tmp);
  }
  for (std::size_t i = 0; i < s.names.size(); ++i) {
    Loc l;
    declare_local(s.names[i], t, s.pos, &l);
    // Without a value a pointer is nil already, in a loop too: every way
    // out of the block it is declared in (its end, break, continue, a
    // handler's catch) sets it to nil, and Inferno's compiler sets nothing.
    if (init) move(*init, l);
  }
}

// `a, b: con e` in a function: iota counts the names.
void Compiler::gen_con_decl(const Stmt& s) {
  for (std::size_t i = 0; i < s.names.size(); ++i) {
    iota_ = static_cast<std::int64_t>(i);
    auto v = const_eval(s.e.get());
    iota_ = -1;
    if (auto a = v ? std::nullopt : adt_con_sym(s.e.get())) {
      scopes_.back()[s.names[i]] = *a;
      continue;
    }
    if (!v) fail(s.pos, "con value is not constant");
    Sym sym;
    sym.kind = Sym::Con;
    sym.ival = v->i;
    sym.rval = v->r;
    sym.sval = v->s;
    sym.type = const_type(*v);
    scopes_.back()[s.names[i]] = sym;
  }
}

// `a[lo:] = b`: b's elements (rhs, else the value src) copied into a from
// lo. Returns a and lo, for the assignment's value.
std::pair<Loc, Loc> Compiler::assign_slice(const Expr* lhs, const Expr* rhs, const Loc* value) {
  Type* at = type_of(lhs->a.get());
  if (at->k != TK::Array) fail(lhs->pos, "only array slices can be assigned to");
  if (lhs->c)
    fail(lhs->pos,
         "only a slice without an upper bound (a[i:]) can be assigned to (limbo.txt 8.4.1)");
  Loc d = gen(lhs->a.get());
  Loc lo = gen_to(lhs->b.get(), t_int_);
  Loc src = rhs ? gen_to(rhs, at) : *value;
  if (!rhs) check_assignable(at, src.t, lhs->pos, "assignment");
  // slicela copies into the array where it is (`slicela t,$0,16(x)`).
  Operand a = is_ind(d.op) ? d.op : direct(d);
  emit(Op::slicela_, src.op, as_mid(lo), a);
  return {Loc{a, at}, lo};
}

void Compiler::gen_type_decl(const Stmt& s) {
  Type* t = resolve(s.type.get(), nullptr);
  for (auto& n : s.names)
    scopes_.back()[n] =
        Sym{Sym::TypeAlias, t, {}, 0, 0, "", nullptr, nullptr, nullptr, "", nullptr};
}

void Compiler::gen_import_decl(const Stmt& s) {
  for (auto& [n, sym] : imported_syms(s.names, s.e.get(), s.pos)) scopes_.back()[n] = sym;
}

void Compiler::gen_if(const Stmt& s) {
  std::int32_t lelse = new_label();
  gen_cond(s.e.get(), false, lelse);
  release_temps();
  gen_body(*s.body);
  if (s.else_body) {
    std::int32_t lend = new_label();
    if (jump(Op::jmp_, Operand{}, Middle{}, lend) >= 0 && const_test(s.e.get()))
      jump_fixes_.back().weak = true;
    place(lelse);
    gen_body(*s.else_body);
    place(lend);
  } else {
    place(lelse);
  }
}

// `while (e) body`; without e it loops until a break.
void Compiler::gen_while(const Stmt& s) {
  std::int32_t top = new_label(), end = new_label();
  place(top);
  if (s.e) gen_cond(s.e.get(), false, end);
  release_temps();
  push_loop(LoopCtx{s.label, end, top, false});
  gen_body(*s.body);
  loops_.pop_back();
  set_pos(s.pos);
  jump(Op::jmp_, Operand{}, Middle{}, top);
  place(end);
}

void Compiler::gen_do_while(const Stmt& s) {
  std::int32_t top = new_label(), cont = new_label(), end = new_label();
  place(top);
  push_loop(LoopCtx{s.label, end, cont, false});
  gen_body(*s.body);
  loops_.pop_back();
  place(cont);
  set_pos(s.e ? s.e->pos : s.pos);
  if (s.e)
    gen_cond(s.e.get(), true, top);
  else
    jump(Op::jmp_, Operand{}, Middle{}, top);
  place(end);
}

// `break` and `continue`, with or without a label.
void Compiler::gen_break(const Stmt& s) {
  bool brk = s.kind == Stmt::Break;
  for (auto it = loops_.rbegin(); it != loops_.rend(); ++it) {
    if (!s.label.empty() ? it->label == s.label : (brk ? !it->block_only : it->cont >= 0)) {
      std::int32_t target = brk ? it->brk : it->cont;
      if (target < 0) fail(s.pos, "continue " + s.label + " does not name a loop");
      nil_left_blocks(it->blocks);
      jump(Op::jmp_, Operand{}, Middle{}, target);
      return;
    }
  }
  fail(s.pos, std::string(brk ? "break" : "continue") +
                  (s.label.empty() ? " outside a loop" : " to unknown label " + s.label));
}

void Compiler::gen_return(const Stmt& s) {
  Type* rt = fn_->type->elem ? fn_->type->elem : t_none_;
  if (s.e && rt->k == TK::None && s.e->kind == Expr::Call && type_of(s.e.get())->k == TK::None) {
    gen(s.e.get());  // `return f();` of a function with no value: call, then return
  } else if (s.e) {
    if (rt->k == TK::None)
      fail(s.pos, "return value in function " + fn_->name + " that returns nothing");
    Loc d{Operand{AddrMode::IndFp, 16, 0}, rt};
    gen_to(s.e.get(), rt, &d);
  } else if (rt->k != TK::None) {
    fail(s.pos, "missing return value: function " + fn_->name + " returns " + type_name(rt));
  }
  release_temps();
  emit(Op::ret_, Operand{}, Operand{});
}

void Compiler::gen_raise(const Stmt& s) {
  if (s.e) {
    Loc v = gen_raised(s.e.get());
    if (v.t->k != TK::String && !is_exception_value(v.t))
      unsupported(s.pos, "raising a value of type " + type_name(v.t) + " is");
    emit(Op::raise_, direct(v), Operand{});
  } else {
    if (exc_slots_.empty()) fail(s.pos, "raise without a value outside an exception handler");
    emit(Op::raise_, fp(exc_slots_.back()), Operand{});
  }
}

// The body of an if, a loop or an arm. Only braces open a scope: a name
// declared by an unbraced body (`if(c) x := 1; else x = 0;`) belongs to
// the enclosing block, as in Inferno's compiler.
void Compiler::gen_body(const Stmt& s) {
  try {
    gen_stmt(s);
  } catch (CompileError&) {
  }
  release_temps();
}

void Compiler::gen_for(const Stmt& s) {
  // Names declared in the init part stay visible after the loop.
  if (s.init) {
    set_pos(s.init->pos);
    const bool outer_init = for_init_;
    for_init_ = true;
    if (s.init->kind == Expr::Assign) {
      assign_expr(s.init.get());
    } else {
      // Its value is not used (`for(i++; ...)` adds to i, no copy first).
      Stmt st;
      st.kind = Stmt::ExprS;
      st.e = s.init;
      st.pos = s.init->pos;
      gen_stmt(st);
    }
    for_init_ = outer_init;
    release_temps();
  }
  std::int32_t top = new_label(), cont = new_label(), end = new_label();
  place(top);
  if (s.e) {
    set_pos(s.e->pos);
    gen_cond(s.e.get(), false, end);
    release_temps();
  }
  push_loop(LoopCtx{s.label, end, cont, false});
  gen_body(*s.body);
  loops_.pop_back();
  place(cont);
  if (s.step) {
    Stmt st;
    st.kind = Stmt::ExprS;
    st.e = s.step;
    st.pos = s.step->pos;
    gen_stmt(st);
    release_temps();
  }
  jump(Op::jmp_, Operand{}, Middle{}, top);
  place(end);
}

// The channel operation an alt tests in a guard that is not itself a send
// or receive (`reqpool = <-reqdone :: reqpool`, `x = (c <-= v)`): the
// leftmost one, as limbo.txt 9.8 says; the guard's others are performed when
// its arm evaluates it. Null if the guard has none.
const Expr* Compiler::nested_comm(const Expr* g) {
  const Expr* found = nullptr;
  // In the order the operators are written: a send's `<-=` follows its
  // channel, a receive's `<-` precedes its operand.
  std::function<void(const Expr*)> walk = [&](const Expr* e) {
    if (!e || found) return;
    bool send = e->kind == Expr::Assign && e->op == "<-=";
    if (e->kind == Expr::Unary && e->op == "<-") found = e;
    walk(e->a.get());
    if (send && !found) found = e;
    walk(e->b.get());
    walk(e->c.get());
    for (auto& x : e->args) walk(x.get());
  };
  walk(g);
  return found;
}

// `c <-= v`: sends v; the expression's value is v (`case reply <-= r {`
// selects on r, as in Inferno's compiler).
Loc Compiler::gen_send_value(const Expr* e, const Loc* dest) {
  if (auto sent = received_.find(e); sent != received_.end()) return deliver(sent->second, dest);
  Loc c = gen(e->a.get());
  if (c.t->k != TK::Chan) fail(e->pos, "<-= needs a channel, not " + type_name(c.t));
  Loc v = gen_to(e->b.get(), c.t->elem);
  // A word constant is sent as it is (`send $1,c`), as Inferno's compiler
  // sends it.
  // A channel in a field of a frame's pointer is sent on where it is
  // (`send t,4(36(fp))`), as Inferno's compiler sends on it.
  // (Its base temporary, if any, is free once the send is emitted.)
  auto send = [&](const Operand& val) {
    if (c.op.mode != AddrMode::IndFp) {
      emit(Op::send_, val, direct(c));
      return;
    }
    emit(Op::send_, val, c.op);
    free_temp(c);
  };
  if (v.op.mode == AddrMode::Imm && !dest && (v.t->k == TK::Int || v.t->k == TK::Byte)) {
    send(v.op);
    return v;
  }
  if (v.op.mode == AddrMode::Imm) {
    Loc t = temp(c.t->elem);
    move(v, t);
    v = t;
  }
  send(v.op);
  return deliver(v, dest);
}

// Where an alt receives a guard's value: straight into the variable it
// assigns or (its arm's only guard) declares, as Inferno's compiler
// receives it; else a temporary the arm copies from.
Loc Compiler::alt_target(const Expr* target, bool declare, std::size_t guards, Type* rt) {
  if (target && target->kind == Expr::Ident && declare && guards == 1 && rt->k != TK::Nil &&
      rt->k != TK::None)
    return Loc{fp(frame_alloc(rt)), rt};
  if (target && target->kind == Expr::Ident && !declare) {
    Sym* v = lookup(target->op);
    if (v && v->kind == Sym::Var && (v->loc.mode == AddrMode::Fp || v->loc.mode == AddrMode::Mp) &&
        same_type(v->type, rt))
      return Loc{v->loc, rt};
  }
  return temp(rt);
}

// What an alt arm sends: a variable from where it is (`lea 32(fp),e`), as
// Inferno's compiler sends it; anything else from a temporary.
Loc Compiler::alt_sent(const Expr* v, Type* et) {
  const Sym* var = v->kind == Expr::Ident ? lookup(v->op) : nullptr;
  if (var && var->kind == Sym::Var &&
      (var->loc.mode == AddrMode::Fp || var->loc.mode == AddrMode::Mp) && same_type(var->type, et))
    return Loc{var->loc, var->type};
  Loc t = temp(et);
  return gen_to(v, et, &t);
}

// `(x, nil, y) := <-c =>`: the received tuple unpacked member by member; when
// every member is named (`(x, y) :=`) the names are laid out as the tuple and
// it is copied whole (`movmp`), as Inferno's compiler copies it. The
// temporary it came in is reset then (free already: the alt's statement
// released its temporaries).
void Compiler::alt_unpack(const Expr* target, const Loc& val, bool declare) {
  bool whole = declare && val.t->k == TK::Tuple && val.t->elems.size() == target->args.size() &&
               std::all_of(target->args.begin(), target->args.end(),
                           [](const ExprP& x) { return x->kind == Expr::Ident; });
  if (whole) {
    Loc to{fp(frame_alloc(val.t)), val.t};
    move(val, to);
    declare_tuple_names(target, to, true);
  } else {
    tuple_assign(target, val, declare);
  }
  std::vector<std::int32_t> ptrs;
  if (val.op.mode == AddrMode::Fp) pointer_offsets(val.t, val.op.a, ptrs);
  for (std::int32_t off : ptrs) emit(Op::movp_, imm(-1), fp(off));
}

void Compiler::gen_alt(const Stmt& s) {
  // One alt entry per guard; the guards of an arm joined by `or` share its
  // body, each storing what it received before jumping there.
  struct Arm {
    const AltArm* arm;
    std::size_t guard;  // index in arm->guards
    bool send;
    Loc chan, val;
    const Expr* target = nullptr;  // receive into (x := / x =)
    bool declare = false;
    std::int32_t label = -1;
    const Expr* recv = nullptr;  // the operation inside the guard (`l = <-c :: l =>`)
  };
  std::vector<Arm> sends, recvs;
  const AltArm* deflt = nullptr;
  for (auto& a : s.alts) {
    if (a.guards.empty()) {
      deflt = &a;
      continue;
    }
    for (std::size_t gi = 0; gi < a.guards.size(); ++gi) {
      const Expr* g = a.guards[gi].get();
      Arm arm{&a, gi, false, {}, {}, nullptr, false, -1, nullptr};
      const Expr* r = g;
      bool sends_here = g->kind == Expr::Assign && g->op == "<-=";
      if (g->kind == Expr::Assign && (g->op == ":=" || g->op == "=")) {
        arm.target = g->a.get();
        arm.declare = g->op == ":=";
        r = g->b.get();
      }
      if (!sends_here && (r->kind != Expr::Unary || r->op != "<-")) {
        // A guard holding its channel operation deeper (limbo.txt 9.8):
        // the alt receives into a temporary, or sends one, that the guard
        // then reads in its arm for that operation's value.
        r = nested_comm(g);
        if (!r) fail(g->pos, "alt arm needs a channel operation");
        arm.recv = r;
        arm.target = nullptr;
      }
      if (r->kind == Expr::Assign) {  // a send: the guard or one inside it
        arm.send = true;
        arm.chan = gen(r->a.get());
        if (arm.chan.t->k != TK::Chan) fail(r->pos, "<-= needs a channel");
        arm.val = alt_sent(r->b.get(), arm.chan.t->elem);
        sends.push_back(arm);
        continue;
      }
      arm.chan = gen(r->a.get());
      Type* rt = received_type(arm.chan.t, g->pos);
      arm.val = alt_target(arm.target, arm.declare, a.guards.size(), rt);
      recvs.push_back(arm);
    }
  }
  std::vector<Arm> all = sends;
  all.insert(all.end(), recvs.begin(), recvs.end());
  auto n = static_cast<std::int32_t>(all.size());
  Type* tab = mk(TK::Tuple);
  for (std::int32_t i = 0; i < 2 + 2 * n; ++i) tab->elems.push_back(t_int_);
  std::int32_t base = frame_alloc(tab);
  for (std::int32_t i = 0; i < n; ++i) {
    const Arm& a = all[static_cast<std::size_t>(i)];
    // The channel word read where it is (`movw 0(x),e`), as Inferno does.
    emit(Op::movw_, a.chan.op, fp(base + 8 + 8 * i));
    emit(Op::lea_, array_recv_entry(a.chan.t, a.val.op), fp(base + 12 + 8 * i));
  }
  emit(Op::movw_, imm(static_cast<std::int32_t>(sends.size())), fp(base));
  emit(Op::movw_, imm(static_cast<std::int32_t>(recvs.size())), fp(base + 4));
  Loc idx = temp(t_int_);
  emit(deflt ? Op::nbalt_ : Op::alt_, fp(base), idx.op);
  // goto's table: the entry count, then one pc per alt index (the default
  // last, for nbalt); the instruction names the first pc.
  std::int32_t nt = n + (deflt ? 1 : 0);
  std::int32_t jt = round_up(mp_size_, 4) + 4;
  mp_size_ = jt + 4 * nt;
  m_.data.push_back(DataItem{DataKind::Words, jt - 4, {nt}, ""});
  std::int32_t end = new_label();
  std::int32_t deflt_label = deflt ? new_label() : end;
  for (std::int32_t i = 0; i <= n; ++i) {
    if (i == n && !deflt) break;
    std::int32_t l = i < n ? new_label() : deflt_label;
    if (i < n) all[static_cast<std::size_t>(i)].label = l;
    m_.data.push_back(DataItem{DataKind::Words, jt + 4 * i, {0}, ""});
    table_fixes_.push_back(TableFix{m_.data.size() - 1, 0, l});
  }
  emit(Op::goto_, idx.op, Operand{AddrMode::Mp, jt, 0});
  release_temps();
  push_loop(LoopCtx{s.label, end, -1, false});
  std::vector<const AltArm*> done;
  for (std::int32_t i = 0; i <= n; ++i) {
    const AltArm* arm = i < n ? all[static_cast<std::size_t>(i)].arm : deflt;
    if (!arm || std::find(done.begin(), done.end(), arm) != done.end()) continue;
    done.push_back(arm);
    scopes_.emplace_back();
    set_pos(arm->pos);
    if (i == n) place(deflt_label);
    // The entries of this arm's guards, in the order they are written, so a
    // `:=` declares its name before a later `=` guard assigns it.
    std::vector<const Arm*> mine;
    for (auto& a : all)
      if (a.arm == arm) mine.push_back(&a);
    std::sort(mine.begin(), mine.end(),
              [](const Arm* x, const Arm* y) { return x->guard < y->guard; });
    std::int32_t body = mine.size() > 1 ? new_label() : -1;
    for (std::size_t k = 0; k < mine.size(); ++k) {
      const Arm& a = *mine[k];
      place(a.label);
      if (!a.send) wide_recv_fixup(a.chan.t, a.val.op);
      if (a.recv) {
        for (auto& ts : temps_)  // the value stays put while the guard reads it
          if (ts.off == a.val.op.a && a.val.op.mode == AddrMode::Fp) ts.busy = true;
        received_[a.recv] = a.val;
        Stmt st;
        st.kind = Stmt::ExprS;
        st.e = arm->guards[a.guard];
        st.pos = st.e->pos;
        gen_stmt(st);
        received_.erase(a.recv);
      } else if (a.target && a.target->kind == Expr::TupleLit) {
        alt_unpack(a.target, a.val, a.declare);
      } else if (a.target) {
        if (a.declare && !busy_temp(a.val.op.a)) {  // received where it is declared
          Sym v;                                    // a Var
          v.type = a.val.t;
          v.loc = a.val.op;
          scopes_.back()[a.target->op] = v;
          note_local(a.target->op, a.val.t, a.val.op.a, arm->pos);
        } else if (a.declare) {
          if (a.target->kind != Expr::Ident) fail(arm->pos, "only names can be declared with :=");
          Loc l;
          declare_local(a.target->op, a.val.t, arm->pos, &l);
          move(a.val, l);
        } else {
          move(a.val, lvalue(a.target));
        }
      }
      if (k + 1 < mine.size()) jump(Op::jmp_, Operand{}, Middle{}, body);
    }
    if (body >= 0) place(body);
    try {
      adopt_scope_ = arm->body->kind == Stmt::Block;
      gen_stmt(*arm->body);
    } catch (CompileError&) {
    }
    release_temps();
    scopes_.pop_back();
    jump(Op::jmp_, Operand{}, Middle{}, end);
  }
  loops_.pop_back();
  place(end);
}

void Compiler::gen_exception(const Stmt& s) {
  std::int32_t slot = frame_alloc(t_string_);
  std::int32_t end = new_label();
  std::int32_t pc1 = pc();
  std::size_t first_ptr = frame_ptrs_.size();
  gen_body(*s.body);
  std::int32_t pc2 = pc();
  jump(Op::jmp_, Operand{}, Middle{}, end);
  Handler h;
  h.offset = slot;
  h.pc1 = pc1;
  h.pc2 = pc2;
  // The handler's type covers the pointer slots the block allocated, so the
  // VM releases what the abandoned block held when it catches (as Inferno).
  std::vector<std::int32_t> block_ptrs(frame_ptrs_.begin() + static_cast<std::ptrdiff_t>(first_ptr),
                                       frame_ptrs_.end());
  std::sort(block_ptrs.begin(), block_ptrs.end());
  block_ptrs.erase(std::unique(block_ptrs.begin(), block_ptrs.end()), block_ptrs.end());
  h.type = block_ptrs.empty() ? -1 : desc_for(round_up(frame_size_, 8), block_ptrs);
  std::vector<HandlerCase> adts, exact, patterns;
  exc_slots_.push_back(slot);
  // `break` in a handler leaves the exception statement (Inferno labels it
  // as it labels case and alt).
  push_loop(LoopCtx{s.label, end, -1, false});
  for (auto& arm : s.arms) {
    std::int32_t at = pc();
    arm_entries_.push_back(at);
    for (auto& lab : arm.labels) {
      if (lab.star) {
        h.wildcard_pc = at;
        continue;
      }
      if (const ExceptionInfo* x = exception_named(lab.lo.get())) {
        adts.push_back(HandlerCase{x->full, at});
        continue;
      }
      auto v = const_eval(lab.lo.get());
      if (!v || v->k != TK::String) fail(arm.pos, "exception label must be a string constant");
      // A .dis handler table stores each name NUL-terminated: one with a NUL
      // in it would be cut short there and catch other exceptions.
      if (v->s.find('\0') != std::string::npos)
        fail(arm.pos, "exception label contains a NUL character");
      if (lab.hi) unsupported(arm.pos, "range of exception names is");
      (!v->s.empty() && v->s.back() == '*' ? patterns : exact).push_back(HandlerCase{v->s, at});
    }
    scopes_.emplace_back();
    if (!s.names.empty()) bind_exception_name(arm, s.names[0], slot, s.pos);
    set_pos(arm.pos);
    try {
      gen_stmt(*arm.body);
    } catch (CompileError&) {
    }
    release_temps();
    scopes_.pop_back();
    jump(Op::jmp_, Operand{}, Middle{}, end);
  }
  loops_.pop_back();
  exc_slots_.pop_back();
  // Sorted as Inferno's checklabels sorts them: exceptions by name, then
  // exact strings, then patterns, longest first.
  std::stable_sort(adts.begin(), adts.end(), [](auto& a, auto& b) { return a.name < b.name; });
  std::sort(exact.begin(), exact.end(), [](auto& a, auto& b) { return a.name < b.name; });
  std::stable_sort(patterns.begin(), patterns.end(),
                   [](auto& a, auto& b) { return a.name.size() > b.name.size(); });
  h.ne = static_cast<std::int32_t>(adts.size());  // matched only by exception values
  h.cases = adts;
  h.cases.insert(h.cases.end(), exact.begin(), exact.end());
  h.cases.insert(h.cases.end(), patterns.begin(), patterns.end());
  m_.handlers.push_back(h);
  place(end);
}

}  // namespace dis::limbo
