#include "cost_probe.h"

#include <algorithm>

namespace dis::vm {

CostRecorder::CostRecorder(ProbeMode mode, Base base, std::uint32_t sample_every)
    : chained(base.ticks), sampled(sample_every, base.ticks), mode_(mode), base_(base) {}

CostRecorder::~CostRecorder() {
  if (vm_) {
    vm_->slice_runner = nullptr;
    vm_->on_idle = nullptr;
    if (vm_->gc) vm_->gc->set_observer(nullptr);
  }
}

void CostRecorder::install(VM& vm) {
  vm_ = &vm.impl();
  vm_->slice_runner = this;
  vm_->on_idle = [this] { idled_ = true; };
  vm.set_gc_observer(this);
  wrap_builtins(*vm_);
}

void CostRecorder::wrap_builtins(Impl& vm) {
  for (auto& n : vm.natives) {
    std::string prefix = n->path;
    if (!prefix.empty() && prefix[0] == '$') prefix.erase(0, 1);
    for (NativeFunction& f : n->fns) {
      std::string full = prefix + "->" + f.name;
      ProbeRecord* rec = &builtins_[full];
      NativeFn orig = std::move(f.fn);
      f.fn = [this, orig, rec, full](Call& c) {
        const bool timed = mode_ != ProbeMode::Count;
        std::uint64_t t0 = timed ? now_ticks() : 0;
        auto finish = [&] {
          std::uint64_t d = timed ? minus_base(now_ticks() - t0, base_.ticks) : 0;
          if (timed)
            rec->add(d);
          else
            rec->add_count();
          Prog& p = c.prog();
          Modlink& ml = c.impl().modlink(p.ml);
          auto it = program_index_.find(ml.prog);
          if (it != program_index_.end()) {
            ActivationTotals& s = builtin_sites_[{it->second, p.pc - 1, full}];
            ++s.calls;
            s.ticks += d;
          }
        };
        try {
          orig(c);
        } catch (...) {
          finish();
          throw;
        }
        finish();
      };
    }
  }
}

void CostRecorder::switch_program(const Program& pr, Current& cur) {
  auto it = program_index_.find(&pr);
  std::uint32_t idx;
  if (it == program_index_.end()) {
    idx = static_cast<std::uint32_t>(programs_.size());
    ProgramRecords rec;
    rec.program = &pr;
    if (mode_ == ProbeMode::Count)
      rec.counts.assign(pr.code.size(), 0);
    else
      rec.records.resize(pr.code.size());
    for (const FunctionInfo& f : pr.mod.functions) rec.fn_entries.push_back(f.pc);
    std::sort(rec.fn_entries.begin(), rec.fn_entries.end());
    programs_.push_back(std::move(rec));
    program_index_.emplace(&pr, idx);
  } else {
    idx = it->second;
  }
  ProgramRecords& rec = programs_[idx];
  cur.program = &pr;
  cur.index = idx;
  cur.counts = rec.counts.data();
  cur.records = rec.records.data();
}

std::uint64_t CostRecorder::thread_ticks_now() const {
  return thread_->ticks + (chained.attributed() - slice_attr0_);
}

void CostRecorder::frame_changed(Impl& vm, Prog& p, std::int32_t pc) {
  ThreadState& t = *thread_;
  const std::uint64_t ticks = thread_ticks_now();
  // The current instruction is already counted; it belongs to the callee
  // (on entry) or to the caller (on return), so neither side includes it.
  const std::uint64_t instr = t.instructions + (instructions_ - slice_instr0_) - 1;
  while (!t.stack.empty() && t.stack.back().frame > p.cur) leave_one(t, ticks, instr);
  if (t.stack.empty() || t.stack.back().frame < p.cur) {
    Activation a{};
    a.prog = current_.index;
    a.fn = -1;
    const auto& entries = programs_[current_.index].fn_entries;
    auto ub = std::upper_bound(entries.begin(), entries.end(), pc);
    if (ub != entries.begin()) a.fn = *(ub - 1);
    a.frame = p.cur;
    a.site_prog = -1;
    a.site_pc = -1;
    const Frame& fr = p.frames[static_cast<std::size_t>(p.cur)];
    if (fr.caller >= 0 && fr.lr > 0 && fr.caller_ml < vm.modlinks.size() &&
        vm.modlinks[fr.caller_ml]) {
      auto it = program_index_.find(vm.modlink(fr.caller_ml).prog);
      if (it != program_index_.end()) {
        a.site_prog = static_cast<std::int32_t>(it->second);
        a.site_pc = fr.lr - 1;
      }
    }
    a.outermost = t.active[{a.prog, a.fn}]++ == 0;
    a.ticks = ticks;
    a.instructions = instr;
    t.stack.push_back(a);
  }
  t.cur_frame = p.cur;
}

void CostRecorder::leave_one(ThreadState& t, std::uint64_t ticks, std::uint64_t instructions) {
  const Activation a = t.stack.back();
  t.stack.pop_back();
  const std::uint64_t dt = ticks >= a.ticks ? ticks - a.ticks : 0;
  const std::uint64_t di = instructions >= a.instructions ? instructions - a.instructions : 0;
  ActivationTotals& f = functions_[{a.prog, a.fn}];
  ++f.calls;
  --t.active[{a.prog, a.fn}];
  if (a.outermost) {
    f.ticks += dt;
    f.instructions += di;
  }
  if (a.site_prog >= 0) {
    ActivationTotals& s = sites_[{static_cast<std::uint32_t>(a.site_prog), a.site_pc,
                                  static_cast<std::int32_t>(a.prog), a.fn}];
    ++s.calls;
    s.ticks += dt;
    s.instructions += di;
  }
}

std::uint32_t CostRecorder::run_slice(Impl& vm, Prog& p, std::uint32_t budget) {
  if (mode_ != ProbeMode::Count) {
    std::uint64_t start = now_ticks();
    if (have_close_) {
      std::uint64_t gap = start - last_close_;
      gap = gap > gc_in_gap_ ? gap - gc_in_gap_ : 0;
      bucket(idled_ ? "idle" : "scheduler").add(minus_base(gap, base_.ticks));
    }
  }
  idled_ = false;
  gc_in_gap_ = 0;
  if (p.id >= threads_.size()) threads_.resize(p.id + 1);
  thread_ = &threads_[p.id];
  slice_attr0_ = chained.attributed();
  slice_instr0_ = instructions_;
  std::uint32_t left = budget;
  switch (mode_) {
    case ProbeMode::Count: {
      ProbeCount probe{*this};
      interpret(vm, p, left, probe);
      break;
    }
    case ProbeMode::Time: {
      ProbeTime probe{*this};
      interpret(vm, p, left, probe);
      last_close_ = chained.close();
      have_close_ = true;
      break;
    }
    case ProbeMode::Sampled: {
      ProbeSampled probe{*this};
      interpret(vm, p, left, probe);
      last_close_ = sampled.close();
      have_close_ = true;
      break;
    }
  }
  ThreadState& t = *thread_;
  t.ticks += chained.attributed() - slice_attr0_;
  t.instructions += instructions_ - slice_instr0_;
  if (p.state == ProgState::Done) {
    while (!t.stack.empty()) leave_one(t, t.ticks, t.instructions);
    t.cur_frame = -2;
  }
  return budget - left;
}

void CostRecorder::suspend_slice(Impl&, Prog& p) {
  suspended_.insert_or_assign(
      p.id, SuspendedSlice{chained, sampled, current_, slice_attr0_, slice_instr0_});
  chained = ChainedTimer<>(base_.ticks);
  sampled = SampledTimer<>(sampled.every(), base_.ticks);
  // The next slice's gap starts here, not where this slice began.
  if (mode_ != ProbeMode::Count) {
    last_close_ = now_ticks();
    have_close_ = true;
  }
  idled_ = false;
  gc_in_gap_ = 0;
}

void CostRecorder::resume_slice(Impl&, Prog& p) {
  auto it = suspended_.find(p.id);
  if (it == suspended_.end()) return;
  SuspendedSlice& s = it->second;
  chained = s.chained;
  sampled = s.sampled;
  current_ = s.current;
  slice_attr0_ = s.attr0;
  slice_instr0_ = s.instr0;
  thread_ = &threads_[p.id];  // threads_ may have grown meanwhile
  suspended_.erase(it);
}

void CostRecorder::gc_begin(GcEvent e) {
  if (e == GcEvent::Free) {
    frees_.add_count();
    if (free_depth_++ == 0 && mode_ != ProbeMode::Count && --free_left_ == 0) {
      free_left_ = kFreeSampleEvery;
      free_timing_ = true;
      free_t0_ = now_ticks();
    }
    return;
  }
  if (mode_ == ProbeMode::Count) return;
  std::uint64_t now = now_ticks();
  switch (e) {
    case GcEvent::Step:
      step_t0_ = now;
      roots_in_step_ = 0;
      break;
    case GcEvent::RootSet:
      roots_t0_ = now;
      break;
    case GcEvent::Idle:
      if (idle_depth_++ == 0) idle_t0_ = now;
      break;
    case GcEvent::Free:
      break;
  }
}

void CostRecorder::gc_end(GcEvent e, const GcWork& work) {
  if (e == GcEvent::Free) {
    if (--free_depth_ == 0 && free_timing_) {
      free_timing_ = false;
      frees_.observe(minus_base(now_ticks() - free_t0_, base_.ticks));
    }
    return;
  }
  if (mode_ == ProbeMode::Count) return;
  std::uint64_t now = now_ticks();
  switch (e) {
    case GcEvent::RootSet: {
      std::uint64_t d = now - roots_t0_;
      roots_in_step_ += d;
      if (idle_depth_ == 0) bucket("gc.roots").add(minus_base(d, base_.ticks));
      break;
    }
    case GcEvent::Step: {
      if (idle_depth_ > 0) break;  // inside an idle episode: timed as gc.idle
      std::uint64_t d = now - step_t0_;
      gc_in_gap_ += d;
      std::uint64_t rest = minus_base(d, base_.ticks);
      rest = rest > roots_in_step_ ? rest - roots_in_step_ : 0;
      const std::uint64_t m = work.marked, s = work.swept;
      if (s == 0) {
        bucket("gc.mark").add(rest);
      } else {
        auto mark = static_cast<std::uint64_t>(static_cast<double>(rest) * static_cast<double>(m) /
                                               static_cast<double>(m + s));
        if (m > 0) bucket("gc.mark").add(mark);
        bucket("gc.sweep").add(rest - mark);
      }
      break;
    }
    case GcEvent::Idle:
      if (--idle_depth_ == 0) {
        std::uint64_t d = now - idle_t0_;
        gc_in_gap_ += d;
        bucket("gc.idle").add(minus_base(d, base_.ticks));
      }
      break;
    case GcEvent::Free:
      break;
  }
}

}  // namespace dis::vm
