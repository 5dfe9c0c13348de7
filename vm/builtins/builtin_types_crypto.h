// The rows of the cryptographic builtin modules and $Loader (see
// builtin_types.h for a row's fields); builtin_modules() lists them.
#pragma once

#include "builtin_types.h"

namespace dis::vm {

std::span<const BuiltinFunc> keyring_rows();
std::span<const BuiltinFunc> crypt_rows();
std::span<const BuiltinFunc> ipints_rows();
std::span<const BuiltinFunc> loader_rows();

}  // namespace dis::vm
