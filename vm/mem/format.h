// Inferno's print formatting (sys->print, sprint, fprint, aprint) and the
// string/number conversions of the cvt* opcodes, with Inferno's exact rules.
//
// format() follows Inferno's two-stage design: the Dis-side scanner
// (libinterp xprint) collects a conversion up to its verb, taking `*` values
// and the argument from the frame, and the C formatter (lib9 fmt, with
// libmath's float conversion) renders it. Consequences kept on purpose:
// `%x` of a negative int prints `-ff` (only `u` makes it unsigned); `%g`
// without width or precision prints the shortest exact form with no leading
// zero (`.5`, `1e+06`), while `%10g` uses 6 significant digits; the `0` flag
// is ignored for reals and strings; `%q` quotes with '' when the string is
// empty or holds a space, control character or quote (doubling quotes), and
// always with `#`; an unknown letter does not end a conversion (`%z` alone
// prints nothing, `%zd` prints `%z%d` and consumes the int); `%c` prints
// U+FFFD for values beyond U+10FFFF or surrogates; `%bc` prints one byte;
// `%H` prints a pointer's block as "ref.type" (`%d.%.8ux`): Inferno prints
// its type descriptor's address there, this VM the type's index.
// A missing argument reads as 0 / "" (Inferno would read past the frame).
// Width and precision are clamped to kMaxFormatWidth.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace dis::vm {

// The variadic arguments after the format string. The VM implements it
// over the frame: Dis lays them out with natural alignment (int 4,
// big/real 8, string pointer 4), so each next_* call aligns first.
struct FormatArgs {
  virtual ~FormatArgs() = default;
  virtual std::int32_t next_int() = 0;
  virtual std::int64_t next_big() = 0;
  virtual double next_real() = 0;
  virtual std::string next_string() = 0;  // UTF-8, nil -> ""
  // %H (Inferno's debugging verb): a pointer's block, as its reference
  // count and type; nil -> {-1, 0}.
  struct HeapInfo {
    std::int32_t ref = -1;
    std::uint32_t type = 0;
  };
  virtual HeapInfo next_heap() = 0;
  virtual bool exhausted() const = 0;
};

inline constexpr std::int64_t kMaxFormatWidth = 1 << 20;

// fmt_utf8 and every string produced are UTF-8. errstr is what `%r` prints
// (the thread's last system error string).
std::string format(std::string_view fmt_utf8, FormatArgs& args, std::string_view errstr = "");

// cvtcw: C strtol base 10 with 32-bit long: leading white space, optional
// sign, decimal digits up to the first other character; clamps to the int
// range; no digits -> 0.
std::int32_t string_to_int(std::string_view s);
// cvtcl: the same digits, but wrapping modulo 2^64 as Inferno's strtoll.
std::int64_t string_to_big(std::string_view s);
// cvtcf: strtod on the longest decimal prefix ([sign] digits [. digits]
// [e [sign] digits]); nothing valid -> 0 with the sign, so "inf", "nan"
// and "-Inf" are 0, 0 and -0 as in Inferno.
double string_to_real(std::string_view s);
// cvtfc: what `string r` gives, i.e. "%g" with no width or precision.
std::string real_to_string(double r);
// cvtwc / cvtlc: plain decimal.
std::string int_to_string(std::int32_t v);
std::string big_to_string(std::int64_t v);

}  // namespace dis::vm
