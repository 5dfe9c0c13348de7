#include "format.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>

#include "utf8.h"

namespace dis::vm {
namespace {

// ------------------------------------------------------ conversion specs

enum Flag : unsigned {
  kWidth = 1u << 0,
  kLeft = 1u << 1,
  kPrec = 1u << 2,
  kSharp = 1u << 3,
  kSpace = 1u << 4,
  kSign = 1u << 5,
  kZero = 1u << 6,
  kUnsigned = 1u << 7,
  kShort = 1u << 8,
  kByte = 1u << 9,
  kLong = 1u << 10,
  kVLong = 1u << 11,
  kComma = 1u << 12,
};

struct Spec {
  unsigned flags = 0;
  std::int64_t width = 0;
  std::int64_t prec = 0;
};

// The one value the Dis-side scanner fetched for a conversion.
struct Arg {
  enum Kind { kNone, kInt, kBig, kReal, kString } kind = kNone;
  std::int64_t i = 0;
  double r = 0;
  std::string s;
};

std::int64_t clamp_width(std::int64_t w) {
  return std::clamp<std::int64_t>(w, -kMaxFormatWidth, kMaxFormatWidth);
}

void pad(std::string& out, std::int64_t n) {
  if (n > 0) out.append(static_cast<std::size_t>(std::min(n, kMaxFormatWidth)), ' ');
}

// lib9's copy-with-padding: at most `prec` runes when kPrec is set, padded
// with spaces to the width (counted in runes).
void copy_padded(std::string& out, const Spec& sp, const std::u32string& text) {
  std::int64_t n = static_cast<std::int64_t>(text.size());
  if ((sp.flags & kPrec) && n > sp.prec) n = std::max<std::int64_t>(sp.prec, 0);
  const std::int64_t w = clamp_width(sp.width);
  if (!(sp.flags & kLeft)) pad(out, w - n);
  for (std::int64_t k = 0; k < n; ++k) utf8_append(out, text[static_cast<std::size_t>(k)]);
  if (sp.flags & kLeft) pad(out, w - n);
}

void copy_padded_ascii(std::string& out, const Spec& sp, std::string_view text) {
  copy_padded(out, sp, std::u32string(text.begin(), text.end()));
}

// ---------------------------------------------------------------- integers

// lib9's integer conversion: sign and magnitude unless `u`; precision is a
// minimum digit count; `0` pads with zeros counting sign and prefix; the
// conversion buffer limits digits plus zero padding to 66 characters.
void format_integer(std::string& out, Spec sp, char32_t verb, std::int64_t value) {
  const unsigned fl = sp.flags;
  bool uns = (fl & kUnsigned) != 0;
  std::uint64_t mag = 0;
  bool neg = false;
  std::int64_t v;
  if (verb == 'p') {
    v = static_cast<std::uint32_t>(value);
    uns = true;
    verb = 'x';
  } else if (fl & kVLong) {
    v = value;
  } else if (fl & kByte) {
    v = uns ? static_cast<std::int64_t>(static_cast<std::uint8_t>(value))
            : static_cast<std::int64_t>(static_cast<std::int8_t>(value));
  } else if (fl & kShort) {
    v = uns ? static_cast<std::int64_t>(static_cast<std::uint16_t>(value))
            : static_cast<std::int64_t>(static_cast<std::int16_t>(value));
  } else {  // int and (32-bit) long
    v = uns ? static_cast<std::int64_t>(static_cast<std::uint32_t>(value))
            : static_cast<std::int64_t>(static_cast<std::int32_t>(value));
  }
  if (!uns && v < 0) {
    neg = true;
    mag = 0 - static_cast<std::uint64_t>(v);
  } else {
    mag = static_cast<std::uint64_t>(v);
  }
  unsigned base = 10;
  const char* conv = "0123456789abcdef";
  switch (verb) {
    case 'd':
      base = 10;
      break;
    case 'x':
      base = 16;
      break;
    case 'X':
      base = 16;
      conv = "0123456789ABCDEF";
      break;
    case 'o':
      base = 8;
      break;
    case 'b':
      base = 2;
      break;
    default:
      return;
  }
  constexpr std::size_t kRoom = 66;
  std::string rev;  // built least significant first
  std::int64_t n = 0;
  while (mag) {
    if ((fl & kComma) && n % 4 == 3) {
      rev.push_back(',');
      ++n;
    }
    rev.push_back(conv[mag % base]);
    mag /= base;
    ++n;
  }
  if (n == 0) {
    rev.push_back('0');
    n = 1;
  }
  for (std::int64_t w = sp.prec; n < w && rev.size() < kRoom; ++n) rev.push_back('0');
  if (neg || (fl & (kSign | kSpace))) ++n;
  bool sharp = (fl & kSharp) != 0;
  if (sharp) {
    if (base == 16)
      n += 2;
    else if (base == 8) {
      if (rev.back() == '0')
        sharp = false;
      else
        ++n;
    }
  }
  if ((fl & kZero) && !(fl & kLeft)) {
    for (std::int64_t w = sp.width; n < w && rev.size() < kRoom; ++n) rev.push_back('0');
    sp.width = 0;
  }
  if (sharp) {
    if (base == 16) rev.push_back(static_cast<char>(verb));
    if (base == 16 || base == 8) rev.push_back('0');
  }
  if (neg)
    rev.push_back('-');
  else if (fl & kSign)
    rev.push_back('+');
  else if (fl & kSpace)
    rev.push_back(' ');
  std::reverse(rev.begin(), rev.end());
  sp.flags &= ~kPrec;
  copy_padded_ascii(out, sp, rev);
}

// ------------------------------------------------------------------ reals

// A decimal form of a double as dtoa returns it: value = 0.DIGITS x 10^decpt,
// no trailing zeros; "Infinity"/"NaN" with decpt 9999.
struct Decimal {
  std::string digits;
  int decpt = 0;
  bool neg = false;
  bool special = false;
};

bool special_value(double d, Decimal& r) {
  r.neg = std::signbit(d);
  if (std::isnan(d) || std::isinf(d)) {
    r.digits = std::isnan(d) ? "NaN" : "Infinity";
    r.decpt = 9999;
    r.special = true;
    return true;
  }
  if (d == 0) {
    r.digits = "0";
    r.decpt = 1;
    return true;
  }
  return false;
}

void strip_trailing_zeros(std::string& digits) {
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
}

// Parses to_chars scientific output "d[.ddd]e[+-]xx".
void from_scientific(const char* b, const char* e, Decimal& r) {
  const char* p = b;
  r.digits.clear();
  for (; p < e && *p != 'e'; ++p)
    if (*p != '.') r.digits.push_back(*p);
  int exp = 0;
  if (p < e) {
    ++p;
    bool eneg = false;
    if (p < e && (*p == '+' || *p == '-')) eneg = *p++ == '-';
    std::from_chars(p, e, exp);
    if (eneg) exp = -exp;
  }
  strip_trailing_zeros(r.digits);
  r.decpt = exp + 1;
}

// dtoa mode 0: the shortest digit string that reads back as d.
Decimal shortest_digits(double d) {
  Decimal r;
  if (special_value(d, r)) return r;
  std::array<char, 64> buf;
  auto res = std::to_chars(buf.data(), buf.data() + buf.size(), std::fabs(d),
                           std::chars_format::scientific);
  from_scientific(buf.data(), res.ptr, r);
  return r;
}

// dtoa mode 2: ndigits significant digits, correctly rounded (ties to even).
Decimal significant_digits(double d, int ndigits) {
  Decimal r;
  if (special_value(d, r)) return r;
  std::array<char, 96> buf;
  auto res = std::to_chars(buf.data(), buf.data() + buf.size(), std::fabs(d),
                           std::chars_format::scientific, std::max(ndigits, 1) - 1);
  from_scientific(buf.data(), res.ptr, r);
  return r;
}

// dtoa mode 3: ndigits digits after the decimal point, correctly rounded.
Decimal fixed_digits(double d, int ndigits) {
  Decimal r;
  if (special_value(d, r)) return r;
  std::array<char, 400> buf;  // 309 integer digits + point + 20 decimals
  auto res = std::to_chars(buf.data(), buf.data() + buf.size(), std::fabs(d),
                           std::chars_format::fixed, ndigits);
  int intlen = 0;
  bool seen_point = false;
  for (const char* p = buf.data(); p < res.ptr; ++p) {
    if (*p == '.') {
      seen_point = true;
      continue;
    }
    r.digits.push_back(*p);
    if (!seen_point) ++intlen;
  }
  std::size_t lead = 0;
  while (lead < r.digits.size() && r.digits[lead] == '0') ++lead;
  r.digits.erase(0, lead);
  intlen -= static_cast<int>(lead);
  if (r.digits.empty()) {  // rounds to zero: no digits at all
    r.decpt = -ndigits;
    return r;
  }
  strip_trailing_zeros(r.digits);
  r.decpt = intlen;
  return r;
}

// libmath's g_fmt: shortest digits, exponent form when the point is far
// outside them, no leading "0" before the point.
std::string shortest_g(double d, char echr) {
  const Decimal dec = shortest_digits(d);
  std::string b;
  if (dec.neg) b.push_back('-');
  if (dec.special) return b + dec.digits;
  const std::string& s = dec.digits;
  const int nd = static_cast<int>(s.size());
  int decpt = dec.decpt;
  if (decpt <= -4 || decpt > nd + 5) {
    b.push_back(s[0]);
    if (nd > 1) {
      b.push_back('.');
      b.append(s, 1);
    }
    b.push_back(echr);
    --decpt;
    b.push_back(decpt < 0 ? '-' : '+');
    std::string e = std::to_string(decpt < 0 ? -decpt : decpt);
    if (e.size() < 2) e.insert(0, 1, '0');
    b += e;
  } else if (decpt <= 0) {
    b.push_back('.');
    b.append(static_cast<std::size_t>(-decpt), '0');
    b += s;
  } else {
    for (int i = 0; i < nd; ++i) {
      b.push_back(s[static_cast<std::size_t>(i)]);
      if (i + 1 == decpt && i + 1 < nd) b.push_back('.');
    }
    if (decpt > nd) b.append(static_cast<std::size_t>(decpt - nd), '0');
  }
  return b;
}

// libmath's gfltconv (%e %f %g %G %E): the `0` flag is dropped, only space
// padding.
void format_real(std::string& out, Spec sp, char32_t verb, double d) {
  const unsigned flags = sp.flags;
  int precision = (flags & kPrec) ? static_cast<int>(std::clamp<std::int64_t>(sp.prec, 0, 20)) : 6;
  if (precision > 20) precision = 20;
  char echr = 'e';
  char style = 'f';
  Decimal dec;
  const bool gverb = verb == 'g' || verb == 'G';
  switch (verb) {
    case 'f':
      dec = fixed_digits(d, precision);
      style = 'f';
      break;
    case 'E':
    case 0x00C9:
      echr = 'E';
      [[fallthrough]];
    case 'e':
      dec = significant_digits(d, 1 + precision);
      style = 'e';
      break;
    case 'G':
      echr = 'E';
      [[fallthrough]];
    default:
      if ((flags & (kWidth | kPrec)) == 0) {
        sp.flags &= kWidth | kLeft;
        copy_padded_ascii(out, sp, shortest_g(d, echr));
        return;
      }
      if (precision > 0) {
        dec = significant_digits(d, precision);
      } else {
        dec = shortest_digits(d);
        precision = static_cast<int>(dec.digits.size());
        if (dec.decpt > precision && dec.decpt <= precision + 4) precision = dec.decpt;
      }
      if (dec.decpt >= -3 && dec.decpt <= precision) {
        style = 'f';
        precision -= dec.decpt;
      } else {
        style = 'e';
        --precision;
      }
      break;
  }
  int exponent = dec.decpt;
  if (dec.special) {
    precision = 0;
    exponent = static_cast<int>(dec.digits.size());
    style = 'f';
  }
  const std::string& digits = dec.digits;
  const int ndig = static_cast<int>(digits.size());
  if (gverb && !(flags & kSharp)) {  // knock off trailing zeros
    if (style == 'f') {
      if (precision + exponent > ndig) precision = std::max(ndig - exponent, 0);
    } else if (precision > ndig - 1) {
      precision = ndig - 1;
    }
  }
  auto digit_at = [&](int k) {
    return k >= 0 && k < ndig ? digits[static_cast<std::size_t>(k)] : '0';
  };
  std::string s;
  if (dec.neg)
    s.push_back('-');
  else if (flags & kSign)
    s.push_back('+');
  else if (flags & kSpace)
    s.push_back(' ');
  if (style == 'f') {
    int i = 0;
    for (; i < exponent; ++i) s.push_back(digit_at(i));
    if (i == 0) s.push_back('0');
    if (precision > 0 || (flags & kSharp)) s.push_back('.');
    for (i = 0; i < precision; ++i) s.push_back(digit_at(i + exponent));
  } else {
    s.push_back(digit_at(0));
    if (precision > 0 || (flags & kSharp)) s.push_back('.');
    for (int i = 0; i < precision; ++i) s.push_back(digit_at(i + 1));
    s.push_back(echr);
    s.push_back(exponent <= 0 ? '-' : '+');
    std::string e = std::to_string(exponent <= 0 ? 1 - exponent : exponent - 1);
    if (e.size() < 2) e.insert(0, 1, '0');
    s += e;
  }
  sp.flags &= kWidth | kLeft;
  copy_padded_ascii(out, sp, s);
}

// ---------------------------------------------------------------- strings

// lib9's %q: quoted when `#` is given, the string is empty, or it holds a
// rune <= ' ' or a quote; quotes inside are doubled. Precision is ignored
// and the width of a quoted string counts bytes, not runes.
void format_quoted(std::string& out, Spec sp, const std::string& s) {
  const std::u32string runes = utf8_to_runes(s);
  bool quoted = (sp.flags & kSharp) || runes.empty();
  for (char32_t c : runes)
    if (c <= ' ' || c == '\'') quoted = true;
  std::string body;
  if (quoted) body.push_back('\'');
  for (char32_t c : runes) {
    utf8_append(body, c);
    if (quoted && c == '\'') body.push_back('\'');
  }
  if (quoted) body.push_back('\'');
  if (!quoted) {  // lib9 copies an unquoted string as %s does, width in runes
    sp.flags &= ~kPrec;
    copy_padded(out, sp, runes);
    return;
  }
  const std::int64_t w = clamp_width(sp.width);
  const std::int64_t n = static_cast<std::int64_t>(body.size());
  if (!(sp.flags & kLeft)) pad(out, w - n);
  out += body;
  if (sp.flags & kLeft) pad(out, w - n);
}

// C strings end at NUL: Inferno terminates the Dis string there.
std::string until_nul(const std::string& s) { return s.substr(0, s.find('\0')); }

// ----------------------------------------------------- the lib9 renderer

// The flag bits a flag letter adds (`h` and `l` double to byte and vlong),
// 0 when `r` is not a flag letter but the verb.
unsigned flag_of(char32_t r, unsigned flags) {
  switch (r) {
    case ',':
      return kComma;
    case '-':
      return kLeft;
    case '+':
      return kSign;
    case '#':
      return kSharp;
    case ' ':
      return kSpace;
    case 'u':
      return kUnsigned;
    case 'h':
      return (flags & kShort) ? kShort | kByte : kShort;
    case 'l':
      return (flags & kLong) ? kLong | kVLong : kLong;
    default:
      return 0;
  }
}

// lib9's flag letters and numbers before the verb: sets `sp` and returns
// the verb (0 when the spec ends without one), leaving `i` just after it.
char32_t parse_spec(const std::u32string& spec, std::size_t& i, Spec& sp) {
  while (i < spec.size()) {
    const char32_t r = spec[i++];
    if (r == '.') {
      sp.flags |= kWidth | kPrec;
      continue;
    }
    if (r == '0' && !(sp.flags & kWidth)) {
      sp.flags |= kZero;
      continue;
    }
    if (r >= '0' && r <= '9') {
      std::int64_t num = r - '0';
      while (i < spec.size() && spec[i] >= '0' && spec[i] <= '9') {
        num = std::min<std::int64_t>(num * 10 + (spec[i] - '0'), kMaxFormatWidth * 10);
        ++i;
      }
      if (sp.flags & kWidth) {
        sp.flags |= kPrec;
        sp.prec = num;
      } else {
        sp.flags |= kWidth;
        sp.width = num;
      }
      continue;
    }
    const unsigned flag = flag_of(r, sp.flags);
    if (flag == 0) return r;
    sp.flags |= flag;
  }
  return 0;
}

// %C: an int as one rune.
void format_rune(std::string& out, const Spec& sp, std::int64_t value) {
  copy_padded(out, sp, std::u32string(1, static_cast<char32_t>(static_cast<std::uint32_t>(value))));
}

// %bc: one byte. Returns false when lib9 would fail the call: it cannot copy
// half a rune, so only the leading padding is printed.
bool format_byte(std::string& out, Spec sp, std::int64_t value) {
  const unsigned char byte = static_cast<unsigned char>(value);
  sp.flags &= ~kPrec;
  if (byte < 0x80) {
    copy_padded_ascii(out, sp, std::string(1, static_cast<char>(byte)));
    return true;
  }
  if (!(sp.flags & kLeft)) pad(out, clamp_width(sp.width) - 1);
  return false;
}

// lib9's bad-verb marker "%v%".
void format_bad_verb(std::string& out, Spec sp, char32_t verb) {
  sp.prec = 3;
  copy_padded(out, sp, std::u32string{U'%', verb, U'%'});
}

// Prints `arg` by `verb` when its kind fits the verb (lib9 prints nothing for
// a missing or mistyped argument). Returns false when the call fails.
bool render_verb(std::string& out, const Spec& sp, char32_t verb, const Arg& arg,
                 std::string_view errstr) {
  const bool integral = arg.kind == Arg::kInt || arg.kind == Arg::kBig;
  switch (verb) {
    case 'd':
    case 'o':
    case 'x':
    case 'X':
    case 'b':
    case 'p':
      if (integral) format_integer(out, sp, verb, arg.i);
      return true;
    case 'C':
      if (integral) format_rune(out, sp, arg.i);
      return true;
    case 'c':  // reached only with `b`: %bc
      return !integral || format_byte(out, sp, arg.i);
    case 's':
    case 'S':
      if (arg.kind == Arg::kString) copy_padded(out, sp, utf8_to_runes(until_nul(arg.s)));
      return true;
    case 'q':
    case 'Q':
      if (arg.kind == Arg::kString) format_quoted(out, sp, until_nul(arg.s));
      return true;
    case 'e':
    case 'f':
    case 'g':
    case 'G':
    case 'E':
    case 0x00C9:
      if (arg.kind == Arg::kReal) format_real(out, sp, verb, arg.r);
      return true;
    case 'r':
      copy_padded(out, sp, utf8_to_runes(errstr));
      return true;
    case 'n':  // would store the count through a pointer: nothing printed
      return true;
    default:
      format_bad_verb(out, sp, verb);
      return true;
  }
}

// Renders one conversion the way lib9's dispatcher reads the spec the
// Dis-side scanner built (`spec` starts after the '%'). Text after the verb
// (left when an unknown letter interrupted the spec) is copied literally.
void render_spec(std::string& out, const std::u32string& spec, const Arg& arg,
                 std::string_view errstr) {
  Spec sp;
  std::size_t i = 0;
  const char32_t verb = parse_spec(spec, i, sp);
  if (verb == 0) return;
  sp.prec = std::clamp<std::int64_t>(sp.prec, 0, kMaxFormatWidth);
  if (!render_verb(out, sp, verb, arg, errstr)) return;
  for (; i < spec.size(); ++i) utf8_append(out, spec[i]);
}

// Strips `s` of leading C white space.
std::string_view skip_space(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size() && (s[i] == ' ' || (s[i] >= '\t' && s[i] <= '\r'))) ++i;
  return s.substr(i);
}

template <typename T>
T strtol_clamped(std::string_view s) {
  s = skip_space(s);
  bool neg = false;
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) {
    neg = s[0] == '-';
    s.remove_prefix(1);
  }
  // Accumulate negatively so the most negative value fits.
  T v = 0;
  bool overflow = false;
  for (char c : s) {
    if (c < '0' || c > '9') break;
    const T digit = static_cast<T>(c - '0');
    if (v < (std::numeric_limits<T>::min() + digit) / 10) {
      overflow = true;
      continue;
    }
    v = static_cast<T>(v * 10 - digit);
  }
  if (overflow) return neg ? std::numeric_limits<T>::min() : std::numeric_limits<T>::max();
  if (neg) return v;
  return v == std::numeric_limits<T>::min() ? std::numeric_limits<T>::max() : static_cast<T>(-v);
}

}  // namespace

std::string format(std::string_view fmt_utf8, FormatArgs& args, std::string_view errstr) {
  const std::u32string fmt = utf8_to_runes(fmt_utf8);
  std::string out;
  std::size_t i = 0;
  while (i < fmt.size()) {
    const char32_t c = fmt[i++];
    if (c != '%') {
      utf8_append(out, c);
      continue;
    }
    // The Dis-side scan: collect the spec up to a verb it knows, replacing
    // `*` by the int it takes and `b` by "ll"; other letters stay in the
    // spec. A spec cut off by the end of the format prints nothing.
    std::u32string spec;
    bool big = false;
    while (i < fmt.size()) {
      const char32_t v = fmt[i++];
      if (v == '*') {
        const std::int32_t n = args.exhausted() ? 0 : args.next_int();
        for (char d : std::to_string(n)) spec.push_back(static_cast<char32_t>(d));
        continue;
      }
      if (v == 'b') {
        spec += U"ll";
        big = true;
        continue;
      }
      Arg arg;
      switch (v) {
        case '%':
          out.push_back('%');
          break;
        case 'q':
        case 's':
          arg.kind = Arg::kString;
          if (!args.exhausted()) arg.s = args.next_string();
          spec.push_back(v);
          render_spec(out, spec, arg, errstr);
          break;
        case 'E':
        case 'e':
        case 'f':
        case 'g':
        case 'G':
          arg.kind = Arg::kReal;
          if (!args.exhausted()) arg.r = args.next_real();
          // Inferno renames E to U+00C9 so it cannot clash with a
          // host-installed %E; the output is the same.
          spec.push_back(v == 'E' ? char32_t{0x00C9} : v);
          render_spec(out, spec, arg, errstr);
          break;
        case 'd':
        case 'o':
        case 'x':
        case 'X':
        case 'c':
          if (big) {
            arg.kind = Arg::kBig;
            if (!args.exhausted()) arg.i = args.next_big();
            spec.push_back(v);
          } else {
            arg.kind = Arg::kInt;
            if (!args.exhausted()) arg.i = args.next_int();
            spec.push_back(v == 'c' ? 'C' : v);  // an int %c is always a rune
          }
          render_spec(out, spec, arg, errstr);
          break;
        case 'r':
          out += errstr;
          break;
        case 'H': {  // whatever flags came before, as Inferno's xprint
          FormatArgs::HeapInfo h;
          if (!args.exhausted()) h = args.next_heap();
          char buf[32];
          std::snprintf(buf, sizeof buf, "%d.%.8x", h.ref, h.type);
          out += buf;
          break;
        }
        default:
          spec.push_back(v);
          continue;
      }
      break;
    }
  }
  return out;
}

std::int32_t string_to_int(std::string_view s) { return strtol_clamped<std::int32_t>(s); }

std::int64_t string_to_big(std::string_view s) {
  s = skip_space(s);
  bool neg = false;
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) {
    neg = s[0] == '-';
    s.remove_prefix(1);
  }
  std::uint64_t v = 0;  // wraps, as Inferno's strtoll
  for (char c : s) {
    if (c < '0' || c > '9') break;
    v = v * 10 + static_cast<std::uint64_t>(c - '0');
  }
  return static_cast<std::int64_t>(neg ? 0 - v : v);
}

double string_to_real(std::string_view s) {
  s = skip_space(s);
  std::size_t i = 0;
  bool neg = false;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) neg = s[i++] == '-';
  const std::size_t start = i;
  std::size_t mant_digits = 0;
  while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i, ++mant_digits;
  if (i < s.size() && s[i] == '.') {
    ++i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i, ++mant_digits;
  }
  if (mant_digits == 0) return neg ? -0.0 : 0.0;
  std::size_t end = i;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    std::size_t j = i + 1;
    if (j < s.size() && (s[j] == '+' || s[j] == '-')) ++j;
    if (j < s.size() && s[j] >= '0' && s[j] <= '9') {
      while (j < s.size() && s[j] >= '0' && s[j] <= '9') ++j;
      end = j;
    }
  }
  double v = 0;
  auto res = std::from_chars(s.data() + start, s.data() + end, v, std::chars_format::general);
  if (res.ec == std::errc::result_out_of_range) {
    // from_chars leaves v untouched; strtod gives HUGE_VAL or 0.
    const std::string_view text = s.substr(start, end - start);
    const std::size_t e = text.find_first_of("eE");
    const bool tiny = e != std::string_view::npos && text.find('-', e) != std::string_view::npos;
    v = tiny ? 0.0 : HUGE_VAL;
  }
  return neg ? -v : v;
}

std::string real_to_string(double r) { return shortest_g(r, 'e'); }

std::string int_to_string(std::int32_t v) { return std::to_string(v); }

std::string big_to_string(std::int64_t v) { return std::to_string(v); }

}  // namespace dis::vm
