// The cost tool's probe policies (cost_probe.h) instantiated over the
// interpreter loop; absent from a -DDIS_PROBES=OFF build, which changes only
// this file and cost_probe.cpp, so the plain run's code (interp.cpp) is the
// same in both builds.
#include "cost_probe.h"
#include "interp_loop.inc"

namespace dis::vm {

#if DIS_PROBES
template void interpret<ProbeCount>(Runtime&, Prog&, std::uint32_t&, ProbeCount&);
template void interpret<ProbeTime>(Runtime&, Prog&, std::uint32_t&, ProbeTime&);
template void interpret<ProbeSampled>(Runtime&, Prog&, std::uint32_t&, ProbeSampled&);
template void interpret<ProbeMem>(Runtime&, Prog&, std::uint32_t&, ProbeMem&);
#endif

}  // namespace dis::vm
