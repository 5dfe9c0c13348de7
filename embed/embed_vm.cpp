// The embedding layer's VM and Script (embed.h) over the VM's runtime.
#include <utility>

#include "compiler.h"
#include "diag.h"
#include "embed.h"
#include "runtime.h"

namespace dis::embed {

namespace {

std::string what_of(const std::string& message, const std::string& where) {
  return where.empty() ? message : where + ": " + message;
}

vm::Options with_compiler(vm::Options o) {
  if (!o.compile) o.compile = [](const std::string& path) { return limbo::compile_file(path, {}); };
  return o;
}

void check(const vm::RunResult& r) {
  if (r.status != 0) throw Error(r.message.empty() ? "failed" : r.message, r.where);
}

}  // namespace

Error::Error(std::string message, std::string where)
    : std::runtime_error(what_of(message, where)),
      message_(std::move(message)),
      where_(std::move(where)) {}

VM::VM(vm::Options opts) : vm_(with_compiler(std::move(opts))) {}

void VM::add(const Module& m) { vm_.register_module(m.path(), m.functions()); }

void VM::run_string(const std::string& source, const std::vector<std::string>& args,
                    const std::string& name) {
  dis::Module m;
  try {
    m = limbo::compile_source(name, source, {});
  } catch (const InputError& e) {
    throw Error(e.what());
  }
  std::vector<std::string> argv{name};
  argv.insert(argv.end(), args.begin(), args.end());
  // No path: the program is not found again by a later `load` of `name`.
  check(vm_.run_module(std::move(m), "", argv));
}

void VM::run_file(const std::string& path, const std::vector<std::string>& args) {
  std::vector<std::string> argv{path};
  argv.insert(argv.end(), args.begin(), args.end());
  vm::RunResult r;
  try {
    r = vm_.run_file(path, argv);
  } catch (const InputError& e) {
    throw Error(e.what());
  }
  check(r);
}

Script VM::load_string(const std::string& source, const std::string& name) {
  try {
    return instantiate(limbo::compile_source(name, source, {}), "");
  } catch (const InputError& e) {
    throw Error(e.what());
  }
}

Script VM::load_file(const std::string& path) {
  try {
    return instantiate(vm_.runtime().read_module(path), path);
  } catch (const InputError& e) {
    throw Error(e.what());
  }
}

Script VM::instantiate(dis::Module m, const std::string& path) {
  vm::Runtime& rt = vm_.runtime();
  std::uint32_t ml;
  try {
    ml = rt.instantiate(rt.load_program(std::move(m), path));
  } catch (const vm::VerifyError& e) {
    throw Error(e.msg);
  } catch (const vm::DisError& e) {
    throw Error(e.msg);
  }
  // Held by the host alone between calls: a root for the collector.
  rt.gc->pin(rt.modlink(ml).obj);
  return Script(*this, ml);
}

std::uint32_t VM::record_type(const Slot& s) {
  auto key = std::make_pair(s.size, s.pointers);
  auto it = record_types_.find(key);
  if (it != record_types_.end()) return it->second;
  const std::uint32_t t =
      vm_.heap().add_type(static_cast<std::int32_t>(s.size), pointer_map(s.pointers), "result");
  record_types_.emplace(std::move(key), t);
  return t;
}

Script::Script(Script&& o) noexcept : vm_(std::exchange(o.vm_, nullptr)), ml_(o.ml_) {}

Script::~Script() {
  if (!vm_) return;
  vm::Runtime& rt = vm_->vm_.runtime();
  const vm::Ptr obj = rt.modlink(ml_).obj;
  rt.gc->unpin(obj);
  rt.heap.decref(obj);
}

void Script::run(const std::string& fn, const std::string& type,
                 const std::function<void(vm::Heap&, std::uint8_t*)>& fill, const Slot* shape,
                 const std::function<void(vm::Heap&, const std::uint8_t*)>& read) {
  vm::Runtime& rt = vm_->vm_.runtime();
  vm::Ptr result = vm::H;
  if (shape) {
    try {
      result = rt.heap.new_object(vm_->record_type(*shape));
    } catch (const vm::DisError& e) {
      throw Error(e.msg);
    }
    rt.gc->pin(result);
  }
  // The result block goes however the call ends.
  struct Release {
    vm::Runtime& rt;
    vm::Ptr p;
    ~Release() {
      if (p == vm::H) return;
      rt.gc->unpin(p);
      rt.heap.decref(p);
    }
  } release{rt, result};
  const vm::RunResult r = rt.run_function(
      ml_, fn, type, [&](std::uint8_t* fp) { fill(rt.heap, fp); }, result);
  check(r);
  if (read) read(rt.heap, rt.cage.at(result));
}

}  // namespace dis::embed
