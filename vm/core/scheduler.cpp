// Threads (progs), their stacks of frames, and channels with send, recv and
// alt. The round-robin scheduler with its 2048-instruction quantum is in
// kproc.cpp (every kernel process runs it).
#include <algorithm>
#include <boost/container/small_vector.hpp>
#include <cstring>
#include <new>

#include "arrays_lists.h"
#include "interp.h"
#include "log.h"
#include "runtime.h"

namespace dis::vm {

namespace {
// Stack chunks: init's first one and the largest a thread grows to (a
// bigger frame gets a chunk of its own size); a spawned thread starts with
// room for its first frame and a small call or two, so a blocked thread
// costs little more than its frame, and each further chunk doubles.
constexpr std::uint32_t kChunkSize = 64 * 1024;
constexpr std::uint32_t kFirstChunk = 256;

std::uint32_t chunk_size(const Prog& p, std::uint32_t frame) {
  std::uint32_t want = kChunkSize;
  if (p.chunks.empty())
    want = p.is_init ? kChunkSize : kFirstChunk;
  else
    want = std::min(kChunkSize, 2 * p.chunks.back().size);
  return std::max(want, 2 * frame + 16);
}
}  // namespace

Prog& Runtime::new_prog(std::uint32_t ml) {
  auto p = std::make_unique<Prog>();
  p->id = static_cast<std::uint32_t>(progs.size());
  p->ml = ml;
  // Grown first (geometrically), so the push below cannot fail.
  if (live.size() == live.capacity()) live.reserve(2 * live.size() + 16);
  progs.push_back(std::move(p));
  Prog& np = *progs.back();
  np.live_index = static_cast<std::uint32_t>(live.size());
  live.push_back(&np);
  heap.incref(modlink(ml).obj);
  return np;
}

Prog& Runtime::spawn_prog(std::uint32_t ml, std::uint32_t type, std::int32_t pc, bool init) {
  Prog& p = new_prog(ml);
  p.is_init = init;
  if (init) {
    p.fds = FdGroup::standard();
    p.ns = std::make_shared<NameSpace>();
    p.group = p.id + 1;
  }
  try {
    push_frame(p, type);
  } catch (...) {
    // Nothing refers to the new thread yet: it goes, and its id with it.
    end_prog(p);
    progs.pop_back();
    throw;
  }
  p.cur = 0;
  p.frames[0].make_outermost();
  p.pc = pc;
  runq.push_back(p.id);
  stats.threads++;
  log_debug("sched", "thread {} starts", p.id);
  return p;
}

void Runtime::next_chunk(Prog& p, std::uint32_t size) {
  // Reuse the next spare chunk if big enough, else allocate one.
  std::uint32_t next = p.chunks.empty() ? 0 : p.chunk_cur + 1;
  if (next < p.chunks.size() && p.chunks[next].size < size) {
    for (std::size_t i = next; i < p.chunks.size(); ++i) heap.free_stack(p.chunks[i].base);
    p.chunks.resize(next);
  }
  if (next >= p.chunks.size()) {
    // Frame::chunk is 16 bits; the cage would be full long before.
    if (next > 0xFFFF) raise_error("stack overflow");
    const std::uint32_t csize = chunk_size(p, size);
    // Every frame takes at least 32 bytes: with room for as many records as
    // the chunk can hold frames, the push's fast path needs no capacity
    // check (frames in earlier chunks stay put while this one is in use).
    // The host vectors grow first, so a failure leaves the stack as it was.
    p.frames.reserve(p.frames.size() + csize / 32);
    p.chunks.reserve(p.chunks.size() + 1);
    p.chunks.push_back({heap.alloc_stack(csize), csize});
  }
  p.frames.reserve(p.frames.size() + p.chunks[next].size / 32);
  set_stack(p, next, p.chunks[next].base, p.stack_bytes());
}

void Runtime::end_prog(Prog& p) {
  log_debug("sched", "thread {} ends", p.id);
  unwind_all(p);
  for (StackChunk& c : p.chunks) heap.free_stack(c.base);
  std::vector<StackChunk>().swap(p.chunks);
  std::vector<Frame>().swap(p.frames);
  p.stack_end = 0;
  p.sp_limit = 0;
  if (p.scratch != H) heap.free_stack(p.scratch);
  p.scratch = H;
  p.state = ProgState::Done;
  // Its descriptors go now (an init thread's record stays): a pipe's reader
  // sees end of file once its writers have ended.
  p.fds.reset();
  p.ns.reset();
  waits.close(p.id);
  if (p.parent != 0xFFFFFFFFu) {
    const Modlink* m = p.ml < modlinks.size() ? modlinks[p.ml].get() : nullptr;
    std::string name = m && m->prog ? m->prog->mod.name : "";
    // Pids are ids + 1, as Sys->pctl gives them.
    waits.post(p.parent, std::to_string(p.id + 1) + " \"" + name + "\":" + p.exit_status);
  }
  if (p.ml < modlinks.size() && modlinks[p.ml] && modlinks[p.ml]->live)
    heap.decref(modlink(p.ml).obj);
  live[p.live_index] = live.back();
  live[p.live_index]->live_index = p.live_index;
  live.pop_back();
  // A channel's waiters name it by id: they find no thread (first_valid).
  if (!p.is_init) progs[p.id].reset();
}

std::uint32_t Runtime::run_slice(Prog& p, std::uint32_t budget) {
  if (slice_runner) return slice_runner->run_slice(*this, p, budget);
  std::uint32_t left = budget;
  if (opts.trace) {
    ProbeTrace probe;
    interpret(*this, p, left, probe);
  } else {
    ProbeNone probe;
    interpret(*this, p, left, probe);
  }
  return budget - left;
}

RunResult Runtime::run_init(std::uint32_t mli, const std::vector<std::string>& args) {
  RunResult res;
  Program& prog = *modlink(mli).prog;
  std::int32_t pc = prog.mod.entry_pc;
  std::int32_t type = prog.mod.entry_type;
  if (pc < 0) {
    for (const Link& l : prog.mod.links)
      if (l.name == "init") pc = l.pc, type = l.frame_type;
  }
  if (pc < 0 || type < 0) {
    res.status = 1;
    // The file first: "main" alone (an assembly file's default name) says
    // nothing of which file lacks one.
    res.message = (prog.path.empty() ? "" : prog.path + ": ") + prog.mod.name + ": no entry point";
    *err << res.message << "\n";
    return res;
  }
  try {
    Prog& p = spawn_prog(mli, prog.types[type], pc, true);
    init_prog = p.id;
    Ptr f = p.frames[0].fp;
    Ptr list =
        list_of_new(heap, args.size(), [&](std::size_t i) { return str_from_utf8(heap, args[i]); });
    std::uint8_t* fd = cage.at(f);
    if (heap.type(prog.types[type]).size >= 40) {
      st<Ptr>(fd + 32, H);
      heap.decref(ld<Ptr>(fd + 36));
      st<Ptr>(fd + 36, list);
    } else {
      heap.decref(list);
    }
  } catch (const DisError& e) {
    res.status = 1;
    res.message = e.msg;
    *err << prog.mod.name << ": " << e.msg << "\n";
    return res;
  }
  schedule();
  Prog& ip = *progs[init_prog];
  if (!halted && ip.state != ProgState::Done) {
    *err << prog.mod.name << ": deadlock: no thread can run\n";
    log_warn("sched", "{}: deadlock: every thread is blocked", prog.mod.name);
    res.status = 1;
    res.message = "deadlock";
    return res;
  }
  // As Inferno's shell: the program failed when its main thread did; a
  // spawned thread's death is reported but not the program's status.
  res.status = main_broken ? 1 : 0;
  res.message = first_error;
  res.where = first_error_where;
  return res;
}

// ---- channels ----

namespace {
// What one buffered item holds on the host, charged against the heap limit.
std::uint64_t buffered_bytes(const Channel& ch) {
  return ch.size + sizeof(std::vector<std::uint8_t>);
}
}  // namespace

Ptr Runtime::new_channel(std::uint32_t elemtype, std::uint32_t size, std::int32_t cap) {
  if (cap < 0) raise_error("negative array size");
  // Every host allocation before the block is made: one that fails after
  // it left a channel block counted once and referenced nowhere (the fault
  // sweep's verifier found it: a new Channel's containers allocate).
  if (free_channels.empty()) {
    channels.emplace_back();
    try {
      free_channels.push_back(static_cast<std::uint32_t>(channels.size() - 1));
    } catch (...) {
      channels.pop_back();
      throw;
    }
  }
  const std::uint32_t idx = free_channels.back();
  Ptr c = heap.alloc(kTypeChannel, 4);  // a failure leaves the slot free
  free_channels.pop_back();
  st<std::uint32_t>(cage.at(c), idx);
  // Empty: new, or emptied by free_channel.
  Channel& ch = channels[idx];
  ch.elemtype = elemtype;
  ch.has_ptrs = !heap.type(elemtype).ptrs.empty();
  ch.size = size;
  ch.cap = static_cast<std::uint32_t>(cap);
  ch.live = true;
  return c;
}

void Runtime::free_channel(std::uint32_t idx) {
  if (idx >= channels.size() || !channels[idx].live) return;
  Channel& ch = channels[idx];
  // Released in place: moving the buffer out would allocate (a deque's move
  // makes the source a new map), and a free cannot fail. Nothing a release
  // reaches can touch this buffer: the channel is no longer live.
  ch.live = false;
  ch.sendq.clear();
  ch.recvq.clear();
  heap.uncharge(ch.buf.size() * buffered_bytes(ch));
  for (auto& item : ch.buf)
    for (std::uint32_t off : heap.type(ch.elemtype).ptrs) heap.decref(ld<Ptr>(item.data() + off));
  ch.buf.clear();
  try {
    free_channels.push_back(idx);
  } catch (const std::bad_alloc&) {
    // A free cannot fail: without room on the list the slot is not reused.
  }
}

// Inline here, its only callers: every channel operation passes (a thread
// switch on a channel does twice). A block of the channel type, which only
// new_channel makes, so the type test covers checked_header's type range.
inline Channel& Runtime::channel_of(Ptr c) {
  if (!heap.could_be_block(c)) [[unlikely]]
    raise_error("dereference of nil");
  const BlockHeader* h = heap.header(c);
  if (h->magic != kLive || h->type != kTypeChannel) [[unlikely]]
    raise_error("dereference of nil");
  const std::uint32_t idx = ld<std::uint32_t>(cage.at(c));
  if (idx >= channels.size() || !channels[idx].live) [[unlikely]]
    raise_error("dereference of nil");
  return channels[idx];
}

namespace {

// The first waiter whose thread still waits for it; stale ones are dropped.
// Inline, as deliver: both run on every thread switch on a channel.
[[gnu::always_inline]] inline Waiter* first_valid(Runtime& vm, WaitQueue<Waiter>& q) {
  while (!q.empty()) {
    Waiter& w = q.front();
    const Prog* p = vm.progs[w.prog].get();
    if (p && p->state == ProgState::Blocked && p->block_gen == w.gen) return &w;
    q.pop_front();
  }
  return nullptr;
}

// Copies one element, taking references for the stored pointers and
// releasing the ones overwritten.
// A word or a big (the common elements) is copied in place, not through a
// call to memmove.
[[gnu::always_inline]] inline void deliver(Runtime& vm, const Channel& ch, std::uint8_t* dst,
                                           const std::uint8_t* src) {
  if (ch.has_ptrs)
    vm.heap.copy_record(dst, src, ch.elemtype);
  else if (ch.size == 4)
    st<std::uint32_t>(dst, ld<std::uint32_t>(src));
  else if (ch.size == 8)
    st<std::uint64_t>(dst, ld<std::uint64_t>(src));
  else
    std::memmove(dst, src, ch.size);
}

void complete(Runtime& vm, const Waiter& w) {
  Prog& p = *vm.progs[w.prog];
  if (w.elem_index >= 0) st<std::int32_t>(vm.cage.at(w.addr - 4), w.elem_index);
  if (w.alt_index >= 0) st<std::int32_t>(vm.cage.at(p.alt_dst), w.alt_index);
  vm.wake(p);
}

void block(Prog& p, std::uint8_t kind) {
  p.state = ProgState::Blocked;
  p.wait_kind = kind;
  ++p.block_gen;
}

}  // namespace

bool Runtime::chan_send(Prog& p, Ptr c, Ptr src) {
  Channel& ch = channel_of(c);
  if (Waiter* w = first_valid(*this, ch.recvq)) {
    Waiter r = *w;
    ch.recvq.pop_front();
    deliver(*this, ch, cage.at(r.addr), cage.at(src));
    complete(*this, r);
    return true;
  }
  if (ch.buf.size() < ch.cap) {
    // Charged first and counted before the references are taken: a
    // failure changes nothing.
    heap.charge(buffered_bytes(ch));
    try {
      std::vector<std::uint8_t> item(cage.at(src), cage.at(src) + ch.size);
      ch.buf.push_back(std::move(item));
    } catch (...) {
      heap.uncharge(buffered_bytes(ch));
      throw;
    }
    for (std::uint32_t off : heap.type(ch.elemtype).ptrs)
      heap.incref(ld<Ptr>(ch.buf.back().data() + off));
    return true;
  }
  block(p, Prog::kWaitSend);
  ch.sendq.push_back({p.id, p.block_gen, src, -1});
  return false;
}

bool Runtime::chan_recv(Prog& p, Ptr c, Ptr dst) {
  Channel& ch = channel_of(c);
  if (!ch.buf.empty()) {
    std::vector<std::uint8_t> item = std::move(ch.buf.front());
    ch.buf.pop_front();
    heap.uncharge(buffered_bytes(ch));
    // The buffered copy's references move into dst.
    std::uint8_t* d = cage.at(dst);
    boost::container::small_vector<Ptr, 8> old;  // as Heap::copy_record
    for (std::uint32_t off : heap.type(ch.elemtype).ptrs) old.push_back(ld<Ptr>(d + off));
    std::memcpy(d, item.data(), ch.size);
    for (Ptr o : old) heap.decref(o);
    if (Waiter* w = first_valid(*this, ch.sendq)) {
      Waiter s = *w;
      ch.sendq.pop_front();
      // The item taken made room: the waiting sender's goes in its place.
      heap.charge(buffered_bytes(ch));
      std::vector<std::uint8_t> in(cage.at(s.addr), cage.at(s.addr) + ch.size);
      for (std::uint32_t off : heap.type(ch.elemtype).ptrs) heap.incref(ld<Ptr>(in.data() + off));
      ch.buf.push_back(std::move(in));
      complete(*this, s);
    }
    return true;
  }
  if (Waiter* w = first_valid(*this, ch.sendq)) {
    Waiter s = *w;
    ch.sendq.pop_front();
    deliver(*this, ch, cage.at(dst), cage.at(s.addr));
    complete(*this, s);
    return true;
  }
  block(p, Prog::kWaitRecv);
  ch.recvq.push_back({p.id, p.block_gen, dst, -1});
  return false;
}

namespace {

// One channel an alt may communicate on: an entry of its table, or, for a
// receive entry naming an array of channels, each element that is not nil.
struct AltCandidate {
  Ptr chan;
  Ptr val;                 // where the value comes from or goes
  std::int32_t index;      // the table entry's index, stored in dst
  std::int32_t elem = -1;  // the array element's index, stored at val - 4
};

// The table's entries expanded as Inferno's alt.c reads them: a receive
// entry may be an array of channels; the element's index goes in the first
// word at the entry's address and the value in the word after it.
boost::container::small_vector<AltCandidate, 8> alt_candidates(Runtime& vm, std::uint8_t* t,
                                                               std::int32_t nsend, std::int32_t n) {
  boost::container::small_vector<AltCandidate, 8> out;
  for (std::int32_t i = 0; i < n; ++i) {
    Ptr c = ld<Ptr>(t + 8 + 8 * i);
    Ptr val = ld<Ptr>(t + 12 + 8 * i);
    if (c == H) raise_error("dereference of nil");
    BlockHeader* h = i >= nsend ? vm.heap.checked_header(c) : nullptr;
    if (!h || vm.heap.type(h->type).kind != TypeKind::Array) {
      out.push_back({c, val, i});
      continue;
    }
    ArrayRef a = array_ref(vm.heap, c);
    for (std::int32_t k = 0; k < a.len; ++k)
      if (Ptr e = ld<Ptr>(vm.cage.at(a.data + 4 * static_cast<std::uint32_t>(k))); e != H)
        out.push_back({e, val + 4, i, k});
  }
  return out;
}

}  // namespace

bool Runtime::chan_alt(Prog& p, Ptr table, Ptr dst, bool nonblocking) {
  std::uint8_t* t = cage.at(table);
  std::int32_t nsend = ld<std::int32_t>(t), nrecv = ld<std::int32_t>(t + 4);
  if (nsend < 0 || nrecv < 0 || nsend + nrecv > 65536 ||
      std::uint64_t{table} + 8 + 8ull * (nsend + nrecv) > Cage::kSize)
    raise_error("array bounds error");
  std::int32_t n = nsend + nrecv;
  auto cands = alt_candidates(*this, t, nsend, n);
  // As Inferno: no channel both sent and received on.
  for (auto& s : cands)
    for (auto& r : cands)
      if (s.index < nsend && r.index >= nsend && s.chan == r.chan)
        raise_error("alt send/recv on same chan");
  for (auto& c : cands) {
    Channel& ch = channel_of(c.chan);
    bool send = c.index < nsend;
    bool ready = send ? (first_valid(*this, ch.recvq) || ch.buf.size() < ch.cap)
                      : (!ch.buf.empty() || first_valid(*this, ch.sendq));
    if (!ready) continue;
    if (c.elem >= 0) st<std::int32_t>(cage.at(c.val - 4), c.elem);
    if (send)
      chan_send(p, c.chan, c.val);
    else
      chan_recv(p, c.chan, c.val);
    st<std::int32_t>(cage.at(dst), c.index);
    return true;
  }
  if (nonblocking) {
    st<std::int32_t>(cage.at(dst), n);
    return true;
  }
  block(p, Prog::kWaitAlt);
  p.alt_dst = dst;
  for (auto& c : cands) {
    Channel& ch = channel_of(c.chan);
    (c.index < nsend ? ch.sendq : ch.recvq).push_back({p.id, p.block_gen, c.val, c.index, c.elem});
  }
  return false;
}

}  // namespace dis::vm
