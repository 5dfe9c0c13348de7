// What Inferno's program device (#p) reads and does to other threads,
// behind Call (vm.h): each live thread's status, name space and
// descriptors, and kill.
#include <algorithm>

#include "runtime.h"

namespace dis::vm {

namespace {

std::string state_name(const Prog& p, bool caller) {
  if (caller) return "ready";
  if (!p.killed.empty()) return "exiting";  // killed, its builtin not yet returned
  if (p.released || p.state == ProgState::Sleeping) return "release";
  switch (p.state) {
    case ProgState::Blocked:
      return p.wait_kind == Prog::kWaitSend  ? "send"
             : p.wait_kind == Prog::kWaitAlt ? "alt"
                                             : "recv";
    case ProgState::Done:
      return "exiting";
    default:
      return "ready";
  }
}

ThreadInfo info_of(Runtime& vm, const Prog& p, bool caller) {
  ThreadInfo t;
  t.id = p.id;
  t.group = p.group;
  t.state = state_name(p, caller);
  if (p.ml < vm.modlinks.size() && vm.modlinks[p.ml]) {
    const Modlink& m = vm.modlink(p.ml);
    if (m.prog) {
      t.module = m.prog->mod.name;
      t.bytes += static_cast<std::uint64_t>(std::max(0, m.prog->mod.data_size));
    }
  }
  // In a builtin: the caller, a released thread, or one sleeping in sleep().
  if (caller || p.released || p.state == ProgState::Sleeping) {
    const Modlink* n = p.native_ml < vm.modlinks.size() ? vm.modlinks[p.native_ml].get() : nullptr;
    if (n && n->native) t.module += "[" + n->native->path + "]";
  }
  if (!p.frames.empty()) t.bytes += p.stack_bytes();
  t.cpu_ms = std::max<std::int64_t>(0, p.cpu_ns / 1000000);
  return t;
}

}  // namespace

std::shared_ptr<NameSpace>& Call::name_space() {
  need_interpreter("name_space");
  return prog_.ns;
}

std::uint32_t& Call::group() {
  need_interpreter("group");
  return prog_.group;
}

std::vector<ThreadInfo> Call::threads() {
  need_interpreter("threads");
  std::vector<ThreadInfo> out;
  for (const Prog* p : impl_.live)
    if (p->state != ProgState::Done) out.push_back(info_of(impl_, *p, p == &prog_));
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.id < b.id; });
  return out;
}

namespace {
Prog* live_prog(Runtime& vm, std::uint32_t id) {
  if (id >= vm.progs.size() || !vm.progs[id] || vm.progs[id]->state == ProgState::Done)
    return nullptr;
  return vm.progs[id].get();
}
}  // namespace

bool Call::thread(std::uint32_t id, ThreadInfo& info) {
  need_interpreter("thread");
  Prog* p = live_prog(impl_, id);
  if (p) info = info_of(impl_, *p, p == &prog_);
  return p != nullptr;
}

std::shared_ptr<NameSpace> Call::name_space_of(std::uint32_t id) {
  need_interpreter("name_space_of");
  Prog* p = live_prog(impl_, id);
  return p ? p->ns : nullptr;
}

std::shared_ptr<FdGroup> Call::fd_group_of(std::uint32_t id) {
  need_interpreter("fd_group_of");
  Prog* p = live_prog(impl_, id);
  return p ? p->fds : nullptr;
}

bool Call::kill_requested() const { return prog_.kill_flag.load(std::memory_order_acquire); }

bool Call::kill_thread(std::uint32_t id, bool whole_group) {
  need_interpreter("kill_thread");
  Prog* t = live_prog(impl_, id);
  if (!t) {
    set_error_string("thread exited");
    return false;
  }
  std::vector<Prog*> victims;
  if (whole_group) {
    for (Prog* p : impl_.live)
      if (p->group == t->group && p->state != ProgState::Done) victims.push_back(p);
  } else {
    victims.push_back(t);
  }
  bool self = false;
  for (Prog* p : victims) {
    // The caller, or a thread another kernel process runs a builtin for,
    // ends when its builtin returns; the others are in no slice: now.
    if (p == &prog_ || p->released) {
      p->killed = "killed";
      p->kill_flag.store(true, std::memory_order_release);
      self = self || p == &prog_;
      continue;
    }
    p->exit_status = "killed";
    impl_.end_prog(*p);
  }
  if (self) raise("killed");
  return true;
}

}  // namespace dis::vm
