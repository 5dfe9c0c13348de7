// The builtin modules every VM starts with (vm.h): $Sys, $Math and $Bench.
// The VM's constructor registers them; each replaces a module of its path.
#pragma once

namespace dis::vm {

class Impl;

void register_sys(Impl& vm);
void register_math(Impl& vm);
void register_bench(Impl& vm);

}  // namespace dis::vm
