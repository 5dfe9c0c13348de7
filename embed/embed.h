// Embedding the Dis VM as Lua is embedded: C++ functions registered from
// their signatures, Limbo source run in one call, exported Limbo functions
// called with C++ arguments, failures as C++ exceptions (docs/embedding.md).
//
//   dis::embed::VM vm;
//   vm.add(dis::embed::Module("$Greet").def("greet", [](std::string s) { ... }));
//   vm.run_string(source);                  // runs init(nil, ["string.b"])
//   dis::embed::Script m = vm.load_string(source);
//   int r = m.call<int>("fib", 20);
//
// Every failure throws dis::embed::Error. A Script must not outlive its VM.
// Calls run on the calling host thread, one at a time per VM, and not from
// inside a registered function.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "embed_error.h"
#include "embed_module.h"
#include "embed_types.h"
#include "vm.h"

namespace dis::embed {

class Script;

class VM {
 public:
  // Without opts.compile set, a `load` of a .b file compiles it.
  explicit VM(vm::Options opts = {});

  // Registers m's functions as the builtin module m.path().
  void add(const Module& m);

  // Compiles Limbo source (named `name` in messages) and runs its
  // init(nil, name :: args) until every thread ends; throws Error when it
  // does not compile or init's thread dies of an exception.
  void run_string(const std::string& source, const std::vector<std::string>& args = {},
                  const std::string& name = "string.b");
  // The same for a file: .b (compiled), .dis or .s.
  void run_file(const std::string& path, const std::vector<std::string>& args = {});

  // Compiles (or reads) a module and instantiates it without running init:
  // its exported functions are then called with Script::call.
  Script load_string(const std::string& source, const std::string& name = "string.b");
  Script load_file(const std::string& path);

  vm::VM& vm() { return vm_; }  // the lower API: options, statistics, hooks

 private:
  friend class Script;
  Script instantiate(dis::Module m, const std::string& path);
  // The heap type of a block shaped as `s` (one per shape and VM).
  std::uint32_t record_type(const Slot& s);
  vm::VM vm_;
  std::map<std::pair<std::uint32_t, std::vector<std::uint32_t>>, std::uint32_t> record_types_;
};

// A module instance the host holds: its module data lives as long as this.
class Script {
 public:
  Script(Script&& o) noexcept;
  Script& operator=(Script&&) = delete;
  Script(const Script&) = delete;
  ~Script();

  // Runs exported function `fn` with `args` on a new thread until every
  // thread ends and returns its result. The Limbo type the arguments and R
  // give (e.g. f(i,s)r) must be the function's; throws Error otherwise, or
  // when the function raises an exception.
  template <class R = void, class... A>
  R call(const std::string& fn, const A&... args);

 private:
  friend class VM;
  Script(VM& vm, std::uint32_t ml) : vm_(&vm), ml_(ml) {}
  // The untyped call: `fill` writes the arguments into the frame, `read`
  // takes the result from a block shaped as `result` (nullptr: none).
  void run(const std::string& fn, const std::string& type,
           const std::function<void(vm::Heap&, std::uint8_t*)>& fill, const Slot* result,
           const std::function<void(vm::Heap&, const std::uint8_t*)>& read);
  VM* vm_;
  std::uint32_t ml_;
};

template <class R, class... A>
R Script::call(const std::string& fn, const A&... args) {
  const std::string type = function_type({Marshal<Plain<A>>::code()...}, result_code<R>());
  const FrameLayout l = frame_layout_of<Plain<A>...>();
  auto fill = [&](vm::Heap& h, std::uint8_t* fp) {
    std::size_t i = 0;
    (Marshal<Plain<A>>::store(h, fp + l.offsets[i++], args), ...);
  };
  if constexpr (std::is_void_v<R>) {
    run(fn, type, fill, nullptr, nullptr);
  } else {
    R r{};
    const Slot shape{Marshal<R>::size, Marshal<R>::align, Marshal<R>::pointers()};
    run(fn, type, fill, &shape,
        [&](vm::Heap& h, const std::uint8_t* at) { r = Marshal<R>::read(h, at); });
    return r;
  }
}

}  // namespace dis::embed
