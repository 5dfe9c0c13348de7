// The builtin modules every VM starts with (vm.h): $Sys, $Math, $Bench,
// $Keyring, $Crypt, $IPints and $Loader,
// written on the embedding API alone. The VM's constructor registers them;
// each replaces a module of its path.
#pragma once

namespace dis::vm {

class VM;

void register_builtins(VM& vm);

}  // namespace dis::vm
