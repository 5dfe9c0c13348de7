// The runtime: the state of one VM (its cage, heap, collector, programs,
// module instances, threads, channels and kernel processes) and what the
// loader, interpreter, scheduler and exceptions do to it. Behind the
// embedding API (vm.h: VM owns one); the probes reach in, the builtins
// never do. Its layout may change.
#pragma once

#include <algorithm>
#include <atomic>
#include <boost/container/flat_map.hpp>
#include <chrono>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "decode.h"
#include "fp_traps.h"
#include "heap_verify.h"
#include "kproc.h"
#include "prog_wait.h"
#include "vm.h"
#include "wait_queue.h"

namespace dis::vm {

// One export of a program or a builtin module.
struct Export {
  std::string name;
  std::uint32_t sig = 0;
  std::int32_t pc = -1;
  std::uint32_t frame_type = kTypeNone;  // global type index
  const NativeFunction* native = nullptr;
};

struct NativeModule {
  std::string path;
  std::vector<NativeFunction> fns;
  std::vector<Export> exports;
};

// A module instance (Dis's Modlink): code shared, module data its own.
struct Modlink {
  Program* prog = nullptr;  // nullptr for a builtin module
  NativeModule* native = nullptr;
  Ptr mp = H;
  Ptr obj = H;                       // the heap object Dis code holds
  std::vector<const Export*> links;  // resolved import table
  bool live = false;
};

// 32 bytes, so indexing the frame stack is a shift (every call and ret).
// The caller is the activation that calls (dis.txt: frame(src) = fp), not
// the one that pushed the frame: `call` and mcall write lr and caller.
struct Frame {
  Ptr fp = H;
  std::uint32_t type = kTypeNone;
  std::uint32_t size = 0;
  // A thread's chunk count is bounded (next_chunk): their index fits.
  std::uint16_t chunk = 0;
  // kMcalled, kChunkCheck and kOutermost: a return from this frame takes
  // the slow path.
  std::uint8_t slow = 0;
  std::uint8_t has_ptrs = 0;                   // type has pointer slots to release on pop
  std::uint32_t ml = 0;                        // module running in this frame
  std::uint32_t caller_ml = 0;                 // caller's module
  std::int32_t lr = -1;                        // caller's return pc
  std::int32_t caller = -1;                    // caller's frame index
  static constexpr std::uint8_t kMcalled = 1;  // callee holds a module reference
  // A frame above was pushed in a later stack chunk: when this one is the
  // top again, the current chunk may not be its own.
  static constexpr std::uint8_t kChunkCheck = 2;
  // The thread's first frame (caller -1): its return ends the thread.
  static constexpr std::uint8_t kOutermost = 4;
  void make_outermost() {
    caller = -1;
    slow |= kOutermost;
  }
};
static_assert(sizeof(Frame) == 32);

struct StackChunk {
  Ptr base = H;
  std::uint32_t size = 0;
};

enum class ProgState : std::uint8_t { Ready, Blocked, Sleeping, Done };

struct Prog {
  std::uint32_t id = 0;
  ProgState state = ProgState::Ready;
  bool is_init = false;
  bool pending_sleep = false;
  std::int32_t pc = 0;
  std::uint32_t ml = 0;
  std::vector<Frame> frames;
  std::int32_t cur = -1;         // current frame index
  std::uint32_t live_index = 0;  // in Runtime::live
  std::vector<StackChunk> chunks;
  std::uint32_t chunk_cur = 0;
  Ptr sp = H;                   // next free byte in chunks[chunk_cur]
  std::uint64_t stack_end = 0;  // end of chunks[chunk_cur] (0: no chunk yet)
  // A push of `size` bytes takes the fast path while sp + size <= sp_limit:
  // the chunk's end and the stack limit in one compare. Set with the chunk
  // (Runtime::set_stack); the frame vector's capacity is then enough for
  // every frame the chunk can hold (next_chunk), so no other check.
  std::uint64_t sp_limit = 0;
  // The frame bytes in use are sp + stack_bias (mod 2^64): within a chunk
  // sp moves by the frame sizes, so push and pop write only sp.
  std::uint64_t stack_bias = 0 - std::uint64_t{H};
  std::uint64_t stack_bytes() const { return sp + stack_bias; }
  std::uint64_t block_gen = 0;  // validates channel waiters
  Ptr alt_dst = H;              // where a blocked alt stores the index of the case that ran
  Ptr scratch = H;              // 16 cage bytes holding the value of a `send $imm`
  std::chrono::steady_clock::time_point wake;
  std::int64_t sleep_ms = 0;
  FpState fp;                          // Math->FPcontrol modes and status (fp_traps.h)
  std::uint32_t parent = 0xFFFFFFFFu;  // the spawning thread's id (none for init)
  std::string exit_status;             // the exception that ended it, if any
  std::shared_ptr<FdGroup> fds;        // its descriptor table (fd_group.h)
  std::shared_ptr<NameSpace> ns;       // its name space (name_space.h)
  std::uint32_t group = 0;             // its process group: a pid (Sys->pctl NEWPGRP)
  // What /prog/N/status shows: a Blocked thread's wait (kWait*), whether
  // it is released in a builtin, the builtin module it called last, and
  // the host time its slices took.
  std::uint8_t wait_kind = 0;
  bool released = false;
  std::uint32_t native_ml = 0;
  std::int64_t cpu_ns = 0;  // less the time released
  // Set when a kill found it released in a builtin: it ends on return;
  // kill_flag tells the builtin meanwhile (Call::kill_requested).
  std::string killed;
  std::atomic<bool> kill_flag{false};
  static constexpr std::uint8_t kWaitSend = 1, kWaitRecv = 2, kWaitAlt = 3;
};

struct Waiter {
  std::uint32_t prog = 0;
  std::uint64_t gen = 0;
  Ptr addr = H;
  std::int32_t alt_index = -1;
  // An alt receiving from an array of channels (Inferno's alt.c): the
  // element's index, stored in the word before addr when the value arrives.
  std::int32_t elem_index = -1;
};

struct Channel {
  std::uint32_t elemtype = kTypeNone;
  std::uint32_t size = 0;
  std::uint32_t cap = 0;  // buffer capacity, 0 unbuffered
  bool has_ptrs = false;  // the element type holds pointers
  std::deque<std::vector<std::uint8_t>> buf;
  WaitQueue<Waiter> sendq, recvq;
  bool live = false;
};

// Runs a scheduler slice under a probe policy (the cost tool's recorder,
// cost_probe.h); without one, run_slice uses ProbeNone or ProbeTrace.
struct SliceRunner {
  virtual ~SliceRunner() = default;
  virtual std::uint32_t run_slice(Runtime& vm, Prog& p, std::uint32_t budget) = 0;
  // A builtin of p's running slice releases the interpreter (kproc.h): other
  // slices may run before resume_slice(p) continues this one.
  virtual void suspend_slice(Runtime&, Prog&) {}
  virtual void resume_slice(Runtime&, Prog&) {}
};

class Runtime : public HeapHooks {
 public:
  explicit Runtime(Options opts);
  ~Runtime() override;

  // What the interpreter, the scheduler's kernel processes and the probes
  // reach directly; everything else is behind the functions below.
  Options opts;
  Cage cage;
  Heap heap;
  std::ostream* out;
  std::ostream* err;
  std::vector<std::unique_ptr<NativeModule>> natives;
  std::map<std::string, std::unique_ptr<Program>> programs;  // by path
  std::vector<std::unique_ptr<Modlink>> modlinks;
  std::vector<std::unique_ptr<Prog>> progs;  // index = id; null once ended
  // The threads not yet ended, in no order: what the collector's roots and
  // the idle scheduler walk, however many threads ran before.
  std::vector<Prog*> live;
  std::deque<std::uint32_t> runq;
  // init's thread died of an uncaught exception, or a limit cut the run short
  bool main_broken = false;
  std::string first_error;  // the first such exception's message
  // Where it was raised: the pc in its module and position() there (the
  // cost tool's reports and the embedding layer's errors record them).
  std::int32_t first_error_pc = -1;
  std::string first_error_where;
  Stats stats;
  std::uint64_t trace_count = 0;  // instructions --trace printed
  bool halted = false;            // instruction limit reached
  // A thread ran out of memory: a full collection runs at the end of its
  // slice, before its handler (garbage may be what filled the heap).
  bool collect_now = false;
  std::unique_ptr<Collector> gc;   // declared after the heap: destroyed before it
  std::unique_ptr<Kprocs> kprocs;  // who holds the interpreter (kproc.h)
  WaitQueues waits;                // /prog/N/wait (prog_wait.h)

  // HeapHooks (runtime.cpp)
  void free_channel(std::uint32_t index) override;
  void free_module(std::uint32_t index) override;
  void visit_roots(RootVisitor& v) override;
  bool module_data(std::uint32_t index, Ptr& mp) override;
  bool channel_items(
      std::uint32_t index,
      const std::function<void(std::uint32_t elemtype, const std::uint8_t* item)>& f) override;

  // Loading (loader.cpp).
  Module read_module(const std::string& host_path);  // .dis (+.sbl), .s, or .b via opts.compile
  Program& load_program(Module m, const std::string& path);  // verifies; throws VerifyError
  Program* find_or_read_program(const std::string& path);    // nullptr + last_load_error
  std::uint32_t instantiate(Program& p);                     // new Modlink with fresh MP
  std::uint32_t instantiate_native(NativeModule& n);
  // The module for `load path, $table` by the running module; H on failure,
  // with the reason in the error string (%r).
  Ptr load_module(const std::string& path, std::uint32_t importer_ml, std::int32_t table);
  std::string host_path(const std::string& dis_path) const;
  Modlink& modlink(std::uint32_t i) { return *modlinks[i]; }
  // The modlink index behind a module pointer; raises "module not loaded".
  std::uint32_t module_of(Ptr p);

  // Threads and frames (scheduler.cpp). spawn_prog makes a thread running
  // module ml from pc, its first frame of `type` pushed (pointer slots H),
  // and queues it; out of memory raises with no thread made. A thread's
  // stack starts as one small chunk (init's is a full one) and grows on
  // demand; when it ends (end_prog) its record goes too, but for init's.
  Prog& spawn_prog(std::uint32_t ml, std::uint32_t type, std::int32_t pc, bool init = false);
  inline Ptr push_frame(Prog& p, std::uint32_t type);  // raises stack overflow
  // push_frame with the type's rounded frame size and pointer flag known
  // (decode precomputes them for `frame`; see frame_size()).
  inline Ptr push_frame_sized(Prog& p, std::uint32_t type, std::uint32_t size, bool ptrs) {
    return push_frame_at(cage.base(), p, type, size, ptrs);
  }
  // push_frame_sized with the cage's base given: the interpreter's own copy,
  // so its `frame` needs no load through the Runtime.
  inline Ptr push_frame_at(std::uint8_t* base, Prog& p, std::uint32_t type, std::uint32_t size,
                           bool ptrs);
  // push_frame_sized when the frame is over the stack limit (raises) or
  // needs a new stack chunk.
  [[gnu::noinline]] Ptr push_frame_slow(Prog& p, std::uint32_t type, std::uint32_t size, bool ptrs);
  inline void pop_frames_to(Prog& p, std::int32_t keep);  // releases frames above `keep`
  // A thread's end (exit, an uncaught exception, a kill): every frame
  // popped, and p.ml set back to the module the thread started in, whose
  // reference end_prog drops (inside an mcall the current module is the
  // callee's, whose reference its frame held and popping drops).
  inline void unwind_all(Prog& p);
  inline void pop_frame(Prog& p);  // releases the top frame (ret)
  void next_chunk(Prog& p, std::uint32_t size);
  // Ends thread p (its frames released, its stack freed); p is gone after,
  // unless it is init's.
  void end_prog(Prog& p);
  // Makes `chunk` current with `sp` its next free byte and `bytes` of
  // frames in use (the stack's total, all chunks).
  void set_stack(Prog& p, std::uint32_t chunk, Ptr sp, std::uint64_t bytes) {
    p.chunk_cur = chunk;
    p.stack_end = std::uint64_t{p.chunks[chunk].base} + p.chunks[chunk].size;
    p.sp = sp;
    p.stack_bias = bytes - sp;
    // Saturating: an embedder's limit near 2^64 would wrap sp + room below
    // sp, and every push would then take the slow path and retry forever.
    const std::uint64_t room = opts.stack_limit > bytes ? opts.stack_limit - bytes : 0;
    p.sp_limit = room >= p.stack_end - sp ? p.stack_end : sp + room;
  }
  // Pops the top frame's bytes (its record still there).
  void pop_stack(Prog& p, const Frame& fr) {
    if (fr.chunk != p.chunk_cur)
      set_stack(p, fr.chunk, fr.fp, p.stack_bytes() - fr.size);
    else
      p.sp = fr.fp;
  }
  RunResult run_init(std::uint32_t ml, const std::vector<std::string>& args);
  // The host calls one exported function (host_call.cpp): runs `name` of
  // module instance ml on a new thread until every thread has ended, as
  // run_init runs init. `fill` writes the arguments into the new frame (its
  // pointer slots H; it stores owned references); the function stores its
  // result at `result` (H: none), which the caller keeps reachable. A name
  // not exported, or exported with a type other than `type` (its canonical
  // string, as f(i)s), fails
  // with no thread run.
  RunResult run_function(std::uint32_t ml, const std::string& name, const std::string& type,
                         const std::function<void(std::uint8_t* frame)>& fill, Ptr result);
  void schedule();  // kproc.cpp: runs the kernel processes until the program is over
  void wake(Prog& p) {
    p.state = ProgState::Ready;
    ++p.block_gen;
    runq.push_back(p.id);
  }
  // Hooks for the collector and probes.
  std::function<void()> on_quantum_end;
  std::function<void()> on_idle;
  SliceRunner* slice_runner = nullptr;

  // Channels (scheduler.cpp). Return true when the op completed, false when
  // the thread must block (state set accordingly).
  Ptr new_channel(std::uint32_t elemtype, std::uint32_t size, std::int32_t cap);
  Channel& channel_of(Ptr c);
  bool chan_send(Prog& p, Ptr c, Ptr src);
  bool chan_recv(Prog& p, Ptr c, Ptr dst);
  bool chan_alt(Prog& p, Ptr table, Ptr dst, bool nonblocking);

  // Exceptions (exceptions.cpp). Finds a handler for the prog's current pc;
  // true if one took it (prog resumes there), false if the thread broke.
  bool handle_exception(Prog& p, const std::string& msg, Ptr value);
  std::string position(std::uint32_t ml, std::int32_t pc) const;  // "file.b:LINE" or "mod: pc N"
  // Records msg at p's pc as first_error unless an earlier one is kept.
  void note_first_error(const Prog& p, const std::string& msg);

  // Runs up to `budget` instructions of p; returns how many ran.
  std::uint32_t run_slice(Prog& p, std::uint32_t budget);
  std::uint32_t plain_type(std::uint32_t size);  // pointer-free type of `size` bytes

  // Builtins.
  void register_native(const std::string& path, std::vector<NativeFunction> fns);
  std::int64_t write_fd(int fd, const void* data, std::size_t n);

 private:
  friend class Call;                      // the error string
  std::uint32_t new_modlink(Ptr mp = H);  // its object's word 0 is mp (heap.h)
  // load_module without setting the error string.
  Ptr link_module(const std::string& path, std::uint32_t importer_ml, std::int32_t table);
  Prog& new_prog(std::uint32_t ml);  // not queued
  std::vector<std::uint32_t> free_modlinks;
  std::vector<Channel> channels;
  std::vector<std::uint32_t> free_channels;
  // plain_type's, by size: a handful of sizes, searched at each cons or channel
  boost::container::flat_map<std::uint32_t, std::uint32_t> plain_types;
  std::uint32_t init_prog = 0;
  std::string last_load_error;  // why find_or_read_program failed
  std::string errstr;           // what %r prints (Call::error_string)
};

// verify_heap (heap_verify.h) of the VM's heap, its roots and its
// collector's sweeper colour.
HeapVerifyResult verify_heap(Runtime& vm, bool check_counts);

// Raised by the verifier and the loader: "module: pc N: reason".
struct VerifyError {
  std::string msg;
};

// The frame push and pop of every call: kept inline for the interpreter.
// Both are on the path of every call: forced inline, the rare cases (a new
// stack chunk, an overflow) out of line.
// The bytes a frame of a type with `size` data bytes takes on the stack.
constexpr std::uint32_t frame_size(std::uint32_t size) { return size < 32 ? 32 : (size + 7) & ~7u; }

// The hot path makes no call (the slow cases, a new stack chunk or a full
// frame vector, go out of line first), so nothing it computes has to
// survive a call: the interpreter's registers stay put.
[[gnu::always_inline]] inline Ptr Runtime::push_frame_at(std::uint8_t* base, Prog& p,
                                                         std::uint32_t type, std::uint32_t size,
                                                         bool ptrs) {
  const Ptr f = p.sp;
  if (std::uint64_t{f} + size > p.sp_limit) [[unlikely]]
    return push_frame_slow(p, type, size, ptrs);
  p.sp = f + size;
  std::uint8_t* d = base + f;
  if (ptrs) heap.init_record(d, type);
  st<std::int32_t>(d, -1);
  st<Ptr>(d + 4, H);
  st<Ptr>(d + 8, H);
  st<std::uint32_t>(d + 12, type);
  st<Ptr>(d + 16, H);
  Frame fr;
  fr.fp = f;
  fr.type = type;
  fr.size = size;
  // The running module for both: `call` keeps them (see CALL_FRAME).
  fr.ml = p.ml;
  fr.caller_ml = p.ml;
  fr.chunk = static_cast<std::uint16_t>(p.chunk_cur);
  fr.has_ptrs = ptrs;
  // Guaranteed by sp_limit (see Prog): push_back's growing path (a call) is
  // dead code here.
  if (p.frames.size() == p.frames.capacity()) __builtin_unreachable();
  p.frames.push_back(fr);
  return f;
}

inline Ptr Runtime::push_frame(Prog& p, std::uint32_t type) {
  const TypeInfo& t = heap.type(type);
  return push_frame_sized(p, type, frame_size(t.size), !t.ptrs.empty());
}

inline void Runtime::unwind_all(Prog& p) {
  if (!p.frames.empty()) p.ml = p.frames.front().ml;
  pop_frames_to(p, -1);
}

[[gnu::always_inline]] inline void Runtime::pop_frame(Prog& p) {
  const Frame fr = p.frames.back();
  pop_stack(p, fr);
  p.frames.pop_back();
  if (fr.has_ptrs) heap.release_record(cage.at(fr.fp), fr.type);
  if (fr.slow & Frame::kMcalled) [[unlikely]]
    heap.decref(modlink(fr.ml).obj);
}

void Runtime::pop_frames_to(Prog& p, std::int32_t keep) {
  while (static_cast<std::int32_t>(p.frames.size()) - 1 > keep) {
    const Frame fr = p.frames.back();
    p.frames.pop_back();
    pop_stack(p, fr);
    heap.release_record(cage.at(fr.fp), fr.type);
    if (fr.slow & Frame::kMcalled) heap.decref(modlink(fr.ml).obj);
  }
}

}  // namespace dis::vm
