// What a builtin function sees of the VM (vm.h's Call).
#include <stdexcept>

#include "runtime.h"
#include "slice_clock.h"
#include "vm.h"

namespace dis::vm {

void Call::need_interpreter(const char* what) const {
  if (released_)
    throw std::logic_error(std::string("Call::") + what +
                           " in a blocking builtin: it needs the interpreter");
}

Heap& Call::heap() {
  need_interpreter("heap");
  return impl_.heap;
}
std::uint8_t* Call::frame() { return impl_.cage.at(frame_); }
std::int32_t Call::arg_int(std::uint32_t off) { return ld<std::int32_t>(frame() + off); }
std::int64_t Call::arg_big(std::uint32_t off) { return ld<std::int64_t>(frame() + off); }
double Call::arg_real(std::uint32_t off) { return ld<double>(frame() + off); }
Ptr Call::arg_ptr(std::uint32_t off) { return ld<Ptr>(frame() + off); }
std::string Call::arg_string(std::uint32_t off) {
  need_interpreter("arg_string");
  return str_utf8(impl_.heap, arg_ptr(off));
}

std::uint8_t* Call::result(std::uint32_t off) {
  Ptr r = ld<Ptr>(frame() + 16);
  if (r == H) return nullptr;
  return impl_.cage.at(r + off);
}
void Call::ret_int(std::int32_t v) {
  if (auto* r = result()) st<std::int32_t>(r, v);
}
void Call::ret_big(std::int64_t v) {
  if (auto* r = result()) st<std::int64_t>(r, v);
}
void Call::ret_real(double v) {
  if (auto* r = result()) st<double>(r, v);
}
void Call::ret_ptr(Ptr owned, std::uint32_t off) {
  need_interpreter("ret_ptr");
  std::uint8_t* r = result(off);
  if (!r) {
    impl_.heap.decref(owned);
    return;
  }
  Ptr old = ld<Ptr>(r);
  st<Ptr>(r, owned);
  impl_.heap.decref(old);
}
void Call::ret_string(std::string_view utf8) { ret_ptr(new_string(utf8)); }
Ptr Call::new_string(std::string_view utf8) {
  need_interpreter("new_string");
  return str_from_utf8(impl_.heap, utf8);
}
void Call::raise(const std::string& msg) { throw DisError{msg}; }
std::int64_t Call::write_fd(int fd, const void* p, std::size_t n) {
  need_interpreter("write_fd");
  return impl_.write_fd(fd, p, n);
}
void Call::sleep_ms(std::int64_t ms) {
  need_interpreter("sleep_ms");
  prog_.pending_sleep = true;
  prog_.sleep_ms = ms < 0 ? 0 : ms;
}

void Call::flush_output() {
  need_interpreter("flush_output");
  impl_.out->flush();
}

const std::string& Call::error_string() const { return impl_.errstr; }
void Call::set_error_string(std::string s) { impl_.errstr = std::move(s); }
std::string Call::host_path(const std::string& dis_path) const { return impl_.host_path(dis_path); }
std::uint32_t Call::thread_id() const { return prog_.id; }

bool Call::open_wait(std::uint32_t t) {
  need_interpreter("open_wait");
  if (t >= impl_.progs.size() || !impl_.progs[t] || impl_.progs[t]->state == ProgState::Done)
    return false;
  impl_.waits.open(t);
  return true;
}

std::string Call::read_wait(std::uint32_t t) {
  std::string line;
  WaitQueues& w = impl_.waits;
  blocking([&] { line = w.take(t); });
  return line;
}
std::uint32_t Call::fp_control(std::uint32_t r, std::uint32_t mask) {
  const std::uint32_t old = prog_.fp.control;
  prog_.fp.control = ((old & ~mask) | (r & mask)) & kFpControlBits;
  if ((old ^ prog_.fp.control) & kFpRoundMask) fp_apply_rounding(prog_.fp.control);
  return old;
}
void Call::fp_raised(std::uint32_t bits) { fp_record(prog_, bits); }
std::uint32_t Call::fp_status(std::uint32_t r, std::uint32_t mask) {
  const std::uint32_t old = prog_.fp.status;
  prog_.fp.status = ((old & ~mask) | (r & mask)) & kFpExceptions;
  return old;
}
std::shared_ptr<FdGroup>& Call::fd_group() {
  need_interpreter("fd_group");
  return prog_.fds;
}

std::uint32_t Call::released_threads() const {
  return static_cast<std::uint32_t>(impl_.kprocs->released());
}
Collector& Call::collector() { return *impl_.gc; }

void Call::blocking(const std::function<void()>& work) {
  need_interpreter("blocking");
  run_released([&](Call&) { work(); });
}

void Call::run_released(const NativeFn& work) {
  const std::int64_t start = slice_clock_ns();
  // Set while this thread still holds the interpreter: others read it.
  prog_.released = true;
  Kprocs::Kproc* self = impl_.kprocs->release(prog_);
  if (!self) {  // no kernel process to pass the interpreter to: block holding it
    prog_.released = false;
    work(*this);
    return;
  }
  {
    // Takes the interpreter back however `work` ends.
    struct Reacquire {
      Call& c;
      Kprocs::Kproc* self;
      std::int64_t start;
      ~Reacquire() {
        c.released_ = false;
        c.impl_.kprocs->acquire(self, c.prog_);
        c.prog_.released = false;
        // The slice's time counts only what ran on the interpreter.
        c.prog_.cpu_ns -= slice_clock_ns() - start;
      }
    } reacquire{*this, self, start};
    released_ = true;
    work(*this);
  }
  // A kill came meanwhile (Call::kill_thread).
  if (!prog_.killed.empty()) raise(prog_.killed);
}

bool parse_idle_gc(const std::string& name, IdleGc& policy) {
  if (name == "old")
    policy = IdleGc::Old;
  else if (name == "fixed")
    policy = IdleGc::Fixed;
  else
    return false;
  return true;
}

}  // namespace dis::vm
