// The interpreter loop, a template over a probe policy (DESIGN decision 5).
// A probe has `static constexpr bool active` and, when active,
// `void before(Impl&, Prog&, const Program&, std::int32_t pc)` called before
// each instruction. ProbeNone costs nothing; ProbeTrace implements --trace.
// The cost tool adds Count/Time policies and instantiates interpret<> with them.
#pragma once

#include "runtime.h"

namespace dis::vm {

struct ProbeNone {
  static constexpr bool active = false;
  void before(Impl&, Prog&, const Program&, std::int32_t) {}
};

struct ProbeTrace {
  static constexpr bool active = true;
  void before(Impl& vm, Prog& p, const Program& prog, std::int32_t pc);
};

// Runs up to `left` instructions of p (fewer if it blocks, sleeps, ends or
// breaks), decrementing `left` per instruction. On return p.pc and p.state
// describe where it stopped.
template <class Probe>
void interpret(Impl& vm, Prog& p, std::uint32_t& left, Probe& probe);

extern template void interpret<ProbeNone>(Impl&, Prog&, std::uint32_t&, ProbeNone&);
extern template void interpret<ProbeTrace>(Impl&, Prog&, std::uint32_t&, ProbeTrace&);

// Real to integer conversions: halves away from zero; the x86 result
// (the minimum integer) for NaN and out-of-range values.
std::int32_t real_to_int(double x);
std::int64_t real_to_big(double x);

}  // namespace dis::vm
