// Internal: folding of constant conversions the way Inferno's compiler folds
// them, which differs from the VM's run-time conversions (DIS-FACTS; the
// difftest corpus's r_nan_const).
#pragma once

#include <cstdint>
#include <string>

namespace dis::limbo {

// `int "s"`: the decimal prefix read into 64 bits (wrapping) and cut to 32,
// so "2147483648" is -2147483648 (at run time cvtcw clamps instead).
std::int32_t fold_string_to_int(const std::string& s);
// `big "s"`: the decimal prefix wrapping modulo 2^64.
std::int64_t fold_string_to_big(const std::string& s);
// `real "s"`: the longest decimal prefix ([sign] digits [. digits] [e [sign]
// digits]); no digits gives 0 with the sign, so "inf" is 0 and "-Inf" -0.
double fold_string_to_real(const std::string& s);
// A folded real operation's result: a NaN is Inferno's 0x7fffffffffffffff
// (printed "NaN"), not the host's negative default NaN.
double fold_real_result(double r);

}  // namespace dis::limbo
