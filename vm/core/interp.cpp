// The plain interpreter and --trace: instantiations of interpret<> (the loop
// is in interp_loop.inc), and the conversions the handlers share.
#include "interp_loop.inc"

#if defined(DIS_SANITIZE)
#include <sanitizer/asan_interface.h>
#endif

namespace dis::vm {

namespace {

// --trace shows the word at each operand whatever the instruction's width
// and whether the program may read it yet; in the sanitizer build a word
// that reaches into a red zone or a free block is left out rather than
// reported as a fault of the program's.
bool traceable(const std::uint8_t* p) {
#if defined(DIS_SANITIZE)
  return __asan_region_is_poisoned(const_cast<std::uint8_t*>(p), 4) == nullptr;
#else
  (void)p;
  return true;
#endif
}

std::string traced_word(const std::uint8_t* p) {
  return traceable(p) ? "=" + std::to_string(ld<std::int32_t>(p)) : std::string("=?");
}

}  // namespace

std::int32_t real_to_int(double x) {
  std::int32_t v;
  real_to_int_ok(x, v);
  return v;
}

std::int64_t real_to_big(double x) {
  std::int64_t v;
  real_to_big_ok(x, v);
  return v;
}

template void interpret<ProbeNone>(Runtime&, Prog&, std::uint32_t&, ProbeNone&);
template void interpret<ProbeTrace>(Runtime&, Prog&, std::uint32_t&, ProbeTrace&);
// The cost tool's policies are instantiated in interp_probes.cpp.

void ProbeTrace::before(Runtime& vm, Prog& p, const Program& prog, std::int32_t pc) {
  if (vm.opts.trace_limit && vm.trace_count >= vm.opts.trace_limit) return;
  ++vm.trace_count;
  const Instruction& in = prog.mod.code[pc];
  std::string line =
      "[" + std::to_string(p.id) + "] " + prog.mod.name + " pc " + std::to_string(pc);
  if (pc < static_cast<std::int32_t>(prog.mod.positions.size()))
    line += " (line " + std::to_string(prog.mod.positions[pc].line) + ")";
  line += ": ";
  line += op_name(in.op);
  auto opnd = [&](const Operand& o, const char* tag) {
    if (o.mode == AddrMode::None) return;
    std::uint8_t* cage = vm.cage.base();
    std::uint8_t* fp = cage + p.frames[p.cur].fp;
    std::uint8_t* mp = cage + vm.modlink(p.ml).mp;
    std::string v;
    switch (o.mode) {
      case AddrMode::Imm:
        v = "$" + std::to_string(o.a);
        break;
      case AddrMode::Fp:
        v = std::to_string(o.a) + "(fp)" + traced_word(fp + o.a);
        break;
      case AddrMode::Mp:
        v = std::to_string(o.a) + "(mp)" + traced_word(mp + o.a);
        break;
      case AddrMode::IndFp:
      case AddrMode::IndMp: {
        std::uint8_t* b = o.mode == AddrMode::IndFp ? fp : mp;
        Ptr q = ld<Ptr>(b + o.a);
        v = std::to_string(o.b) + "(" + std::to_string(o.a) +
            (o.mode == AddrMode::IndFp ? "(fp))" : "(mp))");
        if (q != H) v += traced_word(cage + static_cast<Ptr>(q + o.b));
        break;
      }
      default:
        break;
    }
    line += std::string(" ") + tag + "=" + v;
  };
  opnd(in.src, "s");
  if (in.mid.mode != MidMode::None) {
    Operand mo;
    mo.mode = in.mid.mode == MidMode::Imm  ? AddrMode::Imm
              : in.mid.mode == MidMode::Fp ? AddrMode::Fp
                                           : AddrMode::Mp;
    mo.a = in.mid.a;
    opnd(mo, "m");
  }
  opnd(in.dst, "d");
  *vm.err << line << "\n";
}

}  // namespace dis::vm
