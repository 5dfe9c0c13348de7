// Kernel processes (DESIGN decision 8, DIS-FACTS 7): Dis threads are run by
// host threads ("kprocs"), exactly one of which holds the interpreter at a
// time, handed over under one mutex as Inferno's acquire()/release() do.
//
// Every kproc runs the same scheduler loop (Inferno's vmachine): it runs the
// head thread's slice; hands the interpreter to a kproc queued for it when no
// thread is ready or every third slice; and when nothing is ready runs idle
// GC (up to three epochs) and then waits for a queued kproc or a sleeper.
//
// A blocking builtin calls release(): its Dis thread leaves the interpreter
// (it is off the run queue, and counts as neither runnable nor deadlocked),
// which passes to a queued kproc, else to a parked one, else to a new one.
// The builtin then blocks in the host and calls acquire(): it queues for the
// interpreter (waking the holder if it is idle) and waits until it is handed
// back, then continues its own slice (Inferno puts its Prog at the head of
// the run queue: the same thing). So the mcall of a blocking builtin
// contains the wait for the interpreter, as in the paper.
//
// A kproc about to sleep for the interpreter (parked, idle, or queued in
// acquire()) first polls for up to kSpin when the process may run on more
// than one processor: a blocking builtin's host work is often a microsecond,
// and a sleep costs two wake-ups of halted processors (tens of microseconds
// each under a hypervisor). On one processor it sleeps at once. For the
// same reason the mutex is taken by polling try_lock() first (lock()), and a
// kproc whose poll saw its grant takes it without the mutex. A holder with
// nothing to run while a thread is released polls up to kIdleGrace for it
// before idle GC.
//
// Idle GC stops when a kproc queues (or a sleeper is due); IdleGc::Fixed
// also calls sched_yield() after every step, so a kproc that finished its
// host work gets the processor to queue (the perform paper's fix).
//
// The program is over when nothing is ready, sleeping or released and no
// kproc is queued; the host thread that called run() then returns holding
// the interpreter, after every other kproc has ended.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace dis::vm {

class Runtime;
struct Prog;

class Kprocs {
 public:
  struct Kproc;

  explicit Kprocs(Runtime& vm);
  ~Kprocs();
  Kprocs(const Kprocs&) = delete;
  Kprocs& operator=(const Kprocs&) = delete;

  // Schedules on the calling host thread until the program is over (see
  // above). Rethrows a host exception that escaped any kproc's loop.
  void run();

  // Called by the interpreter's holder, inside a builtin of Dis thread p:
  // passes the interpreter on. nullptr when it could not (no host thread
  // could be started): the caller then blocks holding it.
  Kproc* release(Prog& p);
  // Takes the interpreter back for `self` (release()'s result). Allocates
  // nothing, so it cannot fail: it runs as a released builtin ends, however
  // it ends, host allocation failure included.
  void acquire(Kproc* self, Prog& p) noexcept;
  // Dis threads currently released.
  int released();

 private:
  void vmachine(Kproc& self);
  // `mark` is when this kproc's last slice ended, or kNoMark after it did
  // anything else (handed the interpreter on, idled): a slice run straight
  // after another starts at its end, so a slice reads the clock once.
  void vmachine_step(Kproc& self, int& cycles, bool& over, std::int64_t& mark);
  void run_slices(std::int64_t& mark);
  static constexpr std::int64_t kNoMark = -1;
  void idle(Kproc& self);
  void thread_main(Kproc* self);
  void grant_locked(Kproc* k);
  bool park_locked(std::unique_lock<std::mutex>& lk, Kproc& self);  // true: program over
  void finish_locked(Kproc& self);
  // Polls `done` for up to `limit` before the caller sleeps (or collects);
  // its last answer.
  bool spin_until(const std::function<bool()>& done, std::chrono::microseconds limit = kSpin) const;
  static constexpr std::chrono::microseconds kSpin{50};
  static constexpr std::chrono::microseconds kIdleGrace{5};
  // Takes m_. Its sections last a few hundred nanoseconds, while a lock()
  // that blocks sleeps in the kernel and costs a wake-up of a microsecond or
  // more (under a hypervisor): on more than one processor it polls first.
  std::unique_lock<std::mutex> lock();
  void relock(std::unique_lock<std::mutex>& lk);
  static constexpr int kLockTries = 2000;

  Runtime& vm_;
  std::mutex m_;
  std::unique_ptr<Kproc> main_;
  Kproc* holder_ = nullptr;
  // Waiting to acquire, in order: a list through the Kproc records, since a
  // queue that allocated could fail in acquire().
  Kproc* vmq_head_ = nullptr;
  Kproc* vmq_tail_ = nullptr;
  int vmq_size_ = 0;
  void enqueue_locked(Kproc* k);
  Kproc* dequeue_locked();  // nullptr when none waits
  // Parked interpreters. Its capacity covers every kproc (release() reserves
  // before it starts one), so parking never allocates.
  std::vector<Kproc*> pool_;
  std::vector<std::unique_ptr<Kproc>> threads_;
  std::atomic<int> queued_{0};  // vmq_size_, read without the lock by the holder
  int released_ = 0;
  bool finished_ = false;
  bool spin_ = false;  // more than one processor to run on (run())
  std::exception_ptr error_;
};

// Confines every thread of this process to `n` of the processors it may run
// on now (the lowest-numbered). Throws InputError naming --cpus when n is 0
// or more than are available, or when the system refuses.
void confine_to_cpus(unsigned n);

}  // namespace dis::vm
