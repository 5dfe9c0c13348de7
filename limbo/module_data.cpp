// Module data: the variables a module declaration lists (`IP: module {
// noaddr: IPaddr; ... }`). The implementing module lays them out first in
// its data, sorted by name, and exports them as the link `.mp`; another
// module reaches `ip->noaddr` through the module value, whose first word
// is that data's address, with `.mp` in its import table so that loading
// checks the layout (Inferno's compiler does the same, DIS-FACTS 11).
#include <algorithm>
#include <map>

#include "compiler_impl.h"

namespace dis::limbo {

// `implement A, B;`: the data of all the modules named, sorted together as
// one module's data (a name both declare, with the same type as limbo.txt 5
// demands, is one variable). A module value of A or B loaded from this
// module reaches it in that layout; a client outside sees B's own layout,
// and loading checks the `.mp` signatures.
std::vector<std::pair<std::string, Type*>> Compiler::implemented_data() {
  std::map<std::string, Type*> all;
  for (ModInfo* m : impls_)
    for (auto& [name, t] : module_data(*m)) all.emplace(name, t);
  return {all.begin(), all.end()};
}

void Compiler::declare_implemented_data() {
  if (!impl_) return;
  std::map<std::string, Type*> seen;
  for (ModInfo* m : impls_)
    for (auto& [name, t] : module_data(*m))
      if (auto [it, added] = seen.emplace(name, t); !added && !same_type(it->second, t))
        error(m->decl ? m->decl->pos : Pos{0, 1, 0, 1, 0},
              "module data " + name + " of " + m->name + " has type " + type_name(t) +
                  " where another implemented module declares " + type_name(it->second));
  for (auto& [name, t] : implemented_data()) {
    std::int32_t off = mp_alloc(t);
    globals_dbg_.push_back(DebugVar{name, t, off, impl_->decl ? impl_->decl->pos : Pos{}});
    Sym s{Sym::Var, t,      Operand{AddrMode::Mp, off, 0}, 0, 0, "", nullptr, nullptr, nullptr,
          "",       nullptr};
    globals_[name] = s;
  }
}

std::optional<Loc> Compiler::module_data_member(const Expr* modexpr, ModInfo* mod,
                                                const std::string& name, const Pos& pos) {
  auto it = mod->members.find(name);
  if (it == mod->members.end() || it->second.kind != ModMember::Var) return std::nullopt;
  if (!modexpr) fail(pos, name + " is data of module " + mod->name + ": it needs a module value");
  std::int32_t off = 0;
  for (auto& [n, t] : implements(mod) ? implemented_data() : module_data(*mod)) {
    off = round_up(off, type_align(t));
    if (n == name) break;
    off += type_size(t);
  }
  auto& names = imports_[static_cast<std::size_t>(import_table(mod))].names;
  if (std::find(names.begin(), names.end(), ".mp") == names.end()) names.push_back(".mp");
  Loc m = gen(modexpr);
  if (m.t->k != TK::Module) fail(pos, "-> needs a module value, not " + type_name(m.t));
  Operand p = direct(m);
  Loc data = temp(t_int_);  // the data's address: not a reference the frame counts
  emit(Op::movw_, Operand{p.mode == AddrMode::Mp ? AddrMode::IndMp : AddrMode::IndFp, p.a, 0},
       data.op);
  return Loc{Operand{AddrMode::IndFp, data.op.a, off}, it->second.type};
}

std::optional<Loc> Compiler::imported_data(const Expr* e) {
  if (e->kind == Expr::Ident) {
    Sym* s = lookup(e->op);
    if (!s || s->kind != Sym::Imported) return std::nullopt;
    return module_data_member(s->modexpr, s->mod, s->member, e->pos);
  }
  if (e->kind != Expr::ModField) return std::nullopt;
  if (e->a->kind == Expr::Ident) {
    Sym* s = lookup(e->a->op);
    if (s && s->kind == Sym::ModType) return module_data_member(nullptr, s->mod, e->op, e->pos);
  }
  Type* mt = type_of(e->a.get());
  if (mt->k != TK::Module) fail(e->pos, "-> needs a module value, not " + type_name(mt));
  return module_data_member(e->a.get(), mt->mod, e->op, e->pos);
}

}  // namespace dis::limbo
