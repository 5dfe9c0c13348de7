// Exception declarations (`Err: exception(int, string);`), raising their
// values and handler arms naming them, laid out as Inferno's compiler does
// (the difftest corpus's r_exc_adt_* modules and appl/lib/ubfa's): the value
// is a heap object whose first word is the exception's unique name
// "Module.0.Err" (0 for module level), then a zero word, then the values.
// Handler tables list the arms naming exceptions first (their count is the
// table's `ne`), matched only by such values; the VM turns a value that
// leaves the function raising it into its name string.
#include <algorithm>

#include "compiler_impl.h"

namespace dis::limbo {

namespace {
constexpr std::int32_t kValuesOffset = 8;  // after the name and the zero word
}  // namespace

ExceptionInfo Compiler::exception_layout(const TypeNode* values) {
  ExceptionInfo x;
  std::vector<std::int32_t> ptrs{0};
  std::int32_t off = kValuesOffset, align = 4;
  for (auto& tn : values->elems) {
    Type* t = resolve(tn.get(), nullptr);
    off = round_up(off, type_align(t));
    align = std::max(align, type_align(t));
    x.values.push_back(Field{"", t, false, off});
    pointer_offsets(t, off, ptrs);
    off += type_size(t);
  }
  x.desc = desc_for(round_up(off, align), ptrs);
  if (x.values.size() == 1) {
    x.value_type = x.values[0].type;
  } else if (!x.values.empty()) {
    x.value_type = mk(TK::Tuple);
    for (auto& f : x.values) x.value_type->elems.push_back(f.type);
  }
  return x;
}

void Compiler::declare_exceptions() {
  for (auto& dp : prog_.decls) {
    if (dp->kind != Decl::Exception) continue;
    try {
      ExceptionInfo x = exception_layout(dp->type.get());
      // `E1, E2: exception(T);` declares each name, each its own exception.
      for (auto& name : dp->names) {
        x.full = impl_name_ + ".0." + name;  // 0: declared at module level
        x.type = mk(TK::Ref, t_string_);     // a distinct pointer type for raise
        exceptions_[name] = x;
      }
    } catch (CompileError&) {
    }
  }
}

// An exception declared in a block is named for the rest of it, as its other
// declarations are. Its name string must differ from every other
// exception's: the number after the module's name counts the module's
// local exception declarations from 1 (level 0 being the module's own).
// Inferno's number for them is not known (no reference module declares one).
void Compiler::declare_local_exceptions(const Stmt& s) {
  auto it = local_exceptions_.find(&s);
  if (it == local_exceptions_.end()) {
    std::string n = std::to_string(local_exceptions_.size() + 1);
    std::vector<ExceptionInfo> made;
    ExceptionInfo x = exception_layout(s.type.get());
    for (auto& name : s.names) {
      x.full = impl_name_ + "." + n + "." + name;
      x.type = mk(TK::Ref, t_string_);
      made.push_back(x);
    }
    it = local_exceptions_.emplace(&s, std::move(made)).first;
  }
  for (std::size_t i = 0; i < s.names.size(); ++i) {
    Sym sym;
    sym.kind = Sym::Exc;
    sym.exc = &it->second[i];
    scopes_.back()[s.names[i]] = sym;
  }
}

const ExceptionInfo* Compiler::exception_named(const Expr* e) {
  if (e->kind != Expr::Ident) return nullptr;
  if (const Sym* s = lookup(e->op)) return s->kind == Sym::Exc ? s->exc : nullptr;
  auto it = exceptions_.find(e->op);
  return it == exceptions_.end() ? nullptr : &it->second;
}

std::optional<Loc> Compiler::gen_exception_value(const Expr* e) {
  const ExceptionInfo* x = exception_named(e->kind == Expr::Call ? e->a.get() : e);
  if (!x) return std::nullopt;
  std::size_t given = e->kind == Expr::Call ? e->args.size() : 0;
  if (given != x->values.size())
    fail(e->pos, "wrong number of values for exception " + x->full + ": " + std::to_string(given) +
                     " given, " + std::to_string(x->values.size()) + " expected");
  Loc r = temp(x->type);
  emit(Op::new_, imm(x->desc), r.op);
  auto at = [&](std::int32_t off, Type* t) {
    return Loc{Operand{r.op.mode == AddrMode::Mp ? AddrMode::IndMp : AddrMode::IndFp, r.op.a, off},
               t};
  };
  move(Loc{str_const(x->full), t_string_}, at(0, t_string_));
  move(Loc{imm(0), t_int_}, at(4, t_int_));
  // Each value is computed straight into its field (a call's result too:
  // the new object is held by r alone), as Inferno's compiler builds it.
  for (std::size_t i = 0; i < given; ++i) {
    const Field& f = x->values[i];
    const Loc fd = at(f.offset, f.type);
    Pushed held(new_objects_, r.op.a);
    gen_to(e->args[i].get(), f.type, &fd);
  }
  return r;
}

Loc Compiler::gen_raised(const Expr* e) {
  if (auto v = gen_exception_value(e)) return *v;
  return gen(e);
}

void Compiler::bind_exception_name(const CaseArm& arm, const std::string& name, std::int32_t slot,
                                   const Pos& pos) {
  const ExceptionInfo* only = nullptr;
  bool typed = !arm.labels.empty();
  for (auto& lab : arm.labels) {
    const ExceptionInfo* x = lab.star ? nullptr : exception_named(lab.lo.get());
    typed = typed && x && (!only || only == x) && x->value_type;
    only = x;
  }
  Sym sym;
  sym.kind = Sym::Var;
  sym.type = typed ? only->value_type : t_string_;
  sym.loc = typed ? Operand{AddrMode::IndFp, slot, kValuesOffset} : Operand{AddrMode::Fp, slot, 0};
  scopes_.back()[name] = sym;
  note_local(name, t_string_, slot, pos, true);
}

bool Compiler::is_exception_value(const Type* t) const {
  for (auto& [name, x] : exceptions_)
    if (x.type == t) return true;
  for (auto& [decl, xs] : local_exceptions_)
    for (auto& x : xs)
      if (x.type == t) return true;
  return false;
}

namespace {

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return "(" + out + ")";
}

}  // namespace

void Compiler::check_raises_clause(const FuncInfo& f) {
  if (!f.decl->type) return;
  for (auto& [name, pos] : f.decl->type->raises)
    if (!exceptions_.count(name)) error(pos, "raises " + name + ": not an exception");
}

// A function's type includes the exceptions it raises (limbo.txt 4.3): its
// definition lists those its declaration lists, in any order.
void Compiler::check_raises_match(const Type* defined, const Type* declared,
                                  const std::string& fname, const Pos& pos) {
  std::vector<std::string> a = defined->raises, b = declared->raises;
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  if (a != b)
    error(pos, "function " + fname + " defined raising " + joined(defined->raises) +
                   " but declared raising " + joined(declared->raises));
}

}  // namespace dis::limbo
