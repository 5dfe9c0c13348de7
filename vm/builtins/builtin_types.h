// The builtin modules' function tables as data ($Sys, $Math, $Bench and
// those of builtin_types_crypto.h), as
// Inferno's compiler prints them with `limbo -t Mod` (DIS-FACTS section 11):
// per function its canonical type string, signature, frame size and
// pointer map. The VM registers builtins from these rows; the Limbo compiler
// can cross-check its own signatures and frames against them.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

namespace dis::vm {

struct BuiltinFunc {
  std::string_view name;       // as declared in the .m file
  std::string_view canonical;  // canonical type string (type_sig input)
  std::uint32_t sig;           // type_sig(canonical)
  std::int32_t frame_size;     // bytes; 0 for varargs functions (caller frames)
  std::uint8_t np;             // bytes of map in use (0..3)
  std::uint8_t map[3];         // pointer map: bit 0x80>>(w%8) of byte w/8
};

struct BuiltinModule {
  std::string_view path;               // "$Sys", "$Math", "$Bench"
  std::span<const BuiltinFunc> funcs;  // sorted byte-wise by name
};

// All the builtin modules: $Sys, $Math, $Bench, then $Keyring, $Crypt,
// $IPints and $Loader (builtin_types_crypto.h).
std::span<const BuiltinModule> builtin_modules();

// The module with this path, or nullptr.
const BuiltinModule* find_builtin_module(std::string_view path);

// The function `name` of module `path` ("$Sys"), or nullptr.
const BuiltinFunc* find_builtin(std::string_view path, std::string_view name);

}  // namespace dis::vm
