// The public embedding API of the Dis VM.
//
//   dis::vm::VM vm({.heap_limit = 64 << 20});
//   vm.register_module("$Hello", {{"greet", "f(s)s", 0, 40, {0x0, 0x80}, fn}});
//   RunResult r = vm.run_file("prog.dis", {"prog.dis", "arg"});
//
// A VM owns one cage (all Dis memory), the loaded programs, the threads and
// the builtin modules. run_*() runs `init(nil, args)` of a module until the
// program ends (DESIGN Conventions: status 0, or 1 after an uncaught
// exception in init's thread, a deadlock or a verifier refusal; a spawned
// thread's death is reported on err, as Inferno, and leaves the status 0). The builtins $Sys, $Math
// and $Bench are registered by the constructor (vm/vm_init.cpp) through this same API.
//
// Kernel processes (kproc.h): Dis threads are run by host threads, one of
// which holds the interpreter at a time. A blocking builtin releases it
// (Call::blocking, or NativeFunction::blocking for the whole function) so
// other Dis threads, or idle garbage collection, run while it waits.
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
#include "fd_group.h"
#include "gc.h"
#include "heap.h"
#include "module.h"
#include "name_space.h"

namespace dis::vm {

// Idle garbage collection (DIS-FACTS 6-7): what the interpreter does when no
// Dis thread is ready, up to three epochs per idle episode.
enum class IdleGc : std::uint8_t {
  Old,    // stops only when a kernel process wants the interpreter or a thread
          // becomes ready (the behaviour the perform paper diagnosed)
  Fixed,  // also yields the processor after each step (the paper's fix)
};
// "old", "fixed" -> policy; false for anything else.
bool parse_idle_gc(const std::string& name, IdleGc& policy);

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
  // Inferno), and the debug mode that verifies the heap: 0 never, 1 after
  // every step, N after every Nth step, every epoch's end, every full
  // collection and the program's end (gc.h, "Verification").
  GcMode gc = GcMode::Dis;
  std::uint32_t gc_quanta = 0;
  std::uint32_t gc_verify = 0;
  IdleGc idle_gc = IdleGc::Fixed;
  // >0: the VM constructor confines the whole process to this many of the
  // processors it may use (sched_setaffinity); InputError when there are fewer.
  unsigned cpus = 0;
};

struct Stats {
  std::uint64_t instructions = 0;
  std::uint64_t threads = 0;   // threads created, init's included
  std::uint64_t slices = 0;    // scheduler quanta run
  std::uint64_t releases = 0;  // times a blocking builtin released the interpreter
  std::uint64_t kprocs = 0;    // host threads started to run the interpreter meanwhile
  HeapStats heap;
  GcStats gc;
};

struct RunResult {
  int status = 0;       // 0 success, 1 failure (uncaught exception, deadlock, refusal)
  std::string message;  // the uncaught exception's text or the refusal, if any
  std::string where;    // where the exception was raised ("prog.b:12"), if one was
};

class VM;
class Runtime;
struct Prog;

// A Dis thread as Inferno's /prog/N/status shows it.
struct ThreadInfo {
  std::uint32_t id = 0;     // its pid is one more
  std::uint32_t group = 0;  // its process group: a pid
  std::string state;        // Inferno's: alt, send, recv, ready, release
  std::string module;       // its module's name, then "[$Sys]" while in a builtin
  std::uint64_t bytes = 0;  // its frames and its module's data
  std::int64_t cpu_ms = 0;  // host time its slices took
};

// What a builtin function sees: its frame (arguments from offset 32, the
// result pointer at 16) and the VM. Pointers returned by new_*() carry one
// reference that ret_ptr()/store_ptr() take over.
class Call {
 public:
  Call(Runtime& impl, Prog& prog, Ptr frame) : impl_(impl), prog_(prog), frame_(frame) {}

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
  // Flushes the VM's standard output (Dis fd 1), e.g. before a read waits.
  void flush_output();

  // The error string `%r` prints: Sys->werrstr sets it, and a builtin that
  // fails sets it (from errno, say) for the caller to print.
  const std::string& error_string() const;
  void set_error_string(std::string s);
  // The host file a Dis path names (under Options::root when absolute).
  std::string host_path(const std::string& dis_path) const;
  // The calling thread's floating-point modes in math.m's bits: the control
  // word (trap enables, rounding) and the sticky status. As Math->FPcontrol
  // and FPstatus: the bits of `mask` take r's values; returns the old word
  // (mask 0 only reads it).
  std::uint32_t fp_control(std::uint32_t r = 0, std::uint32_t mask = 0);
  std::uint32_t fp_status(std::uint32_t r = 0, std::uint32_t mask = 0);
  // Records IEEE exceptions (math.m's bits) a builtin's arithmetic raised,
  // and raises "sys: fp: exception" when the control word traps one.
  void fp_raised(std::uint32_t bits);
  // The calling Dis thread's id, from 0 (Sys->pctl's pid is one more).
  std::uint32_t thread_id() const;
  // /prog/N/wait of the thread with id t (prog_wait.h): open_wait starts
  // collecting its children's exits (false: no such thread); read_wait
  // returns the next line, waiting for it with the interpreter released.
  bool open_wait(std::uint32_t t);
  std::string read_wait(std::uint32_t t);
  // The calling thread's descriptor table (fd_group.h); Sys->pctl replaces it.
  std::shared_ptr<FdGroup>& fd_group();
  // Its name space (name_space.h) and process group, which pctl replaces.
  std::shared_ptr<NameSpace>& name_space();
  std::uint32_t& group();
  // The live threads, by id; one of them (false: no such thread). Another
  // thread's name space or descriptors: nullptr when it has ended.
  std::vector<ThreadInfo> threads();
  bool thread(std::uint32_t id, ThreadInfo& info);
  std::shared_ptr<NameSpace> name_space_of(std::uint32_t id);
  std::shared_ptr<FdGroup> fd_group_of(std::uint32_t id);
  // Inferno's kill (or killgrp: every thread of its group): a thread ends
  // now with status "killed", or when its blocking builtin returns; false
  // with the error string set when it has ended. When the caller is one of
  // them, it raises "killed", which no handler catches, after the others.
  bool kill_thread(std::uint32_t id, bool whole_group);
  // A kill waits for this thread's blocking builtin: one that can stop
  // early (a sleep) polls this, also with the interpreter released.
  bool kill_requested() const;
  // Dis threads now waiting in blocking builtins, each holding a host thread.
  std::uint32_t released_threads() const;
  // The VM's collector: halt()/resume() it, or full_collect(false) when a
  // host resource its garbage may hold (descriptors) runs out.
  Collector& collector();

  // Runs `work` with the interpreter released (Inferno's release(); work;
  // acquire()): meanwhile other kernel processes run other Dis threads or
  // idle GC, and this Dis thread is neither runnable nor deadlocked. `work`
  // must not touch Dis memory nor call this Call's methods; store any new
  // heap pointer in Dis memory (the frame, the result) before. Afterwards
  // the thread continues its own instruction stream. Exceptions from `work`
  // propagate after the interpreter is taken back.
  void blocking(const std::function<void()>& work);
  // True inside a NativeFunction::blocking function (interpreter released).
  bool released() const { return released_; }

  // The internals behind the call, for the VM's own layers (the probes);
  // builtins use the methods above.
  Runtime& runtime() { return impl_; }
  Prog& prog() { return prog_; }

 private:
  void need_interpreter(const char* what) const;  // throws std::logic_error when released
  void run_released(const std::function<void(Call&)>& work);
  friend class Runtime;
  Runtime& impl_;
  Prog& prog_;
  Ptr frame_;
  bool released_ = false;
};

using NativeFn = std::function<void(Call&)>;

struct NativeFunction {
  std::string name;       // "print", "Adt.fn"
  std::string type;       // canonical type string; hashed when sig == 0
  std::uint32_t sig = 0;  // signature; computed from `type` when 0
  std::int32_t frame_size = 32;
  std::vector<std::uint8_t> map;  // frame pointer map
  NativeFn fn;
  // True: fn blocks on the host (I/O, a host event) and runs with the
  // interpreter released, as if wrapped whole in Call::blocking(). It may use
  // only arg_int/arg_big/arg_real, ret_int/ret_big/ret_real and raise (which
  // touch nothing but its own thread's frames); the heap, strings and
  // output need the interpreter (std::logic_error): for those, call
  // Call::blocking() around the waiting part of a normal builtin instead.
  bool blocking = false;
};

class VM {
 public:
  explicit VM(Options opts = {});
  ~VM();
  VM(const VM&) = delete;
  VM& operator=(const VM&) = delete;

  // Adds a builtin module loadable as `path` (e.g. "$Hello").
  void register_module(const std::string& path, std::vector<NativeFunction> fns);
  // The heap, e.g. to add the types a builtin module's objects have.
  Heap& heap();

  // Runs init(nil, args) of the module; args[0] is conventionally its path.
  // Throws InputError for an unreadable or malformed file.
  RunResult run_file(const std::string& path, const std::vector<std::string>& args);
  RunResult run_module(Module m, const std::string& path, const std::vector<std::string>& args);

  Stats stats() const;
  // Times collector events (nullptr: none); the observer must outlive the VM's runs.
  void set_gc_observer(GcObserver* o);
  // Called after every scheduler quantum, on the host thread that holds the
  // interpreter, with no Dis code running (empty: none): host work between
  // slices. It must not touch Dis memory.
  void set_quantum_hook(std::function<void()> f);
  Runtime& runtime() { return *impl_; }

 private:
  std::unique_ptr<Runtime> impl_;
};

// Reads a module from .dis (with the .sbl beside it, if any) or assembles .s.
Module read_module_file(const std::string& path);

}  // namespace dis::vm
