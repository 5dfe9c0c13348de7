// Kernel processes: the scheduler loop every kproc runs, and the handing
// over of the interpreter between them (kproc.h).
#include "kproc.h"

#include <dirent.h>
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <string>
#include <utility>

#include "diag.h"
#include "log.h"
#include "runtime.h"
#include "slice_clock.h"

namespace dis::vm {

namespace {
constexpr std::uint32_t kQuantum = 2048;

// Tells the processor this is a spin-wait (it yields the core's resources
// to a hyperthread sibling and avoids a memory-order flush on exit).
inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}
constexpr int kSlicesBeforeYield = 2;  // Inferno: hand over on the third slice
}  // namespace

struct Kprocs::Kproc {
  std::condition_variable cv;
  // The interpreter was handed to this kproc. Written under m_; also read
  // without it while spinning (spin_until).
  std::atomic<bool> granted{false};
  std::thread thread;            // not joinable for the main kproc
  Kproc* queued_next = nullptr;  // after this one in the acquire queue
};

void Kprocs::enqueue_locked(Kproc* k) {
  k->queued_next = nullptr;
  (vmq_tail_ ? vmq_tail_->queued_next : vmq_head_) = k;
  vmq_tail_ = k;
  queued_.store(++vmq_size_, std::memory_order_release);
}

Kprocs::Kproc* Kprocs::dequeue_locked() {
  Kproc* k = vmq_head_;
  if (!k) return nullptr;
  vmq_head_ = k->queued_next;
  if (!vmq_head_) vmq_tail_ = nullptr;
  queued_.store(--vmq_size_, std::memory_order_release);
  return k;
}

Kprocs::Kprocs(Runtime& vm) : vm_(vm), main_(std::make_unique<Kproc>()) {}

// A handover that sleeps at once costs a wake-up of a halted processor on
// each side: tens of microseconds under a hypervisor. Most waits here end
// within microseconds (a blocking builtin's host work, a release right after
// a park), so a waiter first polls for a bounded time. Never on a single
// processor: the spinner would only delay the thread it waits for.
bool Kprocs::spin_until(const std::function<bool()>& done, std::chrono::microseconds limit) const {
  if (!spin_) return done();
  using clock = std::chrono::steady_clock;
  const auto until = clock::now() + limit;
  for (;;) {
    for (int i = 0; i < 64; ++i) {
      if (done()) return true;
      cpu_relax();
    }
    if (clock::now() >= until) return done();
  }
}

std::unique_lock<std::mutex> Kprocs::lock() {
  std::unique_lock lk(m_, std::defer_lock);
  relock(lk);
  return lk;
}

void Kprocs::relock(std::unique_lock<std::mutex>& lk) {
  if (spin_)
    for (int i = 0; i < kLockTries; ++i) {
      if (lk.try_lock()) return;
      cpu_relax();
    }
  lk.lock();
}

Kprocs::~Kprocs() {
  // run() joins its threads before returning; this only covers a run() that
  // never started them.
  for (auto& k : threads_)
    if (k->thread.joinable()) k->thread.join();
}

void Kprocs::grant_locked(Kproc* k) {
  holder_ = k;
  k->granted = true;
  k->cv.notify_one();
}

bool Kprocs::park_locked(std::unique_lock<std::mutex>& lk, Kproc& self) {
  lk.unlock();
  if (spin_until([&] { return self.granted.load(std::memory_order_acquire); })) {
    // Only the holder writes finished_, and the holder granted us.
    self.granted.store(false, std::memory_order_relaxed);
    return finished_;
  }
  relock(lk);
  self.cv.wait(lk, [&] { return self.granted || finished_; });
  self.granted = false;
  return finished_;
}

void Kprocs::finish_locked(Kproc& self) {
  finished_ = true;
  if (&self != main_.get()) {
    // The main kproc is parked (it is neither holding, queued nor released).
    pool_.erase(std::remove(pool_.begin(), pool_.end(), main_.get()), pool_.end());
    grant_locked(main_.get());
  }
  for (Kproc* k : pool_) k->cv.notify_one();
}

void Runtime::schedule() { kprocs->run(); }

void Kprocs::run() {
  {
    std::lock_guard lk(m_);
    cpu_set_t allowed;
    spin_ = sched_getaffinity(0, sizeof allowed, &allowed) == 0 && CPU_COUNT(&allowed) > 1;
    finished_ = false;
    error_ = nullptr;
    holder_ = main_.get();
    main_->granted = false;
  }
  vmachine(*main_);
  std::vector<std::unique_ptr<Kproc>> done;
  {
    auto lk = lock();
    for (auto& k : threads_) k->cv.notify_one();
    done = std::move(threads_);
    threads_.clear();
    pool_.clear();
  }
  for (auto& k : done) k->thread.join();
  holder_ = main_.get();
  if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
}

void Kprocs::thread_main(Kproc* self) {
  {
    auto lk = lock();
    if (park_locked(lk, *self)) return;
  }
  vmachine(*self);
}

void Kprocs::vmachine(Kproc& self) {
  int cycles = 0;
  bool over = false;
  std::int64_t mark = kNoMark;
  while (!over) {
    try {
      vmachine_step(self, cycles, over, mark);
    } catch (...) {
      // A host failure (not a Dis exception): stop running Dis code, let the
      // released threads come back, and rethrow from run().
      auto lk = lock();
      if (!error_) error_ = std::current_exception();
      vm_.halted = true;
    }
  }
}

void Kprocs::vmachine_step(Kproc& self, int& cycles, bool& over, std::int64_t& mark) {
  const bool ready = !vm_.halted && !vm_.runq.empty();
  if (queued_.load(std::memory_order_acquire) > 0 && (!ready || ++cycles > kSlicesBeforeYield)) {
    cycles = 0;
    mark = kNoMark;
    auto lk = lock();
    Kproc* k = dequeue_locked();
    if (!k) return;
    pool_.push_back(&self);  // within its reserved capacity
    grant_locked(k);
    over = park_locked(lk, self);
    return;
  }
  if (ready) {
    run_slices(mark);
    return;
  }
  mark = kNoMark;
  idle(self);
  auto lk = lock();
  over = finished_;
}

// Slice after slice while threads are ready and no kproc waits for the
// interpreter (vmachine_step's other cases): no return to the loop between
// two, which on a thread switch on a channel was a tenth of the switch.
void Kprocs::run_slices(std::int64_t& mark) {
  Runtime& vm = vm_;
  do {
    std::uint32_t id = vm.runq.front();
    vm.runq.pop_front();
    if (!vm.progs[id] || vm.progs[id]->state != ProgState::Ready) continue;
    Prog& p = *vm.progs[id];
    std::uint32_t budget = kQuantum;
    if (vm.opts.max_instructions) {
      std::uint64_t remain = vm.opts.max_instructions > vm.stats.instructions
                                 ? vm.opts.max_instructions - vm.stats.instructions
                                 : 0;
      if (remain == 0) {
        vm.halted = true;
        *vm.err << vm.position(p.ml, p.pc) << ": instruction limit\n";
        vm.main_broken = true;
        vm.note_first_error(p, "instruction limit");
        return;
      }
      budget = static_cast<std::uint32_t>(std::min<std::uint64_t>(budget, remain));
    }
    {
      FpRoundScope rounding(p.fp.control);
      // From the last slice's end: the scheduler's and the collector's steps
      // between two slices count to the second one's thread.
      const std::int64_t start = mark != kNoMark ? mark : slice_clock_ns();
      vm.stats.instructions += vm.run_slice(p, budget);
      mark = slice_clock_ns();
      p.cpu_ns += mark - start;
    }
    vm.stats.slices++;
    if (p.state == ProgState::Ready)
      vm.runq.push_back(id);
    else if (p.state == ProgState::Done)
      vm.end_prog(p);
    if (vm.on_quantum_end) vm.on_quantum_end();
    vm.gc->quantum_end();
    if (vm.collect_now) [[unlikely]] {
      vm.collect_now = false;
      vm.gc->full_collect();
    }
  } while (!vm.halted && !vm.runq.empty() && queued_.load(std::memory_order_acquire) == 0);
}

// Nothing is ready: end the program, or collect and wait for a sleeper or a
// kproc that wants the interpreter.
void Kprocs::idle(Kproc& self) {
  using clock = std::chrono::steady_clock;
  Runtime& vm = vm_;
  Prog* first = nullptr;
  if (!vm.halted)
    for (Prog* pp : vm.live)
      if (pp->state == ProgState::Sleeping && (!first || pp->wake < first->wake)) first = pp;
  bool awaited = false;
  {
    auto lk = lock();
    if (!first && released_ == 0 && !vmq_head_) {
      finish_locked(self);
      return;
    }
    awaited = released_ > 0;
  }
  // A thread released in a builtin is usually back within a microsecond or
  // two: collecting first would make it wait for a GC step and a
  // sched_yield() it would not meet otherwise.
  if (awaited) spin_until([&] { return queued_.load(std::memory_order_acquire) > 0; }, kIdleGrace);
  if (!vm.halted && queued_.load(std::memory_order_acquire) == 0) {
    if (vm.on_idle) vm.on_idle();
    const bool yield = vm.opts.idle_gc == IdleGc::Fixed;
    vm.gc->idle(first ? first->wake : clock::time_point::max(), [this, yield] {
      if (yield) sched_yield();
      return queued_.load(std::memory_order_acquire) > 0;
    });
  }
  spin_until([&] {
    return queued_.load(std::memory_order_acquire) > 0 || (first && clock::now() >= first->wake);
  });
  {
    auto lk = lock();
    auto wanted = [&] { return vmq_head_ != nullptr; };
    if (first)
      self.cv.wait_until(lk, first->wake, wanted);
    else
      self.cv.wait(lk, wanted);
  }
  const auto now = clock::now();
  for (Prog* pp : vm.live)
    if (pp->state == ProgState::Sleeping && pp->wake <= now) vm.wake(*pp);
}

Kprocs::Kproc* Kprocs::release(Prog& p) {
  // The slice's probe state stays with this thread until it acquires again.
  if (vm_.slice_runner) vm_.slice_runner->suspend_slice(vm_, p);
  auto lk = lock();
  Kproc* self = holder_;
  Kproc* next = dequeue_locked();
  if (!next && !pool_.empty()) {
    next = pool_.back();
    pool_.pop_back();
  }
  if (!next) {
    // Everything that can fail comes before the thread starts: a started
    // thread whose record then failed to be kept would end the process
    // (std::thread destroyed joinable), as a host allocation failing at
    // the push did in the fault sweep (Inferno's cat, host 959).
    try {
      if (threads_.size() == threads_.capacity()) threads_.reserve(2 * threads_.size() + 4);
      // Room to park every kproc, the main one and this one included.
      if (pool_.capacity() < threads_.size() + 2) pool_.reserve(threads_.capacity() + 1);
      auto k = std::make_unique<Kproc>();
      k->thread = std::thread(&Kprocs::thread_main, this, k.get());
      next = k.get();
      threads_.push_back(std::move(k));
      ++vm_.stats.kprocs;
    } catch (const std::exception&) {  // bad_alloc, or system_error: no thread
      lk.unlock();
      if (vm_.slice_runner) vm_.slice_runner->resume_slice(vm_, p);
      return nullptr;  // no thread: the caller blocks holding the interpreter
    }
    log_debug("kproc", "kernel process {} started: thread {} blocks in a builtin", threads_.size(),
              p.id);
  }
  ++vm_.stats.releases;
  ++released_;
  log_trace("kproc", "thread {} releases the interpreter", p.id);
  grant_locked(next);
  return self;
}

void Kprocs::acquire(Kproc* self, Prog& p) noexcept {
  {
    auto lk = lock();
    --released_;
    enqueue_locked(self);
    if (holder_) holder_->cv.notify_one();  // it may be idle, waiting for us
    lk.unlock();
    if (spin_until([&] { return self->granted.load(std::memory_order_acquire); })) {
      // Nobody else writes it until this kproc queues or parks again.
      self->granted.store(false, std::memory_order_relaxed);
    } else {
      relock(lk);
      while (!self->granted) self->cv.wait(lk);
      self->granted = false;
    }
  }
  log_trace("kproc", "thread {} holds the interpreter again", p.id);
  if (vm_.slice_runner) vm_.slice_runner->resume_slice(vm_, p);
}

int Kprocs::released() {
  auto lk = lock();
  return released_;
}

void confine_to_cpus(unsigned n) {
  auto fail = [n](const std::string& msg) {
    throw InputError(Diagnostic{"--cpus " + std::to_string(n), 0, 0, -1, msg});
  };
  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  if (sched_getaffinity(0, sizeof allowed, &allowed) != 0) fail("cannot read the CPU affinity");
  const unsigned have = static_cast<unsigned>(CPU_COUNT(&allowed));
  if (n == 0 || n > have)
    fail("cannot confine the VM to " + std::to_string(n) + " processor" + (n == 1 ? "" : "s") +
         ": " + std::to_string(have) + " available");
  cpu_set_t set;
  CPU_ZERO(&set);
  unsigned taken = 0;
  for (int c = 0; c < CPU_SETSIZE && taken < n; ++c)
    if (CPU_ISSET(c, &allowed)) {
      CPU_SET(c, &set);
      ++taken;
    }
  // Every thread of the process, not only the caller (later threads inherit).
  bool ok = sched_setaffinity(0, sizeof set, &set) == 0;
  if (DIR* d = opendir("/proc/self/task")) {
    while (dirent* e = readdir(d)) {
      if (e->d_name[0] == '.') continue;
      pid_t tid = static_cast<pid_t>(std::atoi(e->d_name));
      if (sched_setaffinity(tid, sizeof set, &set) != 0) ok = false;
    }
    closedir(d);
  }
  if (!ok) fail("the system refused the CPU affinity (sched_setaffinity)");
}

}  // namespace dis::vm
