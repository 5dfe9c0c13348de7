// The stream base (cost --base stream): what the timing probe adds to each
// executed instruction inside the real interpreter loop, measured before the
// run on small synthetic Dis instruction streams (Limbo compiled in memory,
// nothing read from disk), each run both plain and under the probe in this
// process: each stream's (raw timed ticks - plain ticks) per instruction,
// the median over rounds that alternate the two, and one base per cost
// class, per fused kind and per builtin call (what the timed view's wrapper
// leaves in an mcall) fitted to all the streams by least squares (more
// streams than unknowns, so the residual says how well the model fits). Unlike the
// empty-measurement bases (min, median, mean) it includes how the clock read overlaps real work: an
// unfenced read hides a short instruction, a fenced one serialises it.
// Nothing about the program being costed enters it.
#pragma once

#include <cstdint>

#include "cost_probe.h"

namespace dis::cost {

// Calibrates base.stream_* (vm/timer.h) for the probe as the run will use
// it: `mode` Time, or Sampled (timing every instruction, as a sampled
// execution is timed), and the shadow call stack on or off (`calls`: its
// bookkeeping at calls and returns perturbs the instructions around it).
// Takes about 0.5 s. Sets glibc to keep freed memory for reuse, for the
// rest of the process (stream_base.cpp says why).
void calibrate_stream_base(vm::Base& base, vm::ProbeMode mode, bool calls);

}  // namespace dis::cost
