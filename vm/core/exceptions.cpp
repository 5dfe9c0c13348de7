// Dis exceptions: handler search from the faulting pc outward, frame by
// frame; unwinding; the diagnostic for an uncaught exception.
#include <new>

#include "log.h"
#include "runtime.h"

namespace dis::vm {
namespace {

bool label_matches(const std::string& label, const std::string& name) {
  if (!label.empty() && label.back() == '*')
    return name.compare(0, label.size() - 1, label, 0, label.size() - 1) == 0;
  return label == name;
}

// Inferno reports an integer divide by zero as a host trap ("sys: fp: ...");
// handlers written for that still catch our "zero divide".
bool case_matches(const std::string& label, const std::string& name) {
  if (label_matches(label, name)) return true;
  return name == "zero divide" && label_matches(label, "sys: fp: zero divide");
}

// A handler's first `ne` cases name exception adts (matched exactly, and
// only by an adt); the rest are string patterns (only for strings); the
// wildcard takes either. Returns the case's pc, or -1.
std::int32_t handler_target(const Handler& h, const std::string& msg, bool str) {
  for (std::size_t i = 0; i < h.cases.size(); ++i) {
    const HandlerCase& c = h.cases[i];
    bool adt_case = static_cast<std::int32_t>(i) < h.ne;
    if (adt_case ? !str && c.name == msg : str && case_matches(c.name, msg)) return c.pc;
  }
  return h.wildcard_pc;
}

// The string a handler receives for a run-time error. It may pass the
// heap limit by its few bytes, so that running out of memory can still be
// caught and reported; nil only if the cage itself is full.
Ptr exception_string(Heap& heap, const std::string& msg) {
  struct Restore {
    Heap& h;
    std::uint64_t limit;
    ~Restore() { h.set_limit(limit); }
  } restore{heap, heap.limit()};
  heap.set_limit(~std::uint64_t{0});
  try {
    return str_from_utf8(heap, msg);
  } catch (const DisError&) {
    return H;
  } catch (const std::bad_alloc&) {
    return H;
  }
}

}  // namespace

std::string Runtime::position(std::uint32_t mli, std::int32_t pc) const {
  const Modlink& ml = *modlinks[mli];
  if (!ml.prog) return ml.native ? ml.native->path : "?";
  const Module& m = ml.prog->mod;
  if (pc >= 0 && static_cast<std::size_t>(pc) < m.positions.size()) {
    const SrcPos& sp = m.positions[pc];
    if (sp.file >= 0 && static_cast<std::size_t>(sp.file) < m.source_files.size() && sp.line > 0)
      return m.source_files[sp.file] + ":" + std::to_string(sp.line);
  }
  return m.name + ": pc " + std::to_string(pc);
}

bool Runtime::handle_exception(Prog& p, const std::string& msg, Ptr value) {
  if (!p.killed.empty()) {  // Inferno's kill: no handler runs, nothing printed
    heap.decref(value);
    p.exit_status = p.killed;
    unwind_all(p);
    p.state = ProgState::Done;
    return false;
  }
  std::int32_t fi = p.cur;
  const std::int32_t raised_in = fi;
  std::uint32_t mli = p.ml;
  std::int32_t pc = p.pc;
  BlockHeader* vh = value != H ? heap.checked_header(value) : nullptr;
  bool str = !vh || vh->type == kTypeString;
  while (fi >= 0) {
    Modlink& ml = modlink(mli);
    if (ml.prog) {
      for (const Handler& h : ml.prog->mod.handlers) {
        if (pc < h.pc1 || pc >= h.pc2) continue;
        std::int32_t target = handler_target(h, msg, str);
        if (target < 0) continue;
        pop_frames_to(p, fi);
        p.cur = fi;
        p.ml = mli;
        std::uint8_t* fp = cage.at(p.frames[fi].fp);
        if (h.type >= 0) heap.release_record(fp, ml.prog->types[h.type]);
        Ptr v = value != H ? value : exception_string(heap, msg);
        Ptr old = ld<Ptr>(fp + h.offset);
        st<Ptr>(fp + h.offset, v);
        heap.decref(old);
        p.pc = target;
        return true;
      }
    }
    // As Inferno: an exception adt that neither the raising function nor
    // its caller handles becomes its name, a string, searched again from
    // that caller's handlers on.
    if (!str && fi != raised_in) {
      heap.decref(value);
      value = H;
      str = true;
      continue;
    }
    const Frame& f = p.frames[fi];
    if (f.caller < 0) break;
    pc = f.lr - 1;
    mli = f.caller_ml;
    fi = f.caller;
  }
  heap.decref(value);
  if (msg.rfind("fail:", 0) != 0) *err << position(p.ml, p.pc) << ": " << msg << "\n";
  err->flush();
  if (log_on(LogLevel::Info))
    log_info("sched", "thread {} broken at {}: {}", p.id, position(p.ml, p.pc), msg);
  if (p.is_init) main_broken = true;
  note_first_error(p, msg);
  p.exit_status = msg;
  unwind_all(p);
  p.state = ProgState::Done;
  return false;
}

void Runtime::note_first_error(const Prog& p, const std::string& msg) {
  if (!first_error.empty()) return;
  first_error = msg;
  first_error_pc = p.pc;
  first_error_where = position(p.ml, p.pc);
}

}  // namespace dis::vm
