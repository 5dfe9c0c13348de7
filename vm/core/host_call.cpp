// The host calls an exported function of a loaded module (runtime.h's
// run_function): the embedding layer's call<>() rests on it.
#include <cstdio>

#include "log.h"
#include "runtime.h"
#include "signature.h"

namespace dis::vm {

namespace {

std::string hex(std::uint32_t sig) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%x", sig);
  return buf;
}

// Ends a thread that never ran, its record with it (an init thread's stays).
void drop(Runtime& rt, Prog& p) {
  const std::uint32_t id = p.id;
  rt.end_prog(p);
  rt.progs[id].reset();
}

}  // namespace

RunResult Runtime::run_function(std::uint32_t mli, const std::string& name, const std::string& type,
                                const std::function<void(std::uint8_t*)>& fill, Ptr result) {
  RunResult res;
  res.status = 1;
  Modlink& ml = modlink(mli);
  if (!ml.prog) {
    res.message = "cannot call " + name + ": not a Dis module";
    return res;
  }
  const Export* e = nullptr;
  for (const Export* x : ml.prog->exports)
    if (x->name == name) e = x;
  if (!e || e->pc < 0 || e->frame_type == kTypeNone) {
    res.message = ml.prog->mod.name + " has no function " + name;
    return res;
  }
  if (const std::uint32_t sig = type_sig(type); e->sig != sig) {
    res.message = ml.prog->mod.name + "->" + name + "(): called as " + type + " (signature " +
                  hex(sig) + "), the module's signature is " + hex(e->sig);
    return res;
  }
  // This run's outcome only: an earlier run's failure is not this one's.
  main_broken = false;
  first_error.clear();
  first_error_where.clear();
  halted = false;
  Prog* p = nullptr;
  try {
    p = &spawn_prog(mli, e->frame_type, e->pc, true);
    std::uint8_t* fp = cage.at(p->frames[0].fp);
    st<Ptr>(fp + 16, result);
    fill(fp);
  } catch (const DisError& failure) {
    // The frame's references (those `fill` stored) go with the thread.
    if (p) drop(*this, *p);
    res.message = failure.msg;
    return res;
  } catch (...) {
    if (p) drop(*this, *p);
    throw;
  }
  const std::uint32_t id = p->id;
  log_debug("sched", "host calls {}->{} on thread {}", ml.prog->mod.name, name, id);
  schedule();
  out->flush();
  if (!halted && progs[id]->state != ProgState::Done) {
    res.message = "deadlock";
    *err << name << ": deadlock: no thread can run\n";
    return res;
  }
  // The record run_init keeps for its caller: this one's caller is done.
  if (progs[id]->state == ProgState::Done) progs[id].reset();
  res.status = main_broken ? 1 : 0;
  res.message = first_error;
  res.where = first_error_where;
  return res;
}

}  // namespace dis::vm
