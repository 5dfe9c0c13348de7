// case and pick statements: the case, casec and casel tables, and the jump
// table (goto) Inferno's compiler uses for a dense int case.
#include <algorithm>

#include "compiler_impl.h"

namespace dis::limbo {

// A case table in MP: n, then (lo, hi, pc) per entry, then the default pc.
void Compiler::gen_case(const Stmt& s) {
  Type* t = type_of(s.e.get());
  if (t->k != TK::Int && t->k != TK::String && t->k != TK::Byte && t->k != TK::Big)
    unsupported(s.pos, "case on " + type_name(t) + " is");
  Loc v = gen(s.e.get());
  if (t->k == TK::Byte) {
    Loc w = temp(t_int_);
    emit(Op::cvtbw_, v.op, w.op);
    v = w;
  }
  struct Entry {
    ConstVal lo, hi;
    std::int32_t label;
  };
  std::vector<Entry> entries;
  std::int32_t deflt = -1, end = new_label();
  std::vector<std::int32_t> arm_labels;
  for (auto& arm : s.arms) {
    std::int32_t l = new_label();
    arm_labels.push_back(l);
    for (auto& lab : arm.labels) {
      if (lab.star) {
        deflt = l;
        continue;
      }
      auto lo = const_eval(lab.lo.get());
      auto hi = lab.hi ? const_eval(lab.hi.get()) : lo;
      if (!lo || !hi) fail(lab.lo->pos, "case label is not a constant");
      TK want = t->k == TK::String ? TK::String : TK::Int;
      if (t->k == TK::Big) {  // int constants label a big case too
        for (auto* cv : {&*lo, &*hi})
          if (cv->k == TK::Int) cv->k = TK::Big;
        want = TK::Big;
      }
      if (lo->k != want || hi->k != want)
        fail(lab.lo->pos, "case label type does not match " + type_name(t));
      entries.push_back(Entry{*lo, *hi, l});
    }
  }
  if (t->k == TK::String)
    std::sort(entries.begin(), entries.end(),
              [](const Entry& a, const Entry& b) { return a.lo.s < b.lo.s; });
  else
    std::sort(entries.begin(), entries.end(),
              [](const Entry& a, const Entry& b) { return a.lo.i < b.lo.i; });
  if (t->k == TK::Int || t->k == TK::Byte) {
    // Adjacent labels of one arm are one entry, as in Inferno's tables.
    std::vector<Entry> merged;
    for (const Entry& en : entries) {
      if (!merged.empty() && merged.back().label == en.label && merged.back().hi.i + 1 == en.lo.i)
        merged.back().hi = en.hi;
      else
        merged.push_back(en);
    }
    entries = std::move(merged);
    std::int32_t dl = deflt >= 0 ? deflt : end;
    std::vector<JumpEntry> je;
    for (const Entry& en : entries) je.push_back(JumpEntry{en.lo.i, en.hi.i, en.label});
    if (gen_jump_table(v.op, je, dl, s.e->pos)) {
      gen_case_arms(s, arm_labels, end);
      return;
    }
  }
  auto n = static_cast<std::int32_t>(entries.size());
  auto word_fix = [&](std::int32_t off, std::int32_t label) {
    m_.data.push_back(DataItem{DataKind::Words, off, {0}, ""});
    table_fixes_.push_back(TableFix{m_.data.size() - 1, 0, label});
  };
  std::int32_t base = 0;
  if (t->k == TK::Big) {
    // casel: n, a pad word, then (lo, hi, pc, pad) in 24 bytes each, then the default.
    base = round_up(mp_size_, 8);
    mp_size_ = base + 8 + 24 * n + 4;
    m_.data.push_back(DataItem{DataKind::Words, base, {n}, ""});
    for (std::int32_t i = 0; i < n; ++i) {
      std::int32_t off = base + 8 + 24 * i;
      const Entry& en = entries[static_cast<std::size_t>(i)];
      m_.data.push_back(DataItem{DataKind::Bigs, off, {en.lo.i, en.hi.i + 1}, ""});
      word_fix(off + 16, en.label);
    }
    word_fix(base + 8 + 24 * n, deflt >= 0 ? deflt : end);
    emit(Op::casel_, v.op, Operand{AddrMode::Mp, base, 0});
  } else {
    base = round_up(mp_size_, 4);
    mp_size_ = base + 4 + 12 * n + 4;
    m_.data.push_back(DataItem{DataKind::Words, base, {n}, ""});
    for (std::int32_t i = 0; i < n; ++i) {
      std::int32_t off = base + 4 + 12 * i;
      const Entry& en = entries[static_cast<std::size_t>(i)];
      if (t->k == TK::String) {
        mp_ptrs_.push_back(off);
        mp_ptrs_.push_back(off + 4);
        m_.data.push_back(DataItem{DataKind::String, off, {}, en.lo.s});
        m_.data.push_back(DataItem{DataKind::String, off + 4, {}, en.hi.s});
      } else {
        m_.data.push_back(
            DataItem{DataKind::Words,
                     off,
                     {static_cast<std::int32_t>(en.lo.i), static_cast<std::int32_t>(en.hi.i + 1)},
                     ""});
      }
      word_fix(off + 8, en.label);
    }
    word_fix(base + 4 + 12 * n, deflt >= 0 ? deflt : end);
    Pos stmt_pos = cur_pos_;
    cur_pos_ = s.e->pos;  // the jump belongs to the subject, as in Inferno's tables
    emit(t->k == TK::String ? Op::casec_ : Op::case_, v.op, Operand{AddrMode::Mp, base, 0});
    cur_pos_ = stmt_pos;
  }
  gen_case_arms(s, arm_labels, end);
}

void Compiler::gen_case_arms(const Stmt& s, const std::vector<std::int32_t>& arm_labels,
                             std::int32_t end) {
  release_temps();
  push_loop(LoopCtx{s.label, end, -1, false});
  for (std::size_t i = 0; i < s.arms.size(); ++i) {
    place(arm_labels[i]);
    gen_body(*s.arms[i].body);
    // Each arm jumps to the end, the last one too (flow.cpp drops that jmp
    // unless the arm is empty: the table then goes to it), as Inferno's
    // compiler does.
    jump(Op::jmp_, Operand{}, Middle{}, end);
  }
  loops_.pop_back();
  place(end);
}

// Inferno's compiler jumps through a table when the labels span at least 3
// values and at most 3 per entry (measured on its output for the corpus):
// x - lo is checked against the span, then indexes a table of pcs with the
// default pc for the holes. The table in MP: its length, the pcs, the
// default last; goto names the first pc.
bool Compiler::gen_jump_table(const Operand& x, const std::vector<JumpEntry>& entries,
                              std::int32_t deflt, Pos pos) {
  if (entries.empty()) return false;
  std::int64_t lo = entries.front().lo, span = entries.back().hi - lo + 1;
  auto n = static_cast<std::int64_t>(entries.size());
  if (span < 3 || span > 3 * n || span > 32767) return false;
  auto words = static_cast<std::int32_t>(span);
  std::int32_t base = round_up(mp_size_, 4);
  mp_size_ = base + 4 + 4 * (words + 1);
  std::vector<std::int64_t> init(static_cast<std::size_t>(words) + 2, 0);
  init[0] = words + 1;
  m_.data.push_back(DataItem{DataKind::Words, base, init, ""});
  std::size_t item = m_.data.size() - 1;
  for (std::int32_t k = 0; k <= words; ++k) {
    std::int32_t label = deflt;
    for (const JumpEntry& en : entries)
      if (k < words && lo + k >= en.lo && lo + k <= en.hi) label = en.label;
    table_fixes_.push_back(TableFix{item, static_cast<std::size_t>(k) + 1, label});
  }
  Pos stmt_pos = cur_pos_;
  cur_pos_ = pos;
  Operand i = x;
  if (lo != 0) {
    Loc d = temp(t_int_);
    auto l = static_cast<std::int32_t>(lo);
    if (fits_middle(x)) {
      MidMode m = x.mode == AddrMode::Imm  ? MidMode::Imm
                  : x.mode == AddrMode::Fp ? MidMode::Fp
                                           : MidMode::Mp;
      emit(Op::subw_, imm(l), Middle{m, x.a}, d.op);
    } else {  // a middle operand cannot be indirect: the value goes through d
      emit(Op::movw_, x, d.op);
      emit(Op::subw_, imm(l), Middle{MidMode::Fp, d.op.a}, d.op);
    }
    i = d.op;
  }
  jump(Op::bltw_, i, Middle{MidMode::Imm, 0}, deflt);
  jump(Op::bgtw_, i, Middle{MidMode::Imm, words - 1}, deflt);
  emit(Op::goto_, i, Operand{AddrMode::Mp, base + 4, 0});
  cur_pos_ = stmt_pos;
  return true;
}

void Compiler::gen_pick(const Stmt& s) {
  Type* t = type_of(s.e.get());
  if (t->k != TK::Ref || (t->elem->k != TK::Adt && t->elem->k != TK::Pick) ||
      !t->elem->adt->is_pick)
    fail(s.pos, "pick needs a ref pick adt, not " + type_name(t));
  AdtInfo* ad = t->elem->adt;
  // The name is one local for every arm, set once; case reads the tag
  // through it, as Inferno's compiler does.
  Loc v{fp(frame_alloc(mk(TK::Ref, ad->type))), mk(TK::Ref, ad->type)};
  gen_to(s.e.get(), v.t, &v);
  Operand tag{AddrMode::IndFp, v.op.a, 0};
  std::int32_t end = new_label(), deflt = end;
  std::vector<std::int32_t> labels(ad->tags.size(), -1);
  std::vector<std::int32_t> arm_labels;
  for (auto& arm : s.arms) {
    std::int32_t l = new_label();
    arm_labels.push_back(l);
    for (auto& tg : arm.tags) {
      if (tg == "*") {
        deflt = l;
        continue;
      }
      auto f = std::find(ad->tags.begin(), ad->tags.end(), tg);
      if (f == ad->tags.end()) fail(arm.pos, "no tag " + tg + " in " + ad->name);
      labels[static_cast<std::size_t>(f - ad->tags.begin())] = l;
    }
  }
  auto n = static_cast<std::int32_t>(ad->tags.size());
  std::int32_t base = round_up(mp_size_, 4);
  mp_size_ = base + 4 + 12 * n + 4;
  m_.data.push_back(DataItem{DataKind::Words, base, {n}, ""});
  for (std::int32_t i = 0; i < n; ++i) {
    std::int32_t off = base + 4 + 12 * i;
    m_.data.push_back(DataItem{DataKind::Words, off, {i, i + 1, 0}, ""});
    table_fixes_.push_back(TableFix{
        m_.data.size() - 1, 2,
        labels[static_cast<std::size_t>(i)] >= 0 ? labels[static_cast<std::size_t>(i)] : deflt});
  }
  m_.data.push_back(DataItem{DataKind::Words, base + 4 + 12 * n, {0}, ""});
  table_fixes_.push_back(TableFix{m_.data.size() - 1, 0, deflt});
  emit(Op::case_, tag, Operand{AddrMode::Mp, base, 0});
  push_loop(LoopCtx{s.label, end, -1, false});
  for (std::size_t i = 0; i < s.arms.size(); ++i) {
    place(arm_labels[i]);
    scopes_.emplace_back();
    const CaseArm& arm = s.arms[i];
    Type* vt = ad->type;
    if (arm.tags.size() >= 1 && arm.tags[0] != "*") {
      auto f = std::find(ad->tags.begin(), ad->tags.end(), arm.tags[0]);
      int ti = static_cast<int>(f - ad->tags.begin());
      bool same = true;
      for (auto& tg : arm.tags) {
        auto g = std::find(ad->tags.begin(), ad->tags.end(), tg);
        if (g == ad->tags.end() ||
            ad->tag_variant[static_cast<std::size_t>(g - ad->tags.begin())] !=
                ad->tag_variant[static_cast<std::size_t>(ti)])
          same = false;
      }
      if (same) {
        vt = mk(TK::Pick);
        vt->adt = ad;
        vt->tag = ti;
      }
    }
    Sym name;
    name.kind = Sym::Var;
    name.type = mk(TK::Ref, vt);
    name.loc = v.op;
    scopes_.back()[s.names[0]] = name;
    note_local(s.names[0], name.type, v.op.a, s.pos);
    try {
      gen_stmt(*arm.body);
    } catch (CompileError&) {
    }
    release_temps();
    scopes_.pop_back();
    if (i + 1 < s.arms.size()) jump(Op::jmp_, Operand{}, Middle{}, end);
  }
  loops_.pop_back();
  place(end);
}

}  // namespace dis::limbo
