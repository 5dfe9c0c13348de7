#include "gc.h"

#include <algorithm>
#include <cmath>
#include <new>
#include <sstream>

#include "arrays_lists.h"
#include "heap_verify.h"
#include "log.h"

namespace dis::vm {

namespace {
constexpr std::int64_t kQuanta = 50;  // Inferno's Quanta
constexpr std::int64_t kMaxQuanta = 15 * kQuanta;
constexpr std::size_t kStackMax = 4096;  // depth-first marking, then passes
// Allocation-debt pacing (see quantum_end): units of work owed per block
// the heap gained, at least kPaceFactor; an epoch should end before the heap
// gains a kGrowthDivisor-th of max(blocks it marked, kPaceFloor).
constexpr std::int64_t kPaceFactor = 4;
constexpr std::int64_t kMaxRate = 4096;
constexpr std::uint64_t kPaceFloor = 32768;
constexpr std::uint64_t kGrowthDivisor = 1;
// A quantum-end step pays at most this much of the debt (latency); the rest
// carries over, unless the debt exceeds a whole epoch's work: then the
// collector is too far behind and pays it all at once.
constexpr std::int64_t kMaxPaced = 64 * kMaxQuanta;
constexpr std::int64_t kUnbounded = std::int64_t{1} << 60;
// Rest between epochs (gc.h): the allocations a finished epoch waits for,
// max(kRestFloor, live blocks / kRestDivisor).
constexpr std::uint64_t kRestFloor = 1024;
constexpr std::uint64_t kRestDivisor = 4;
}  // namespace

bool parse_gc_mode(const std::string& name, GcMode& mode) {
  if (name == "dis")
    mode = GcMode::Dis;
  else if (name == "ms")
    mode = GcMode::MarkSweep;
  else if (name == "stress")
    mode = GcMode::Stress;
  else
    return false;
  return true;
}

std::string format_gc_stats(const GcStats& s) {
  std::ostringstream o;
  // A stream swallows its buffer's std::bad_alloc (badbit) and would give
  // the counters cut short, the verifier's last: let it through instead.
  o.exceptions(std::ios::badbit);
  o << "gc steps " << s.steps << "\n"
    << "gc epochs " << s.epochs << "\n"
    << "gc passes " << s.passes << "\n"
    << "gc inspected " << s.inspected << "\n"
    << "gc marked " << s.marked << "\n"
    << "gc followed " << s.followed << "\n"
    << "gc freed-refcount " << s.freed_refcount << "\n"
    << "gc freed-collector " << s.freed_collector << "\n"
    << "gc idle-episodes " << s.idle_episodes << "\n"
    << "gc idle-steps " << s.idle_steps << "\n"
    << "gc full-collections " << s.full_collections << "\n"
    << "gc emergency-collections " << s.emergency_collections << "\n"
    << "gc rested-quanta " << s.rested_quanta << "\n"
    << "heap bytes-allocated " << s.bytes_allocated << "\n"
    << "heap bytes-live " << s.bytes_live << "\n"
    << "heap bytes-peak " << s.bytes_peak << "\n"
    << "heap live-blocks " << s.live_blocks << "\n"
    << "heap extent " << s.extent << "\n"
    << "heap extent-peak " << s.extent_peak << "\n"
    << "heap bytes-returned " << s.bytes_returned << "\n"
    << "heap trims " << s.trims << "\n";
  if (s.verify_runs) {
    o << "gc verify-runs " << s.verify_runs << "\n"
      << "gc verify-failures " << s.verify_failures << "\n"
      << "gc verify-count-runs " << s.verify_count_runs << "\n";
    if (!s.first_verify_error.empty())
      o << "gc verify-first-error " << s.first_verify_error << "\n";
  }
  return o.str();
}

void GcStepTimes::gc_begin(GcEvent e) {
  start_[static_cast<int>(e)] = std::chrono::steady_clock::now();
}

void GcStepTimes::gc_end(GcEvent e, const GcWork& work) {
  auto ns =
      static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                     std::chrono::steady_clock::now() - start_[static_cast<int>(e)])
                                     .count());
  if (e == GcEvent::Step) {
    steps_.push_back(ns);
    max_work_ = std::max(max_work_, work.inspected + work.followed);
  } else if (e == GcEvent::Idle) {
    idle_.push_back(ns);
  }
}

std::string GcStepTimes::report() const {
  std::vector<std::uint64_t> v = steps_;
  std::sort(v.begin(), v.end());
  std::ostringstream o;
  auto pct = [&](double q) {
    if (v.empty()) return 0.0;
    auto i = static_cast<std::size_t>(std::ceil(q * static_cast<double>(v.size()))) - 1;
    return static_cast<double>(v[std::min(i, v.size() - 1)]) / 1000.0;
  };
  o << "gc step-times count " << v.size() << " us: p50 " << pct(0.5) << " p90 " << pct(0.9)
    << " p99 " << pct(0.99) << " p99.9 " << pct(0.999) << " max "
    << (v.empty() ? 0.0 : static_cast<double>(v.back()) / 1000.0) << "\n";
  o << "gc step-max-work " << max_work_ << "\n";
  o << "gc idle-episodes-timed " << idle_.size() << "\n";
  return o.str();
}

// Forwards reference-count destructions to the observer as Free events.
struct Collector::FreeBridge : FreeObserver {
  GcObserver* o = nullptr;
  void free_begin() override { o->gc_begin(GcEvent::Free); }
  void free_end(std::uint64_t blocks) override {
    GcWork w;
    w.freed = blocks;
    o->gc_end(GcEvent::Free, w);
  }
};

Collector::Collector(Heap& heap, HeapHooks& host, GcMode mode, std::uint32_t fixed_quanta,
                     std::uint32_t verify_every)
    : heap_(heap),
      cage_(heap.cage()),
      host_(host),
      mode_(mode),
      fixed_quanta_(fixed_quanta),
      verify_every_(verify_every) {
  heap_.set_mutator_colour(mutator());
  heap_.set_refcounting(mode != GcMode::MarkSweep);
  heap_.set_sweep_cursor(&cursor_);
  if (mode == GcMode::Stress) heap_.set_alloc_hook(&Collector::on_alloc, this);
  heap_.set_exhausted_hook(&Collector::on_exhausted, this);
}

Collector::~Collector() {
  heap_.set_alloc_hook(nullptr, nullptr);
  heap_.set_exhausted_hook(nullptr, nullptr);
  heap_.set_free_observer(nullptr);
  heap_.set_sweep_cursor(nullptr);
  delete bridge_;
}

std::uint8_t Collector::mutator() const { return static_cast<std::uint8_t>(colour_epoch_ % 3); }
std::uint8_t Collector::marker() const {
  return static_cast<std::uint8_t>((colour_epoch_ - 1) % 3);
}
std::uint8_t Collector::sweeper() const {
  return static_cast<std::uint8_t>((colour_epoch_ - 2) % 3);
}

void Collector::unpin(Ptr p) {
  auto it = std::find(pinned_.begin(), pinned_.end(), p);
  if (it != pinned_.end()) pinned_.erase(it);
}

void Collector::set_observer(GcObserver* o) {
  observer_ = o;
  if (!o) {
    heap_.set_free_observer(nullptr);
    return;
  }
  if (FreeObserver* direct = o->direct_free_observer()) {
    heap_.set_free_observer(direct);
    return;
  }
  if (!bridge_) bridge_ = new FreeBridge;
  bridge_->o = o;
  heap_.set_free_observer(bridge_);
}

GcStats Collector::stats() const {
  GcStats s = stats_;
  const HeapStats& h = heap_.stats();
  s.freed_refcount = h.freed_refcount;
  s.freed_collector = h.freed_collector;
  s.bytes_allocated = h.bytes_allocated;
  s.bytes_live = h.bytes_live;
  s.bytes_peak = h.bytes_peak;
  s.live_blocks = h.live_blocks;
  s.extent = h.extent;
  s.extent_peak = h.extent_peak;
  s.bytes_returned = h.bytes_returned;
  s.trims = h.trims;
  return s;
}

std::uint32_t Collector::quanta() const {
  if (fixed_quanta_) return fixed_quanta_;
  if (gct_ == 0) return 400;
  // 400 + 35 * floor(100 * gce / gct), clamped (libinterp/gc.c).
  std::int64_t r = 100 * gce_;
  std::int64_t q = r / gct_;
  if ((r % gct_ != 0) && ((r < 0) != (gct_ < 0))) --q;
  std::int64_t n = 400 + 35 * q;
  return static_cast<std::uint32_t>(std::clamp(n, kQuanta, kMaxQuanta));
}

// ---- marking ----

inline void Collector::grey(Ptr c) {
  if (c == H) return;
  BlockHeader* h = heap_.checked_header(c);
  if (!h) return;
  ++work_.followed;
  if (h->colour == heap_.mutator_colour() || h->colour == kPropagator) return;
  h->colour = kPropagator;
  // Blocks ahead of the walk are reached by this pass; those behind are
  // scanned now while the stack has room, else by another pass.
  if (c - 16 < cursor_) {
    if (stack_.size() < kStackMax)
      stack_.push_back(c);
    else
      heap_.nprop = true;
  }
}

void Collector::mark_root(Ptr p) {
  if (p == H) return;
  BlockHeader* h = heap_.checked_header(p);
  if (!h || h->colour == heap_.mutator_colour()) return;
  h->colour = kPropagator;
}

bool Collector::scan_array(Ptr p, std::uint32_t from, std::int64_t& budget) {
  BlockHeader* h = heap_.header(p);
  std::uint8_t* d = cage_.at(p);
  std::uint32_t et = ld<std::uint32_t>(d + 4);
  if (et >= heap_.num_types()) return true;
  const TypeInfo& e = heap_.type(et);
  if (e.ptrs.empty() || e.size == 0) return true;
  // The element count is bounded by the block, whatever the header says.
  std::uint32_t room = block_room(*h) - kArrayHeader;
  auto n = static_cast<std::uint32_t>(std::max(ld<std::int32_t>(d), 0));
  n = std::min(n, room / e.size);
  const auto cost = static_cast<std::int64_t>(e.ptrs.size());
  for (std::uint32_t i = from; i < n; ++i) {
    if (budget <= 0) {
      partial_ = p;
      partial_next_ = i;
      heap_.scan_guard = p;
      return false;
    }
    std::uint8_t* el = d + kArrayHeader + std::uint64_t{i} * e.size;
    for (std::uint32_t off : e.ptrs) grey(ld<Ptr>(el + off));
    budget -= cost;
  }
  if (partial_ == p) {
    partial_ = H;
    heap_.scan_guard = H;
  }
  return true;
}

bool Collector::scan(Ptr p, std::int64_t& budget) {
  BlockHeader* h = heap_.header(p);
  std::uint8_t* d = cage_.at(p);
  const TypeInfo& t = heap_.type(h->type);
  switch (t.kind) {
    case TypeKind::Plain:
      if ((t.flags & kPtrsInSize) && block_room(*h) >= t.size)
        for (std::uint32_t off : t.ptrs) grey(ld<Ptr>(d + off));
      else
        for (std::uint32_t off : t.ptrs)
          if (off + 4 <= block_room(*h)) grey(ld<Ptr>(d + off));
      budget -= static_cast<std::int64_t>(t.ptrs.size());
      return true;
    case TypeKind::List: {
      std::uint32_t et = ld<std::uint32_t>(d + 4);
      if (et < heap_.num_types())
        for (std::uint32_t off : heap_.type(et).ptrs)
          if (8 + off + 4 <= block_room(*h)) grey(ld<Ptr>(d + 8 + off));
      grey(ld<Ptr>(d));
      budget -= 2;
      return true;
    }
    case TypeKind::Array: {
      Ptr root = ld<Ptr>(d + 8);
      if (root != H) {
        grey(root);
        --budget;
        return true;
      }
      return scan_array(p, 0, budget);
    }
    case TypeKind::Channel: {
      std::int64_t cost = 0;
      host_.channel_items(ld<std::uint32_t>(d), [&](std::uint32_t et, const std::uint8_t* item) {
        const TypeInfo& e = heap_.type(et);
        for (std::uint32_t off : e.ptrs) grey(ld<Ptr>(item + off));
        cost += static_cast<std::int64_t>(e.ptrs.size());
      });
      budget -= cost;
      return true;
    }
    case TypeKind::Module: {
      Ptr mp;
      if (host_.module_data(ld<std::uint32_t>(d + kModuleIndex), mp)) grey(mp);
      --budget;
      return true;
    }
    case TypeKind::String:
    case TypeKind::Stack:
      return true;
  }
  return true;
}

void Collector::drain(std::int64_t& budget) {
  while (!stack_.empty() && budget > 0) {
    Ptr c = stack_.back();
    stack_.pop_back();
    BlockHeader* h = heap_.header(c);
    if (h->magic != kLive || h->colour != kPropagator) continue;
    h->colour = heap_.mutator_colour();
    ++work_.marked;
    --gce_;
    if (!scan(c, budget)) return;
  }
}

void Collector::rootset() {
  if (observer_) observer_->gc_begin(GcEvent::RootSet);
  // Each thread's module, each frame's pointer slots and module.
  struct Marker : RootVisitor {
    Collector& gc;
    explicit Marker(Collector& c) : gc(c) {}
    void thread(std::uint32_t, Ptr module) override { gc.mark_root(module); }
    void frame(std::size_t, Ptr fp, std::uint32_t type, std::uint32_t size, Ptr module) override {
      std::uint8_t* f = gc.cage_.at(fp);
      for (std::uint32_t off : gc.heap_.type(type).ptrs)
        if (off + 4 <= size) gc.mark_root(ld<Ptr>(f + off));
      gc.mark_root(module);
    }
  } marker(*this);
  host_.visit_roots(marker);
  for (Ptr p : pinned_) mark_root(p);
  for (Ptr p : fresh_) mark_root(p);
  if (observer_) observer_->gc_end(GcEvent::RootSet, GcWork{});
}

void Collector::end_pass() {
  ++stats_.passes;
  cursor_ = kHeapStart;
  if (!heap_.nprop) {
    if (may_rest_) {
      const HeapStats& hs = heap_.stats();
      resting_ = true;
      rest_until_ = hs.allocs + std::max(kRestFloor, hs.live_blocks / kRestDivisor);
    } else {
      next_epoch();
    }
  }
  heap_.nprop = false;
}

void Collector::next_epoch() {
  resting_ = false;
  if (log_on(LogLevel::Debug))
    log_debug("gc", "epoch {} ends after {} passes: {} blocks swept, {} live", stats_.epochs + 1,
              stats_.passes - epoch_passes_, epoch_swept_, heap_.stats().live_blocks);
  epoch_swept_ = 0;
  epoch_passes_ = stats_.passes;
  ++colour_epoch_;
  heap_.set_mutator_colour(mutator());
  gce_ = gct_ = 0;
  pace_epoch_end();
  ++stats_.epochs;
  verify_due_ = true;
  rootset();
}

// The epoch's work over the growth it may allow: the next epoch, costing
// about as much, then ends before the heap gains more than that growth, so
// garbage (freed two epochs after it was made) stays a bounded share.
// (Half the growth cost Havlak twice the work of the fixed pace for a
// fifth less peak heap.)
void Collector::pace_epoch_end() {
  const std::uint64_t allowed = std::max(epoch_marked_, kPaceFloor) / kGrowthDivisor;
  const auto rate = static_cast<std::int64_t>((epoch_units_ + allowed - 1) / allowed);
  rate_ = std::clamp(rate, kPaceFactor, kMaxRate);
  last_epoch_units_ = epoch_units_;
  epoch_units_ = epoch_marked_ = 0;
}

void Collector::run_step(std::int64_t budget) {
  in_step_ = true;
  // A host allocation failing inside the step (the mark stack growing)
  // ends it as a budget running out does: what was greyed waits for
  // another pass, and the collector (and its verifier) go on working.
  struct Abandon {
    Collector& c;
    bool finished = false;
    ~Abandon() {
      if (finished) return;
      c.stack_.clear();
      c.heap_.nprop = true;
      c.in_step_ = false;
    }
  } abandon{*this};
  const std::int64_t start_budget = budget;
  work_ = GcWork{};
  if (observer_) observer_->gc_begin(GcEvent::Step);
  ++stats_.steps;
  if (resting_) next_epoch();
  bool more = true;
  if (partial_ != H) {
    if (heap_.scan_guard != partial_)
      partial_ = H;  // freed meanwhile
    else
      more = scan_array(partial_, partial_next_, budget);
  }
  if (more) drain(budget);
  const std::uint8_t sweeper_colour = sweeper();
  while (more && budget > 0) {
    if (cursor_ >= heap_.top()) {
      end_pass();
      break;
    }
    Ptr b = cursor_;
    auto* h = reinterpret_cast<BlockHeader*>(cage_.at(b));
    __builtin_prefetch(cage_.at(b) + 512);
    cursor_ += h->size;
    --budget;
    if (h->magic != kLive || h->type == kTypeStack) continue;
    ++work_.inspected;
    ++gct_;
    if (h->colour == kPropagator) {
      h->colour = heap_.mutator_colour();
      ++work_.marked;
      --gce_;
      if (!scan(b + 16, budget)) break;
      drain(budget);
    } else if (h->colour == sweeper_colour) {
      heap_.collect(b + 16);
      ++work_.swept;
      ++epoch_swept_;
      ++gce_;
    }
  }
  if (!stack_.empty()) {
    // Left as propagators behind the walk: the pass must be repeated.
    stack_.clear();
    heap_.nprop = true;
  }
  const std::int64_t spent = start_budget - budget;
  epoch_units_ += static_cast<std::uint64_t>(spent);
  debt_ = std::max<std::int64_t>(debt_ - spent, 0);
  epoch_marked_ += work_.marked;
  stats_.inspected += work_.inspected;
  stats_.marked += work_.marked;
  stats_.followed += work_.followed;
  if (observer_) observer_->gc_end(GcEvent::Step, work_);
  abandon.finished = true;
  in_step_ = false;
  heap_.trim_point();  // the step's frees; its mark stack is empty again
  if (verify_every_ == 1 ||
      (verify_every_ && !collecting_all_ && (verify_due_ || stats_.steps % verify_every_ == 0)))
    verify_now();
}

void Collector::step() {
  if (halt_ || in_step_) return;
  run_step(quanta());
}

void Collector::quantum_end() {
  fresh_.clear();
  unlisted_ = false;
  heap_.next_safe_point();
  if (halt_) return;
  if (resting_ && heap_.stats().allocs < rest_until_) {
    // Growth during the rest is not billed as debt: the rest's allowance
    // already bounds it, and paying it at once would be one long step.
    live_at_step_ = heap_.stats().live_blocks;
    ++stats_.rested_quanta;
    return;
  }
  // Pacing (not in Inferno; Lua's allocation debt): each block the reference
  // counts did not free since the last step (cyclic garbage, or everything
  // under --gc=ms) adds rate_ units to a debt the steps pay, so a loop making
  // cycles cannot outrun the walk.
  std::int64_t budget = quanta();
  if (!fixed_quanta_) {
    const std::uint64_t live = heap_.stats().live_blocks;
    if (live > live_at_step_)
      debt_ = std::min<std::int64_t>(
          debt_ + rate_ * static_cast<std::int64_t>(live - live_at_step_), kUnbounded);
    const auto behind =
        static_cast<std::int64_t>(std::max<std::uint64_t>(last_epoch_units_, kPaceFloor));
    budget = std::max(budget, debt_ > behind ? debt_ : std::min(debt_, kMaxPaced));
  }
  struct Rest {  // also when the step throws
    bool& may;
    ~Rest() { may = false; }
  } rest{may_rest_};
  may_rest_ = mode_ == GcMode::Dis;
  run_step(budget);
  live_at_step_ = heap_.stats().live_blocks;
}

void Collector::idle(std::chrono::steady_clock::time_point deadline,
                     const std::function<bool()>& interrupted) {
  if (halt_ || in_step_) return;
  if (std::chrono::steady_clock::now() >= deadline) return;
  if (observer_) observer_->gc_begin(GcEvent::Idle);
  ++stats_.idle_episodes;
  GcWork total;
  const std::uint64_t target = colour_epoch_ + 3;
  while (colour_epoch_ < target) {
    run_step(quanta());
    ++stats_.idle_steps;
    total.marked += work_.marked;
    total.swept += work_.swept;
    total.inspected += work_.inspected;
    total.followed += work_.followed;
    if (std::chrono::steady_clock::now() >= deadline) break;
    if (interrupted && interrupted()) break;
  }
  if (observer_) observer_->gc_end(GcEvent::Idle, total);
}

void Collector::full_collect(bool safe_point) {
  if (halt_ || in_step_) return;
  struct Restore {  // also when a step throws (std::bad_alloc)
    Collector& c;
    bool mid, all;
    ~Restore() {
      c.mid_instruction_ = mid;
      c.collecting_all_ = all;
    }
  } restore{*this, mid_instruction_, collecting_all_};
  mid_instruction_ = mid_instruction_ || !safe_point;
  collecting_all_ = true;
  ++stats_.full_collections;
  log_debug("gc", "full collection {}", stats_.full_collections);
  // Garbage of any colour now is sweeper-coloured after two epoch ends and
  // freed by the pass that follows.
  const std::uint64_t target = colour_epoch_ + 2;
  while (colour_epoch_ < target) run_step(kUnbounded);
  const std::uint64_t passes = stats_.passes;
  while (stats_.passes == passes) run_step(kUnbounded);
  if (verify_every_ > 1 && !restore.all) verify_now();  // 1: its last step did
}

void Collector::verify_at_exit(bool safe_point) {
  if (!verify_every_ || in_step_) return;
  const bool was_mid = mid_instruction_;
  mid_instruction_ = was_mid || !safe_point;
  verify_now();
  mid_instruction_ = was_mid;
}

// Stress mode's collection after an allocation is an extra: when the host
// has no memory for it, it is skipped. Letting std::bad_alloc out of here
// would fail an allocation whose block exists and is nobody's.
void Collector::on_alloc(void* self, Ptr p) {
  auto* c = static_cast<Collector*>(self);
  try {
    c->fresh_.push_back(p);
  } catch (const std::bad_alloc&) {
    c->unlisted_ = true;  // p is held by C++ locals only: no collection before the safe point
    return;
  }
  if (c->unlisted_) return;
  try {
    c->full_collect(false);
  } catch (const std::bad_alloc&) {
    // The step left the collector usable (run_step); the next one resumes.
  }
}

// An allocation would fail: everything unreachable is freed and the
// allocation tried again. Inside an instruction the blocks made since the
// last safe point may be held only by C++ locals: they are roots for this
// collection (stress mode lists them already).
void Collector::on_exhausted(void* self) {
  auto* c = static_cast<Collector*>(self);
  if (c->halt_ || c->in_step_ || c->unlisted_) return;
  ++c->stats_.emergency_collections;
  struct Unlist {  // the blocks listed here are roots for this collection only
    std::vector<Ptr>& fresh;
    std::size_t listed;
    ~Unlist() { fresh.resize(listed); }
  } unlist{c->fresh_, c->fresh_.size()};
  if (c->mode_ != GcMode::Stress) {
    const std::uint16_t stamp = c->heap_.fresh_stamp();
    c->heap_.walk([&](Ptr p, const BlockHeader& h) {
      if (h.magic == kLive && h.type != kTypeStack && h.spare == stamp) c->fresh_.push_back(p);
    });
  }
  c->full_collect(false);
}

void Collector::verify_now() {
  verify_due_ = false;
  heap_.finish_pending();
  const bool counts = heap_.refcounting() && !mid_instruction_;
  HeapVerifyResult r = verify_heap(heap_, host_, sweeper(), counts);  // may throw bad_alloc
  ++stats_.verify_runs;
  if (counts) ++stats_.verify_count_runs;
  if (!r.errors.empty()) {
    ++stats_.verify_failures;
    if (stats_.first_verify_error.empty()) {
      stats_.first_verify_error = "after step " + std::to_string(stats_.steps) + ":";
      for (std::size_t i = 0; i < r.errors.size() && i < 4; ++i)
        stats_.first_verify_error += " " + r.errors[i] + ";";
    }
  }
}

}  // namespace dis::vm
