// The embedding API (vm.h) over the internals (runtime.h).
#include "vm.h"

#include <unistd.h>

#include <iostream>
#include <stdexcept>

#include "runtime.h"
#include "signature.h"

namespace dis::vm {

Impl::Impl(Options o)
    : opts(std::move(o)),
      heap(cage, opts.heap_limit),
      out(opts.out ? opts.out : &std::cout),
      err(opts.err ? opts.err : &std::cerr),
      busec_start(std::chrono::steady_clock::now()) {
  if (opts.cpus) confine_to_cpus(opts.cpus);
  heap.set_hooks(this);
  gc = std::make_unique<Collector>(*this, opts.gc, opts.gc_quanta, opts.gc_verify);
  kprocs = std::make_unique<Kprocs>(*this);
  register_sys(*this);
  register_math(*this);
  register_bench(*this);
}

Impl::~Impl() { heap.set_hooks(nullptr); }

Ptr Impl::push_frame_slow(Prog& p, std::uint32_t type, std::uint32_t size, bool ptrs) {
  if (p.stack_bytes() + size > opts.stack_limit) raise_error("stack overflow");
  if (std::uint64_t{p.sp} + size > p.stack_end) {
    // The frame below is left for a new chunk: returning to it may need
    // the chunk switched back.
    if (!p.frames.empty()) p.frames.back().slow |= Frame::kChunkCheck;
    next_chunk(p, size);
  }
  return push_frame_sized(p, type, size, ptrs);
}

std::uint32_t Impl::plain_type(std::uint32_t size) {
  auto it = plain_types.find(size);
  if (it != plain_types.end()) return it->second;
  std::uint32_t t = heap.add_type(static_cast<std::int32_t>(size), {}, "block");
  plain_types[size] = t;
  return t;
}

void Impl::register_native(const std::string& path, std::vector<NativeFunction> fns) {
  auto n = std::make_unique<NativeModule>();
  n->path = path;
  n->fns = std::move(fns);
  for (NativeFunction& f : n->fns) {
    if (f.sig == 0 && !f.type.empty()) f.sig = type_sig(f.type);
    if (f.blocking && f.fn) f.fn = [whole = std::move(f.fn)](Call& c) { c.run_released(whole); };
    Export e;
    e.name = f.name;
    e.sig = f.sig;
    e.frame_type = heap.add_type(f.frame_size, f.map, path + "." + f.name);
    e.native = &f;
    n->exports.push_back(std::move(e));
  }
  for (auto& old : natives)
    if (old->path == path) {
      old = std::move(n);
      return;
    }
  natives.push_back(std::move(n));
}

std::int64_t Impl::write_fd(int fd, const void* data, std::size_t n) {
  if (fd == 1 || fd == 2) {
    std::ostream& os = fd == 1 ? *out : *err;
    os.write(static_cast<const char*>(data), static_cast<std::streamsize>(n));
    if (fd == 2) os.flush();
    return os ? static_cast<std::int64_t>(n) : -1;
  }
  return ::write(fd, data, n);
}

// ---- Call ----

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

void Call::blocking(const std::function<void()>& work) {
  need_interpreter("blocking");
  run_released([&](Call&) { work(); });
}

void Call::run_released(const NativeFn& work) {
  Kprocs::Kproc* self = impl_.kprocs->release(prog_);
  if (!self) {  // no kernel process to pass the interpreter to: block holding it
    work(*this);
    return;
  }
  // Takes the interpreter back however `work` ends.
  struct Reacquire {
    Call& c;
    Kprocs::Kproc* self;
    ~Reacquire() {
      c.released_ = false;
      c.impl_.kprocs->acquire(self, c.prog_);
    }
  } reacquire{*this, self};
  released_ = true;
  work(*this);
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

// ---- VM ----

VM::VM(Options opts) : impl_(std::make_unique<Impl>(std::move(opts))) {}
VM::~VM() = default;

void VM::register_module(const std::string& path, std::vector<NativeFunction> fns) {
  impl_->register_native(path, std::move(fns));
}

RunResult VM::run_module(Module m, const std::string& path, const std::vector<std::string>& args) {
  RunResult res;
  std::uint32_t ml;
  try {
    Program& p = impl_->load_program(std::move(m), path);
    ml = impl_->instantiate(p);
  } catch (const VerifyError& e) {
    res.status = 1;
    res.message = e.msg;
    *impl_->err << e.msg << "\n";
    return res;
  } catch (const DisError& e) {
    res.status = 1;
    res.message = e.msg;
    *impl_->err << e.msg << "\n";
    return res;
  }
  res = impl_->run_init(ml, args);
  impl_->out->flush();
  impl_->heap.decref(impl_->modlink(ml).obj);
  return res;
}

RunResult VM::run_file(const std::string& path, const std::vector<std::string>& args) {
  return run_module(impl_->read_module(path), path, args);
}

Stats VM::stats() const {
  Stats s = impl_->stats;
  s.heap = impl_->heap.stats();
  s.gc = impl_->gc->stats();
  return s;
}

void VM::set_gc_observer(GcObserver* o) { impl_->gc->set_observer(o); }

}  // namespace dis::vm
