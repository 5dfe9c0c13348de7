// The public embedding API of the Dis VM.
//
//   dis::vm::VM vm({.heap_limit = 64 << 20});
//   vm.register_module("$Hello", {{"greet", "f(s)s", 0, 40, {0x0, 0x80}, fn}});
//   RunResult r = vm.run_file("prog.dis", {"prog.dis", "arg"});
//
// A VM owns one cage (all Dis memory), the loaded programs, the threads and
// the builtin modules. run_*() runs `init(nil, args)` of a module until the
// program ends (DESIGN Conventions: status 0, or 1 after an uncaught
// exception, a deadlock or a verifier refusal). The builtins $Sys, $Math and
// $Bench are registered by the constructor through this same API.
#pragma once

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "arrays_lists.h"
#include "dis_string.h"
#include "gc.h"
#include "heap.h"
#include "module.h"

namespace dis::vm {

struct Options {
  std::uint64_t heap_limit = 1ull << 30;    // bytes of live heap objects
  std::uint64_t stack_limit = 64ull << 20;  // bytes of frames per thread
  std::uint64_t max_instructions = 0;       // 0: unlimited
  std::ostream* out = nullptr;              // Dis stdout (fd 1); nullptr: host stdout
  std::ostream* err = nullptr;              // Dis stderr (fd 2) and diagnostics
  bool trace = false;                       // print each executed instruction on err
  std::uint64_t trace_limit = 0;            // 0: unlimited
  std::string root;                         // host directory for absolute Dis paths
  // Compiles a Limbo source (.b) to a Module; set by tools that link the
  // Limbo front end. Without it a .b file is refused as unreadable input.
  std::function<Module(const std::string& path)> compile;
  // Memory management (gc.h): mode, a fixed step budget (0: adaptive as in
  // Inferno), and the debug mode that verifies the heap after every step.
  GcMode gc = GcMode::Dis;
  std::uint32_t gc_quanta = 0;
  bool gc_verify = false;
};

struct Stats {
  std::uint64_t instructions = 0;
  std::uint64_t threads = 0;  // threads created, init's included
  std::uint64_t slices = 0;   // scheduler quanta run
  HeapStats heap;
  GcStats gc;
};

struct RunResult {
  int status = 0;       // 0 success, 1 failure (uncaught exception, deadlock, refusal)
  std::string message;  // the uncaught exception's text or the refusal, if any
};

class VM;
class Impl;
struct Prog;

// What a builtin function sees: its frame (arguments from offset 32, the
// result pointer at 16) and the VM. Pointers returned by new_*() carry one
// reference that ret_ptr()/store_ptr() take over.
class Call {
 public:
  Call(Impl& impl, Prog& prog, Ptr frame) : impl_(impl), prog_(prog), frame_(frame) {}

  Heap& heap();
  std::uint8_t* frame();  // host address of the frame
  Ptr frame_ptr() const { return frame_; }
  std::int32_t arg_int(std::uint32_t off);
  std::int64_t arg_big(std::uint32_t off);
  double arg_real(std::uint32_t off);
  Ptr arg_ptr(std::uint32_t off);
  std::string arg_string(std::uint32_t off);  // UTF-8; "" for nil

  // Host address of the result (or of field `off` of a tuple result);
  // nullptr when the caller discards the result.
  std::uint8_t* result(std::uint32_t off = 0);
  void ret_int(std::int32_t v);
  void ret_big(std::int64_t v);
  void ret_real(double v);
  void ret_ptr(Ptr owned, std::uint32_t off = 0);  // takes the reference
  void ret_string(std::string_view utf8);

  Ptr new_string(std::string_view utf8);
  [[noreturn]] void raise(const std::string& msg);
  // Writes to a Dis file descriptor (1 and 2 go to the VM's streams).
  std::int64_t write_fd(int fd, const void* p, std::size_t n);
  // Suspends the calling thread for ms milliseconds after the builtin returns.
  void sleep_ms(std::int64_t ms);

  Impl& impl() { return impl_; }
  Prog& prog() { return prog_; }

 private:
  Impl& impl_;
  Prog& prog_;
  Ptr frame_;
};

using NativeFn = std::function<void(Call&)>;

struct NativeFunction {
  std::string name;       // "print", "Adt.fn"
  std::string type;       // canonical type string; hashed when sig == 0
  std::uint32_t sig = 0;  // signature; computed from `type` when 0
  std::int32_t frame_size = 32;
  std::vector<std::uint8_t> map;  // frame pointer map
  NativeFn fn;
};

class VM {
 public:
  explicit VM(Options opts = {});
  ~VM();
  VM(const VM&) = delete;
  VM& operator=(const VM&) = delete;

  // Adds a builtin module loadable as `path` (e.g. "$Hello").
  void register_module(const std::string& path, std::vector<NativeFunction> fns);

  // Runs init(nil, args) of the module; args[0] is conventionally its path.
  // Throws InputError for an unreadable or malformed file.
  RunResult run_file(const std::string& path, const std::vector<std::string>& args);
  RunResult run_module(Module m, const std::string& path, const std::vector<std::string>& args);

  Stats stats() const;
  // Times collector events (nullptr: none); the observer must outlive the VM's runs.
  void set_gc_observer(GcObserver* o);
  Impl& impl() { return *impl_; }

 private:
  std::unique_ptr<Impl> impl_;
};

// Reads a module from .dis (with the .sbl beside it, if any) or assembles .s.
Module read_module_file(const std::string& path);

}  // namespace dis::vm
