// The interpreter loop, a template over a probe policy (DESIGN decision 5),
// and the protocol a policy follows (the concepts below). ProbeNone costs
// nothing; ProbeTrace implements --trace; the cost tool's Count, Time and
// Sampled policies (probe/cost_probe.h) are inlined policies.
#pragma once

#include <concepts>
#include <cstdint>

#include "runtime.h"

namespace dis::vm {

// ---- The probe protocol: every hook a policy may provide ----
//
// Every policy says whether it is `active`. An inactive one costs nothing.
// An active policy is either a callback policy, whose before() runs ahead
// of each instruction through the loop's shared dispatch, or an inlined
// policy, whose step() is compiled into every handler's own dispatch with
// its per-pc slots and hot state kept in the loop's locals.
template <class P>
concept CallbackProbe = requires(P& probe, Runtime& vm, Prog& p, const Program& prog,
                                 std::int32_t pc) {
  { P::active } -> std::convertible_to<bool>;
  probe.before(vm, p, prog, pc);  // before each instruction, when active
};

// An inlined policy's hooks, in the order the loop meets them.
template <class P>
concept InlinedProbe = requires(P& probe, typename P::Hot& hot, const typename P::Hot& chot,
                                typename P::Slots slots, const Program& prog, const DInst* in,
                                Runtime& vm, Prog& p, std::uint32_t& budget, std::int32_t pc,
                                std::uint64_t executed) {
  requires P::active;
  // At the start of a slice: its hot state; it may cut the budget to a
  // chunk of the slice (chunks below).
  { probe.enter(budget) } -> std::same_as<typename P::Hot>;
  { probe.seen_frame() } -> std::convertible_to<std::int32_t>;  // the frame index it last saw
  { probe.tracks_calls() } -> std::convertible_to<bool>;        // whether frame() is wanted
  // Whenever the running program changes: its per-pc slots.
  { probe.slots(prog, in) } -> std::same_as<typename P::Slots>;
  probe.step(in, in, slots, hot);  // each instruction `in` of code `in`
  // Out of line, when p.cur differs from the frame last seen; `executed`:
  // this call's instructions so far, the current one included.
  probe.frame(vm, p, pc, executed);
  { P::outside(chot) } -> std::convertible_to<std::uint32_t>;           // budget beyond the chunk
  { probe.leave(chot, budget) } -> std::convertible_to<std::uint32_t>;  // at every exit
  { P::chunks } -> std::convertible_to<bool>;
};

// An inlined policy that cuts the slice into chunks: when a chunk is used
// up but not the slice, chunk_end counts `in`, sets the next chunk and
// returns true.
template <class P>
concept ChunkingProbe = InlinedProbe<P> && P::chunks &&
    requires(P& probe, typename P::Hot& hot, const DInst* in, std::uint32_t& budget) {
  { probe.chunk_end(in, in, hot, budget) } -> std::convertible_to<bool>;
};

// An inlined policy that lets fused pairs and triples run fused (any other
// active policy sees every instruction dispatched on its own): can_fuse
// says whether the next `more` instructions may run inside the handler,
// fused_step steps each of them, fused_declined tells of a fused handler
// that ran alone, fused_derived of followers run without a step.
template <class P>
concept FusingProbe = InlinedProbe<P> &&
    requires(P& probe, typename P::Hot& hot, const typename P::Hot& chot, typename P::Slots slots,
             const DInst* in, std::uint32_t more) {
  P::fuses;
  { P::can_fuse(chot, more) } -> std::convertible_to<bool>;
  probe.fused_step(in, slots, hot);
  probe.fused_declined(in, in);
  probe.fused_derived(hot, more);
};

// A policy that can take `n` executions of `in` at once (an array loop's
// iterations run without a step each).
template <class P>
concept BulkProbe = requires(const DInst* in, std::uint64_t n) {
  P::bulk(in, n);
};

// The executions of one pc inside a fused array loop's run.
struct BulkPart {
  const DInst* in;
  std::uint64_t n;
};

// An inlined policy that times an array loop's whole run as one interval
// (the one its step at the loop's head opened): bulk_timed ends it and
// shares it among the run's executions.
template <class P>
concept TimedBulkProbe = InlinedProbe<P> &&
    requires(P& probe, const DInst* code, typename P::Slots slots, const BulkPart* parts,
             std::size_t n) {
  probe.bulk_timed(code, slots, parts, n);
};

template <class P>
concept ProbePolicy = CallbackProbe<P> || InlinedProbe<P>;

struct ProbeNone {
  static constexpr bool active = false;
  void before(Runtime&, Prog&, const Program&, std::int32_t) {}
};

struct ProbeTrace {
  static constexpr bool active = true;
  void before(Runtime& vm, Prog& p, const Program& prog, std::int32_t pc);
};

// Runs up to `left` instructions of p (fewer if it blocks, sleeps, ends or
// breaks), decrementing `left` per instruction. On return p.pc and p.state
// describe where it stopped.
template <ProbePolicy Probe>
void interpret(Runtime& vm, Prog& p, std::uint32_t& left, Probe& probe);

extern template void interpret<ProbeNone>(Runtime&, Prog&, std::uint32_t&, ProbeNone&);
extern template void interpret<ProbeTrace>(Runtime&, Prog&, std::uint32_t&, ProbeTrace&);

// Real to integer conversions as Inferno's interpreter: x + .5 (x - .5 when
// negative) truncated, so halves go away from zero; the x86 result (the
// minimum integer) for NaN and out-of-range values (fp_traps.h traps those).
std::int32_t real_to_int(double x);
std::int64_t real_to_big(double x);

}  // namespace dis::vm
