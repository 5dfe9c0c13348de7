// The VM of the embedding API (vm.h, in core/), defined here above core/
// and builtins/ because its constructor registers the builtin modules
// $Sys, $Math and $Bench (as Lua's linit.c opens the standard libraries):
// every tool and embedder gets them.
#include <new>

#include "builtins.h"
#include "fault_injection.h"
#include "runtime.h"
#include "vm.h"

namespace dis::vm {

VM::VM(Options opts) : impl_(std::make_unique<Runtime>(std::move(opts))) {
  register_builtins(*this);
}
VM::~VM() = default;

Heap& VM::heap() { return impl_->heap; }

void VM::register_module(const std::string& path, std::vector<NativeFunction> fns) {
  impl_->register_native(path, std::move(fns));
}

RunResult VM::run_module(Module m, const std::string& path, const std::vector<std::string>& args) {
  fault::program_starts();
  auto failed = [&](const std::string& msg) {
    *impl_->err << msg << "\n";
    return RunResult{1, msg, {}};
  };
  std::uint32_t ml;
  try {
    Program& p = impl_->load_program(std::move(m), path);
    ml = impl_->instantiate(p);
  } catch (const VerifyError& e) {
    return failed(e.msg);
  } catch (const DisError& e) {
    return failed(e.msg);
  } catch (const std::bad_alloc&) {
    return failed(kOutOfMemory);
  }
  RunResult res;
  try {
    res = impl_->run_init(ml, args);
  } catch (const std::bad_alloc&) {
    // A host allocation outside any thread (the scheduler's, the
    // collector's) failed: the run ends, as it would on a Dis error.
    impl_->out->flush();
    impl_->gc->verify_at_exit(false);  // off a safe point: what threw may hold a count
    return failed(kOutOfMemory);
  }
  impl_->out->flush();
  impl_->heap.decref(impl_->modlink(ml).obj);
  impl_->gc->verify_at_exit(true);
  return res;
}

RunResult VM::run_file(const std::string& path, const std::vector<std::string>& args) {
  fault::program_starts();
  return run_module(impl_->read_module(path), path, args);
}

Stats VM::stats() const {
  Stats s = impl_->stats;
  s.heap = impl_->heap.stats();
  s.gc = impl_->gc->stats();
  return s;
}

void VM::set_gc_observer(GcObserver* o) { impl_->gc->set_observer(o); }

void VM::set_quantum_hook(std::function<void()> f) { impl_->on_quantum_end = std::move(f); }

}  // namespace dis::vm
