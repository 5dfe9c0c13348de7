// A function's jumps once its code is complete: resolved, threaded (a jump
// to a jmp goes where that jmp goes) and the code no path reaches dropped,
// as Inferno's compiler leaves a function (an arm's jmp after a return, a
// jmp that only a threaded jump went to).
#include <algorithm>

#include "compiler_impl.h"

namespace dis::limbo {

namespace {
// Whether an instruction never goes on to the next.
bool ends_path(Op op) {
  switch (op) {
    case Op::jmp_:
    case Op::ret_:
    case Op::raise_:
    case Op::exit_:
    case Op::case_:
    case Op::casec_:
    case Op::casel_:
    case Op::goto_:
      return true;
    default:
      return false;
  }
}
}  // namespace

// Whether the last instruction emitted can go on to the next.
bool Compiler::falls_through() const { return m_.code.empty() || !ends_path(m_.code.back().op); }

void Compiler::finish_jumps(const FlowStart& from) {
  const std::int32_t start = from.pc, end = pc();
  auto code = [&](std::int32_t p) -> Instruction& { return m_.code[static_cast<std::size_t>(p)]; };
  auto label_at = [&](std::int32_t label) { return label_pc_[static_cast<std::size_t>(label)]; };
  std::vector<bool> jump(static_cast<std::size_t>(end - start), false);
  std::vector<std::int32_t> weak;
  for (auto& jf : jump_fixes_) {
    code(jf.pc).dst = imm(label_at(jf.label));
    jump[static_cast<std::size_t>(jf.pc - start)] = true;
    if (jf.weak) weak.push_back(jf.pc);
  }
  jump_fixes_.clear();
  auto is_jump = [&](std::int32_t p) {
    return p >= start && p < end && jump[static_cast<std::size_t>(p - start)];
  };
  // Threaded: where a chain of jmps ends (a loop of them stays put).
  for (std::int32_t p = start; p < end; ++p) {
    if (!is_jump(p)) continue;
    std::int32_t to = code(p).dst.a;
    for (int hops = 0; hops < 64 && is_jump(to) && code(to).op == Op::jmp_ && code(to).dst.a != to;
         ++hops)
      to = code(to).dst.a;
    code(p).dst = imm(to);
  }
  // A jmp to a ret, an exit or a case table's jump is a copy of it, as Inferno's
  // compiler writes it.
  for (std::int32_t p = start; p < end; ++p) {
    Instruction& in = code(p);
    if (in.op != Op::jmp_ || !is_jump(p)) continue;
    const std::int32_t to = in.dst.a;
    if (to < start || to >= end) continue;
    const Instruction& at = code(to);
    if (at.op == Op::ret_ || at.op == Op::exit_ || at.op == Op::case_ || at.op == Op::casec_ ||
        at.op == Op::casel_) {
      in = at;
      jump[static_cast<std::size_t>(p - start)] = false;
    }
  }
  // What a path from the entry, a case table or a handler reaches.
  std::vector<bool> live(jump.size(), false);
  std::vector<std::int32_t> work{start};
  auto root = [&](std::int32_t p) {
    if (p >= start && p < end) work.push_back(p);
  };
  for (std::size_t i = from.tables; i < table_fixes_.size(); ++i)
    root(label_at(table_fixes_[i].label));
  for (std::int32_t p : arm_entries_) root(p);
  for (std::size_t i = from.handlers; i < m_.handlers.size(); ++i) {
    root(m_.handlers[i].wildcard_pc);
    for (auto& c : m_.handlers[i].cases) root(c.pc);
  }
  while (!work.empty()) {
    std::int32_t p = work.back();
    work.pop_back();
    while (p >= start && p < end && !live[static_cast<std::size_t>(p - start)]) {
      live[static_cast<std::size_t>(p - start)] = true;
      if (is_jump(p)) work.push_back(code(p).dst.a);
      if (ends_path(code(p).op)) break;
      ++p;
    }
  }
  // A decided test's jmp over nothing live is a fall-through.
  for (std::int32_t p : weak) {
    const auto i = static_cast<std::size_t>(p - start);
    const std::int32_t to = code(p).dst.a;
    if (!live[i] || code(p).op != Op::jmp_ || !is_jump(p) || to <= p || to > end) continue;
    bool over_dead = true;
    for (std::int32_t q = p + 1; q < to && over_dead; ++q)
      over_dead = !live[static_cast<std::size_t>(q - start)];
    if (over_dead) live[i] = false;
  }
  if (std::all_of(live.begin(), live.end(), [](bool b) { return b; })) return;
  // New pcs: a dropped instruction's is that of the next one kept.
  std::vector<std::int32_t> to(live.size() + 1);
  std::int32_t n = start;
  for (std::size_t i = 0; i < live.size(); ++i) {
    to[i] = n;
    if (live[i]) {
      m_.code[static_cast<std::size_t>(n)] = m_.code[static_cast<std::size_t>(start) + i];
      m_.positions[static_cast<std::size_t>(n)] = m_.positions[static_cast<std::size_t>(start) + i];
      ++n;
    }
  }
  to[live.size()] = n;
  auto moved = [&](std::int32_t p) {
    return p >= start && p <= end ? to[static_cast<std::size_t>(p - start)] : p;
  };
  auto kept = [&](std::int32_t p) {
    return p < start || p >= end || live[static_cast<std::size_t>(p - start)];
  };
  for (std::size_t i = 0; i < live.size(); ++i)
    if (live[i] && jump[i]) {
      Instruction& in = m_.code[static_cast<std::size_t>(to[i])];
      in.dst = imm(moved(in.dst.a));
    }
  m_.code.resize(static_cast<std::size_t>(n));
  m_.positions.resize(static_cast<std::size_t>(n));
  for (auto& l : label_pc_) l = moved(l);
  auto refit = [&](auto& fixes) {
    std::erase_if(fixes, [&](auto& fx) { return !kept(fx.pc); });
    for (auto& fx : fixes) fx.pc = moved(fx.pc);
  };
  refit(call_fixes_);
  refit(import_fixes_);
  refit(self_fixes_);
  for (std::size_t i = from.handlers; i < m_.handlers.size(); ++i) {
    Handler& h = m_.handlers[i];
    h.pc1 = moved(h.pc1);
    h.pc2 = moved(h.pc2);
    if (h.wildcard_pc >= 0) h.wildcard_pc = moved(h.wildcard_pc);
    for (auto& c : h.cases) c.pc = moved(c.pc);
  }
}

}  // namespace dis::limbo
