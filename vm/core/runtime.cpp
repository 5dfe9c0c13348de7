// The runtime's construction, its frame stack's slow path, and builtin
// module registration (runtime.h).
#include "runtime.h"

#include <unistd.h>

#include <iostream>

#include "signature.h"

namespace dis::vm {

Runtime::Runtime(Options o)
    : opts(std::move(o)),
      heap(cage, opts.heap_limit),
      out(opts.out ? opts.out : &std::cout),
      err(opts.err ? opts.err : &std::cerr) {
  if (opts.cpus) confine_to_cpus(opts.cpus);
  heap.set_hooks(this);
  gc = std::make_unique<Collector>(heap, *this, opts.gc, opts.gc_quanta, opts.gc_verify);
  kprocs = std::make_unique<Kprocs>(*this);
}

Runtime::~Runtime() { heap.set_hooks(nullptr); }

Ptr Runtime::push_frame_slow(Prog& p, std::uint32_t type, std::uint32_t size, bool ptrs) {
  if (p.stack_bytes() + size > opts.stack_limit) raise_error("stack overflow");
  if (std::uint64_t{p.sp} + size > p.stack_end) {
    // The frame below is left for a new chunk: returning to it may need
    // the chunk switched back.
    if (!p.frames.empty()) p.frames.back().slow |= Frame::kChunkCheck;
    next_chunk(p, size);
  }
  return push_frame_sized(p, type, size, ptrs);
}

std::uint32_t Runtime::plain_type(std::uint32_t size) {
  auto it = plain_types.find(size);
  if (it != plain_types.end()) return it->second;
  std::uint32_t t = heap.add_type(static_cast<std::int32_t>(size), {}, "block");
  plain_types[size] = t;
  return t;
}

void Runtime::register_native(const std::string& path, std::vector<NativeFunction> fns) {
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

std::int64_t Runtime::write_fd(int fd, const void* data, std::size_t n) {
  if (fd == 1 || fd == 2) {
    std::ostream& os = fd == 1 ? *out : *err;
    os.write(static_cast<const char*>(data), static_cast<std::streamsize>(n));
    if (fd == 2) os.flush();
    return os ? static_cast<std::int64_t>(n) : -1;
  }
  return ::write(fd, data, n);
}

// The root set: every live thread's module and frames (gc.h, heap_verify.h).
void Runtime::visit_roots(RootVisitor& v) {
  auto module_obj = [&](std::uint32_t ml) {
    return ml < modlinks.size() && modlinks[ml] && modlinks[ml]->live ? modlinks[ml]->obj : H;
  };
  for (Prog* pp : live) {
    if (pp->state == ProgState::Done) continue;
    Prog& p = *pp;
    v.thread(p.id, module_obj(p.ml));
    for (std::size_t i = 0; i < p.frames.size(); ++i) {
      const Frame& fr = p.frames[i];
      v.frame(i, fr.fp, fr.type, fr.size, module_obj(fr.ml));
    }
  }
}

bool Runtime::module_data(std::uint32_t index, Ptr& mp) {
  if (index >= modlinks.size() || !modlinks[index] || !modlinks[index]->live) return false;
  mp = modlinks[index]->mp;
  return true;
}

bool Runtime::channel_items(
    std::uint32_t index,
    const std::function<void(std::uint32_t elemtype, const std::uint8_t* item)>& f) {
  if (index >= channels.size() || !channels[index].live) return false;
  const Channel& ch = channels[index];
  for (auto& item : ch.buf) f(ch.elemtype, item.data());
  return true;
}

HeapVerifyResult verify_heap(Runtime& vm, bool check_counts) {
  return verify_heap(vm.heap, vm, vm.gc ? vm.gc->sweeper() : 0xFF, check_counts);
}

}  // namespace dis::vm
