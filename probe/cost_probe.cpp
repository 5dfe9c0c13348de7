#include "cost_probe.h"

#include <pthread.h>
#include <time.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <utility>

#include "assembler.h"
#include "vm.h"

namespace dis::vm {

bool probes_built() { return DIS_PROBES != 0; }

CostRecorder::CostRecorder(ProbeMode mode, Base base, std::uint32_t sample_every)
    : sampled(sample_every, 0), mode_(mode), base_(base) {
  // The count view never reads the clock, so it never calibrates it.
  if (mode != ProbeMode::Count) {
    read_ticks_ = timer().read.min_ticks;
    batch_ticks_ = static_cast<std::uint64_t>(timer().ticks_per_ns * kBatchNs);
    short_release_ticks_ = static_cast<std::uint64_t>(timer().ticks_per_ns * kShortReleaseNs);
    probe_bucket_ = &buckets_[kProbeBucket];
    suspect_ticks_ = static_cast<std::uint64_t>(timer().ticks_per_ns * kSuspectNs);
  } else {
    probe_bucket_ = &spare_;
  }
  init_timers();
}

void CostRecorder::init_timers() {
  chained.set_overhead(probe_bucket_);
  sampled.set_overhead(probe_bucket_);
  if (suspect_ticks_ > 0) {
    chained.set_suspects(&suspects_, suspect_ticks_);
    sampled.set_suspects(&suspects_, suspect_ticks_);
  }
}

CostRecorder::~CostRecorder() {
  if (vm_) {
    vm_->slice_runner = nullptr;
    vm_->on_idle = nullptr;
    if (vm_->gc) vm_->gc->set_observer(nullptr);
    if (mem_) vm_->heap.set_block_observer(nullptr);
  }
}

void CostRecorder::install(VM& vm) {
  vm_ = &vm.runtime();
  vm_->slice_runner = this;
  vm_->on_idle = [this] {
    idled_ = true;
    // A sleep is no preemption: the batch ends before it.
    if (mode_ != ProbeMode::Count && own_batch()) close_batch(now_ticks());
  };
  vm.set_gc_observer(this);
  if (mem_) mem_->install(vm_->heap, vm_->gc.get());
  wrap_builtins(*vm_);
}

void CostRecorder::wrap_builtins(Runtime& vm) {
  for (auto& n : vm.natives) {
    std::string prefix = n->path;
    if (!prefix.empty() && prefix[0] == '$') prefix.erase(0, 1);
    for (NativeFunction& f : n->fns) {
      auto sites = std::make_unique<BuiltinSites>();
      sites->name = prefix + "->" + f.name;
      ProbeRecord* rec = &builtins_[sites->name];
      BuiltinSites* bs = sites.get();
      builtin_sites_.push_back(std::move(sites));
      NativeFn orig = std::move(f.fn);
      f.fn = [this, orig, rec, bs](Call& c) {
        // Sampled mode times only a call inside a sampled mcall (its
        // interval is open): a random subset of the calls, like every other
        // sampled statistic, without three clock reads on every call.
        const bool timed =
            mode_ == ProbeMode::Time || (mode_ == ProbeMode::Sampled && sampled.open());
        const std::uint64_t t0 = timed ? now_ticks() : 0;
        auto finish = [&] {
          const std::uint64_t t1 = timed ? now_ticks() : 0;
          const std::uint64_t kept = std::exchange(release_bookkeeping_, 0);
          const std::uint64_t d =
              timed ? minus_base(t1 - t0 - std::min(kept, t1 - t0), read_ticks_) : 0;
          if (timed)
            rec->add(d);
          else
            rec->add_count();
          Prog& p = c.prog();
          if (BuiltinSites::Site* s = bs->site(*this, c.runtime().modlink(p.ml).prog, p.pc - 1)) {
            ++s->calls;
            if (timed) {
              ++s->timed;
              s->ticks += d;
            }
          }
          if (timed) {
            // The wrapper's reads and records are the probe's, not the
            // mcall's: the builtin's own time stays in the mcall. Of its
            // three reads t2's is inside t2 - t1; t0's and t1's are two
            // more (one left in, each builtin call was a read too long).
            settle_before_read();
            const std::uint64_t t2 = now_ticks();
            const std::uint64_t own = t2 - t1 + 2 * read_ticks_;
            probe_time(own);
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

CostRecorder::BuiltinSites::Site* CostRecorder::BuiltinSites::site(const CostRecorder& r,
                                                                   const Program* prog,
                                                                   std::int32_t pc) {
  if (prog == last_prog && pc == last_pc) [[likely]]
    return last;
  auto it = r.program_index_.find(prog);
  if (it == r.program_index_.end()) return nullptr;
  last_prog = prog;
  last_pc = pc;
  last = &by_site[{it->second, pc}];
  return last;
}

void CostRecorder::switch_program(const Program& pr, Current& cur) {
  auto it = program_index_.find(&pr);
  std::uint32_t idx;
  if (it == program_index_.end()) {
    // The first entry allocates the module's records and touches their pages
    // for the first time (hundreds of microseconds for a module of a few
    // hundred instructions), inside the instruction that entered it: that is
    // the probe's time, not the instruction's.
    const bool timed = mode_ != ProbeMode::Count;
    const std::uint64_t t0 = timed ? now_ticks() : 0;
    idx = static_cast<std::uint32_t>(programs_.size());
    ProgramRecords rec;
    rec.program = &pr;
    if (mode_ == ProbeMode::Count)
      rec.counts.assign(pr.code.size(), 0);
    else
      rec.records.resize(pr.code.size());
    if (mode_ != ProbeMode::Time) {
      rec.declined.assign(pr.code.size(), 0);
      for (const DInst& in : pr.code) in.probe_count = 0;
    }
    for (const FunctionInfo& f : pr.mod.functions) rec.fn_entries.push_back(f.pc);
    std::sort(rec.fn_entries.begin(), rec.fn_entries.end());
    rec.fn_of_pc.resize(pr.code.size());
    for (std::size_t pc = 0; pc < pr.code.size(); ++pc) {
      auto ub = std::upper_bound(rec.fn_entries.begin(), rec.fn_entries.end(),
                                 static_cast<std::int32_t>(pc));
      rec.fn_of_pc[pc] = ub != rec.fn_entries.begin()
                             ? static_cast<std::uint32_t>(ub - rec.fn_entries.begin() - 1)
                             : static_cast<std::uint32_t>(rec.fn_entries.size());
    }
    rec.fn_totals.resize(rec.fn_entries.size() + 1);
    rec.fn_base = fn_slots_;
    fn_slots_ += static_cast<std::uint32_t>(rec.fn_totals.size());
    rec.sites.resize(pr.code.size());
    programs_.push_back(std::move(rec));
    program_index_.emplace(&pr, idx);
    if (timed) probe_time(now_ticks() - t0 + read_ticks_);
  } else {
    idx = it->second;
  }
  ProgramRecords& rec = programs_[idx];
  cur.program = &pr;
  cur.index = idx;
  cur.declined = rec.declined.data();
  cur.records = rec.records.data();
}

const std::vector<ProgramRecords>& CostRecorder::programs() const {
  // Intervals still set aside (the last batch not closed by finish()) are
  // recorded whole, so the counts are exact whenever they are read.
  if (!suspects_.empty()) {
    ProbeRecord none;
    settle_suspects(suspects_, 0, none);
  }
  for (ProgramRecords& pr : programs_) {
    if (mode_ == ProbeMode::Time) {
      for (ProbeRecord& r : pr.records) r.settle();
      continue;
    }
    const std::vector<DInst>& code = pr.program->code;
    const std::size_t n = code.size();
    auto count = [&](std::size_t pc) -> std::uint64_t& {
      return mode_ == ProbeMode::Count ? pr.counts[pc] : pr.records[pc].count;
    };
    for (std::size_t pc = 0; pc < n; ++pc) count(pc) = code[pc].probe_count;
    // ProbeMem fuses nothing: every count is its instruction's own.
    if (mem_) continue;
    // What fused handlers ran without a step: their executions less the
    // times they declined to run fused.
    for (std::size_t pc = 0; pc < n; ++pc) {
      std::int32_t followers[2];
      const int k = derived_followers(*pr.program, pc, followers);
      if (k == 0) continue;
      const std::uint64_t fused = code[pc].probe_count - pr.declined[pc];
      for (int i = 0; i < k; ++i) count(static_cast<std::size_t>(followers[i])) += fused;
    }
  }
  return programs_;
}

std::uint64_t CostRecorder::thread_ticks_now() const {
  return thread_->ticks + (chained.attributed() - slice_attr0_);
}

// Runs at every call and return (out of line from the loop), so everything
// an activation needs at its end is resolved when it begins: the function's
// totals, the call site's, its live-activation counter.
void CostRecorder::frame_changed(Runtime& vm, Prog& p, std::int32_t pc, std::uint64_t executed) {
  ThreadState& t = *thread_;
  const std::uint64_t ticks = thread_ticks_now();
  // The current instruction is already counted; it belongs to the callee
  // (on entry) or to the caller (on return), so neither side includes it.
  const std::uint64_t instr = t.instructions + executed - 1;
  const std::int32_t cur = p.cur;
  while (!t.stack.empty() && t.stack.back().frame > cur) leave_one(t, ticks, instr);
  if (t.stack.empty() || t.stack.back().frame < cur) enter_one(vm, p, t, pc, ticks, instr);
  t.cur_frame = cur;
}

void CostRecorder::enter_one(Runtime& vm, Prog& p, ThreadState& t, std::int32_t pc,
                             std::uint64_t ticks, std::uint64_t instructions) {
  const std::uint32_t prog = current_.index;
  ProgramRecords& pr = programs_[prog];
  const auto upc = static_cast<std::uint32_t>(pc);
  const std::uint32_t fn = upc < pr.fn_of_pc.size()
                               ? pr.fn_of_pc[upc]
                               : static_cast<std::uint32_t>(pr.fn_entries.size());
  Activation& a = t.stack.emplace_back();
  a.fn = &pr.fn_totals[fn];
  a.site = nullptr;
  a.frame = p.cur;
  a.ticks = ticks;
  a.instructions = instructions;
  const Frame& fr = p.frames[static_cast<std::size_t>(p.cur)];
  if (fr.caller >= 0 && fr.lr > 0) {
    const std::int32_t entry = fn < pr.fn_entries.size() ? pr.fn_entries[fn] : -1;
    const auto site_pc = static_cast<std::size_t>(fr.lr - 1);
    if (fr.caller_ml == fr.ml) {
      // A call within the running program (`call`): its site slot directly.
      if (site_pc < pr.sites.size()) {
        SiteSlot& slot = pr.sites[site_pc];
        if (slot.callee_prog == static_cast<std::int32_t>(prog) && slot.callee_fn == entry)
            [[likely]]
          a.site = &slot.totals;
      }
      if (!a.site) a.site = &site_totals(prog, fr.lr - 1, prog, entry);
    } else if (fr.caller_ml < vm.modlinks.size() && vm.modlinks[fr.caller_ml]) {
      const Program* caller = vm.modlink(fr.caller_ml).prog;
      std::int32_t site_prog = -1;
      if (caller == current_.program) {
        site_prog = static_cast<std::int32_t>(prog);
      } else {
        auto it = program_index_.find(caller);
        if (it != program_index_.end()) site_prog = static_cast<std::int32_t>(it->second);
      }
      if (site_prog >= 0)
        a.site = &site_totals(static_cast<std::uint32_t>(site_prog), fr.lr - 1, prog, entry);
    }
  }
  a.path = kNoPath;
  if (paths_on_) {
    const std::size_t depth = t.stack.size() - 1;
    const std::uint32_t parent = depth > 0 ? t.stack[depth - 1].path : kNoPath;
    if (depth == 0 || (parent != kNoPath && depth < kMaxPathDepth))
      a.path = path_of(parent, prog, fn);
  }
  a.active = pr.fn_base + fn;
  if (a.active >= t.active.size()) [[unlikely]]
    t.active.resize(fn_slots_);
  ++t.active[a.active];
}

ActivationTotals& CostRecorder::site_totals(std::uint32_t site_prog, std::int32_t site_pc,
                                            std::uint32_t prog, std::int32_t entry) {
  ProgramRecords& caller = programs_[site_prog];
  if (site_pc >= 0 && static_cast<std::size_t>(site_pc) < caller.sites.size()) {
    SiteSlot& slot = caller.sites[static_cast<std::size_t>(site_pc)];
    if (slot.callee_prog < 0) {
      slot.callee_prog = static_cast<std::int32_t>(prog);
      slot.callee_fn = entry;
    }
    if (slot.callee_prog == static_cast<std::int32_t>(prog) && slot.callee_fn == entry)
      return slot.totals;
  }
  return extra_sites_[{site_prog, site_pc, static_cast<std::int32_t>(prog), entry}];
}

void CostRecorder::leave_one(ThreadState& t, std::uint64_t ticks, std::uint64_t instructions) {
  const Activation& a = t.stack.back();
  const std::uint64_t dt = ticks >= a.ticks ? ticks - a.ticks : 0;
  const std::uint64_t di = instructions >= a.instructions ? instructions - a.instructions : 0;
  ActivationTotals& f = *a.fn;
  ++f.calls;
  // The outermost activation of a function adds its inclusive time: the
  // inner ones lie inside it already.
  if (--t.active[a.active] == 0) {
    f.ticks += dt;
    f.instructions += di;
  }
  if (a.site) {
    ++a.site->calls;
    a.site->ticks += dt;
    a.site->instructions += di;
  }
  if (a.path != kNoPath) {
    ActivationTotals& n = paths_[a.path].totals;
    ++n.calls;
    n.ticks += dt;
    n.instructions += di;
  }
  t.stack.pop_back();
}

std::uint32_t CostRecorder::path_of(std::uint32_t parent, std::uint32_t prog, std::uint32_t fn) {
  // A loop calling one function again finds it without a lookup.
  if (parent != kNoPath) {
    const std::uint32_t c = paths_[parent].last_child;
    if (c != kNoPath && paths_[c].prog == prog && path_fn_[c] == fn) return c;
  }
  const auto [it, added] = path_index_.try_emplace(PathKey{parent + 1, prog, fn},
                                                   static_cast<std::uint32_t>(paths_.size()));
  if (added) {
    const ProgramRecords& pr = programs_[prog];
    PathNode n;
    n.parent = parent;
    n.prog = prog;
    n.entry = fn < pr.fn_entries.size() ? pr.fn_entries[fn] : -1;
    paths_.push_back(n);
    path_fn_.push_back(fn);
  }
  if (parent != kNoPath) paths_[parent].last_child = it->second;
  return it->second;
}

std::map<std::pair<std::uint32_t, std::int32_t>, ActivationTotals> CostRecorder::functions() const {
  std::map<std::pair<std::uint32_t, std::int32_t>, ActivationTotals> out;
  for (std::size_t i = 0; i < programs_.size(); ++i) {
    const ProgramRecords& pr = programs_[i];
    for (std::size_t f = 0; f < pr.fn_totals.size(); ++f) {
      if (pr.fn_totals[f].calls == 0) continue;
      std::int32_t entry = f < pr.fn_entries.size() ? pr.fn_entries[f] : -1;
      ActivationTotals& o = out[{static_cast<std::uint32_t>(i), entry}];
      o.calls += pr.fn_totals[f].calls;
      o.ticks += pr.fn_totals[f].ticks;
      o.instructions += pr.fn_totals[f].instructions;
    }
  }
  return out;
}

std::map<CostRecorder::SiteKey, ActivationTotals> CostRecorder::sites() const {
  std::map<SiteKey, ActivationTotals> out = extra_sites_;
  for (std::size_t i = 0; i < programs_.size(); ++i) {
    const ProgramRecords& pr = programs_[i];
    for (std::size_t pc = 0; pc < pr.sites.size(); ++pc) {
      const SiteSlot& s = pr.sites[pc];
      if (s.callee_prog < 0) continue;
      ActivationTotals& o = out[{static_cast<std::uint32_t>(i), static_cast<std::int32_t>(pc),
                                 s.callee_prog, s.callee_fn}];
      o.calls += s.totals.calls;
      o.ticks += s.totals.ticks;
      o.instructions += s.totals.instructions;
    }
  }
  return out;
}

std::map<std::tuple<std::uint32_t, std::int32_t, std::string>, ActivationTotals>
CostRecorder::builtin_sites() const {
  std::map<std::tuple<std::uint32_t, std::int32_t, std::string>, ActivationTotals> out;
  for (const auto& b : builtin_sites_)
    for (const auto& [key, t] : b->by_site) {
      ActivationTotals& o = out[{key.first, key.second, b->name}];
      o.calls = t.calls;
      o.ticks = t.timed == t.calls || t.timed == 0
                    ? t.ticks
                    : static_cast<std::uint64_t>(static_cast<double>(t.ticks) *
                                                     static_cast<double>(t.calls) /
                                                     static_cast<double>(t.timed) +
                                                 0.5);
    }
  return out;
}

std::uint32_t CostRecorder::run_slice(Runtime& vm, Prog& p, std::uint32_t budget) {
  const bool timed = mode_ != ProbeMode::Count;
  std::uint64_t start = 0;
  if (timed) {
    start = now_ticks();
    // Another thread waits in a builtin: its mcall holds this gap too.
    if (have_close_ && !suspended_.empty()) overlap_ticks_ += start - last_close_;
    begin_segment(start);
    if (have_close_) {
      std::uint64_t gap = start - last_close_;
      gap = gap > gc_in_gap_ ? gap - gc_in_gap_ : 0;
      bucket(idled_ ? "idle" : "scheduler").add(minus_base(gap, read_ticks_));
    }
    if (!own_batch()) {
      if (batch_.open) close_batch(start);  // another host thread's
      open_batch(start);
    }
  }
  idled_ = false;
  gc_in_gap_ = 0;
  if (p.id >= threads_.size()) threads_.resize(p.id + 1);
  thread_ = &threads_[p.id];
  slice_attr0_ = chained.attributed();
  std::uint32_t left = budget;
  in_slice_ = true;
  struct SliceEnd {
    bool& flag;
    ~SliceEnd() { flag = false; }
  } slice_end{in_slice_};
#if !DIS_PROBES
  throw std::logic_error("cost: this build has no probes (configured with -DDIS_PROBES=OFF)");
#else
  std::uint64_t close = 0;
  switch (mode_) {
    case ProbeMode::Count: {
      if (mem_) {
        ProbeMem probe{*this};
        interpret(vm, p, left, probe);
        // Between slices no instruction runs: the runtime allocates.
        mem_->at = nullptr;
        break;
      }
      ProbeCount probe{*this};
      interpret(vm, p, left, probe);
      break;
    }
    case ProbeMode::Time: {
      ProbeTime probe{*this};
      interpret(vm, p, left, probe);
      close = chained.close();
      break;
    }
    case ProbeMode::Sampled: {
      ProbeSampled probe{*this};
      interpret(vm, p, left, probe);
      close = sampled.close();
      break;
    }
  }
  if (timed) {
    if (close - batch_.wall0 >= batch_ticks_ || p.state == ProgState::Done || vm.halted)
      close_batch(close);
    last_close_ = now_ticks();
    have_close_ = true;
    probe_bucket_->add(last_close_ - close);
    end_segment(last_close_);
  }
#endif
  ThreadState& t = *thread_;
  t.ticks += chained.attributed() - slice_attr0_;
  // interpret<> counted the slice's instructions in its budget.
  instructions_ += budget - left;
  t.instructions += budget - left;
  if (p.state == ProgState::Done) {
    while (!t.stack.empty()) leave_one(t, t.ticks, t.instructions);
    t.cur_frame = -2;
  }
  return budget - left;
}

void CostRecorder::probe_time(std::uint64_t ticks) {
  chained.exclude(ticks);
  sampled.exclude(ticks);
  add_probe(ticks);
}

void CostRecorder::add_probe(std::uint64_t ticks) {
  if (suspect_ticks_ > 0 && ticks >= suspect_ticks_)
    suspects_.push_back({probe_bucket_, ticks, true});
  else
    probe_bucket_->add(ticks);
}

bool CostRecorder::own_batch() const {
  return batch_.open && pthread_equal(batch_.owner, pthread_self());
}

void CostRecorder::open_batch(std::uint64_t now) {
  batch_.owner = pthread_self();
  batch_.released_at = 0;
  timespec ts;
  if (pthread_getcpuclockid(pthread_self(), &batch_.clock) != 0 ||
      clock_gettime(batch_.clock, &ts) != 0)
    return;
  ++cpu_clock_reads_;
  batch_.cpu0 =
      static_cast<std::uint64_t>(ts.tv_sec) * 1000000000u + static_cast<std::uint64_t>(ts.tv_nsec);
  batch_.wall0 = now;
  batch_.open = true;
}

void CostRecorder::close_batch(std::uint64_t now) {
  double preempted = 0;
  timespec ts;
  if (batch_.open && clock_gettime(batch_.clock, &ts) == 0) {  // else its thread is gone
    ++cpu_clock_reads_;
    const std::uint64_t cpu = static_cast<std::uint64_t>(ts.tv_sec) * 1000000000u +
                              static_cast<std::uint64_t>(ts.tv_nsec);
    // A batch left open by a released thread ends where the release began.
    // Its clock has run on since, over the thread's host work and its wait
    // for the interpreter (when it did not sleep), so what it measures is at
    // most the preemption: none is taken out of an interval that was not
    // preempted.
    const bool released = batch_.released_at != 0;
    preempted = to_ns((released ? batch_.released_at : now) - batch_.wall0) -
                static_cast<double>(cpu - batch_.cpu0);
    if (released) preempted = std::max(0.0, preempted);
    preempted_ns_ += preempted;
  }
  batch_.open = false;
  // Intervals set aside outside any batch are settled with none.
  if (!suspects_.empty())
    settle_suspects(suspects_, preempted * timer().ticks_per_ns, buckets_[kPreemptedBucket],
                    {&buckets_[kInterruptsBucket], suspect_ticks_});
}

void CostRecorder::pause() {
  const std::uint64_t now = now_ticks();
  // Its own batch would count the paused work as the run's CPU time.
  close_batch(now);
  paused_gap_ = now - last_close_;
  paused_at_ = now_ticks();
  // The pause's own clock reads are the probe's.
  probe_bucket_->add(paused_at_ - now);
}

void CostRecorder::resume() {
  const std::uint64_t now = now_ticks();
  hidden_ticks_ += now - paused_at_;
  // The next gap holds the scheduler's time before the pause and after it.
  last_close_ = now - paused_gap_;
}

PlainSliceTimer::PlainSliceTimer(VM& vm) : vm_(vm.runtime()) { vm_.slice_runner = this; }
PlainSliceTimer::~PlainSliceTimer() { vm_.slice_runner = nullptr; }

std::uint32_t PlainSliceTimer::run_slice(Runtime& vm, Prog& p, std::uint32_t budget) {
  std::uint32_t left = budget;
  ProbeNone probe;
  const std::uint64_t t0 = now_ticks();
  interpret(vm, p, left, probe);
  ticks_ += now_ticks() - t0;
  instructions_ += budget - left;
  return budget - left;
}

void CostRecorder::finish() {
  if (mem_) mem_->finish();
  if (mode_ != ProbeMode::Count) close_batch(now_ticks());
}

// Both ends of a release run inside the mcall's open interval and inside
// the builtin's own timing: what they take (batch syscalls, the map) is
// the probe's, so resume_slice moves it out of both into the probe bucket.
void CostRecorder::suspend_slice(Runtime&, Prog& p) {
  const bool timed = mode_ != ProbeMode::Count;
  const std::uint64_t t0 = timed ? now_ticks() : 0;
  // The intervals queued so far belong to the batch that ends here.
  chained.flush();
  sampled.flush();
  if (timed) {
    end_segment(t0);
    // The batch stays open over the release: if the thread is back soon it
    // never slept, and two reads of its CPU clock (system calls, which
    // flush the TLB on a host without PCID) are saved (resume_slice).
    if (batch_.open) batch_.released_at = t0;
    count_waits(t0);
  }
  SuspendedSlice& saved =
      suspended_
          .insert_or_assign(p.id, SuspendedSlice{chained.position(), sampled.state(), current_,
                                                 mem_ ? mem_->program : nullptr,
                                                 mem_ ? mem_->at : nullptr, slice_attr0_, 0})
          .first->second;
  if (mem_) mem_->at = nullptr;
  // The next slice's timers start as new ones (raw ticks, as everywhere in
  // the hot path: the base is applied to the records after the run).
  chained.set_position({});
  sampled.set_state(SampledTimer<>(sampled.every(), 0).state());
  // The next slice's gap starts here, not where this slice began.
  if (timed) {
    last_close_ = now_ticks();
    have_close_ = true;
    saved.bookkeeping = last_close_ - t0 + read_ticks_;
  }
  idled_ = false;
  gc_in_gap_ = 0;
  // No instruction interval is open until it resumes: GC meanwhile (idle
  // GC, other slices' quantum ends) is between slices.
  in_slice_ = false;
}

void CostRecorder::resume_slice(Runtime&, Prog& p) {
  const bool timed = mode_ != ProbeMode::Count;
  const std::uint64_t t0 = timed ? now_ticks() : 0;
  auto it = suspended_.find(p.id);
  if (it == suspended_.end()) return;
  SuspendedSlice& s = it->second;
  chained.set_position(s.chained);
  sampled.set_state(s.sampled);
  current_ = s.current;
  if (mem_) {
    mem_->program = s.mem_program;
    mem_->at = s.mem_at;
  }
  slice_attr0_ = s.attr0;
  const std::uint64_t before = s.bookkeeping;
  thread_ = &threads_[p.id];  // threads_ may have grown meanwhile
  if (timed) {
    count_waits(t0);
    // Idle GC ran while this thread waited, with no slice after it: its
    // bucket and the mcall both hold it, and no later gap does.
    overlap_ticks_ += gc_in_gap_;
    gc_in_gap_ = 0;
  }
  suspended_.erase(it);
  in_slice_ = true;
  if (timed) begin_segment(t0);
  if (timed) {
    // The slices run meanwhile had their own batch (on another host thread).
    const std::uint64_t now = now_ticks();
    if (own_batch() && now - batch_.released_at < short_release_ticks_) {
      batch_.released_at = 0;
    } else {
      // Another thread's batch, or this one's over a release long enough to
      // have slept: it ends where the release began (close_batch).
      if (batch_.open) close_batch(now);
      open_batch(now);
    }
    settle_before_read();
    const std::uint64_t own = before + (now_ticks() - t0) + read_ticks_;
    probe_time(own);
    release_bookkeeping_ += own;
  }
}

void CostRecorder::begin_segment(std::uint64_t now) {
  segment_start_ = now;
  segment_overlaps_ = !suspended_.empty();
}

void CostRecorder::end_segment(std::uint64_t now) {
  if (segment_overlaps_) overlap_ticks_ += now - segment_start_;
  segment_overlaps_ = false;
}

void CostRecorder::count_waits(std::uint64_t now) {
  if (suspended_.size() > 1) overlap_ticks_ += (suspended_.size() - 1) * (now - waiting_since_);
  waiting_since_ = now;
}

void CostRecorder::free_begin() {
  frees_.add_count();
  if (free_depth_++ == 0 && mode_ != ProbeMode::Count && --free_left_ == 0) {
    free_left_ = kFreeSampleEvery;
    free_timing_ = true;
    free_t0_ = now_ticks();
  }
}

void CostRecorder::free_end(std::uint64_t) {
  if (--free_depth_ == 0 && free_timing_) {
    free_timing_ = false;
    // The free stays inside its instruction; the two reads that timed it
    // do not.
    const std::uint64_t t1 = now_ticks();
    frees_.observe(minus_base(t1 - free_t0_, read_ticks_));
    chained.exclude(2 * read_ticks_);
    sampled.exclude(2 * read_ticks_);
  }
}

void CostRecorder::gc_begin(GcEvent e) {
  if (e == GcEvent::Free) {
    free_begin();
    return;
  }
  if (mode_ == ProbeMode::Count) {
    if (mem_) mem_->gc_begin(e);
    return;
  }
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

ProbeRecord& CostRecorder::gc_bucket(ProbeRecord*& slot, const char* name) {
  if (!slot) slot = &buckets_[name];
  return *slot;
}

void CostRecorder::gc_end(GcEvent e, const GcWork& work) {
  if (e == GcEvent::Free) {
    free_end(work.freed);
    return;
  }
  if (mode_ == ProbeMode::Count) {
    if (mem_) mem_->gc_end(e);
    return;
  }
  std::uint64_t now = now_ticks();
  switch (e) {
    case GcEvent::RootSet: {
      std::uint64_t d = now - roots_t0_;
      roots_in_step_ += d;
      if (idle_depth_ == 0) gc_bucket(gc_roots_, "gc.roots").add(minus_base(d, read_ticks_));
      break;
    }
    case GcEvent::Step: {
      if (idle_depth_ > 0) break;  // inside an idle episode: timed as gc.idle
      std::uint64_t d = now - step_t0_;
      std::uint64_t rest = minus_base(d, read_ticks_);
      rest = rest > roots_in_step_ ? rest - roots_in_step_ : 0;
      const std::uint64_t m = work.marked, s = work.swept;
      std::uint64_t mark = rest;
      if (s > 0)
        mark = static_cast<std::uint64_t>(static_cast<double>(rest) * static_cast<double>(m) /
                                          static_cast<double>(m + s));
      gc_bucket(gc_mark_, "gc.mark").add(mark);
      gc_bucket(gc_sweep_, "gc.sweep").add(rest - mark);
      if (in_slice_) {
        // A step inside an instruction (stress mode): in its buckets only.
        const std::uint64_t out = d + (now_ticks() - now);
        chained.exclude(out);
        sampled.exclude(out);
      } else {
        gc_in_gap_ += d;
      }
      break;
    }
    case GcEvent::Idle:
      if (--idle_depth_ == 0) {
        std::uint64_t d = now - idle_t0_;
        if (in_slice_) {
          chained.exclude(d);
          sampled.exclude(d);
        } else {
          gc_in_gap_ += d;
        }
        gc_bucket(gc_idle_, "gc.idle").add(minus_base(d, read_ticks_));
      }
      break;
    case GcEvent::Free:
      break;
  }
}

Base measure_interpreter_base(BasePolicy policy, ProbeMode mode, std::uint32_t instructions) {
  (void)timer();
  // init: a counter, then a loop of kRunts `runt`s (the handler is empty),
  // decrement, branch back. The frame: the two init arguments, the counter.
  constexpr int kRunts = 32;
  const std::uint32_t rounds = std::max<std::uint32_t>(1, instructions / kRunts);
  std::string text = "\tmovw\t$" + std::to_string(rounds) + ",40(fp)\n";
  for (int i = 0; i < kRunts; ++i) text += "\trunt\n";
  text += "\tsubw\t$1,40(fp)\n\tbgtw\t40(fp),$0,$1\n\tret\n";
  text +=
      "\tentry\t0, 0\n\tdesc\t$0,48,\"00c0\"\n\tmodule\tProbeBase\n"
      "\tlink\t0,0,0x4244b354,\"init\"\n";
  Module m = assembly::assemble(text, "probe-base.s");
  VM machine;
  CostRecorder rec(mode == ProbeMode::Sampled ? ProbeMode::Sampled : ProbeMode::Time, Base{}, 1);
  rec.install(machine);
  machine.run_module(std::move(m), "probe-base.s", {"probe-base"});
  rec.finish();
  std::vector<ProbeRecord> runts;
  for (const ProgramRecords& pr : rec.programs())
    for (std::size_t pc = 0; pc < pr.records.size() && pc < pr.program->mod.code.size(); ++pc)
      if (pr.program->mod.code[pc].op == Op::runt_) runts.push_back(pr.records[pc]);
  return base_from_records(policy, runts, timer().resolution.floor_ticks());
}

}  // namespace dis::vm
