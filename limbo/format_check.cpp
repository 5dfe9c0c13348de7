// Sys->print, sprint, fprint and aprint with a constant format: each verb is
// checked against its argument's type at compile time, as Inferno's compiler
// does, so a mismatch is an error naming the line instead of wrong output.
#include <string_view>

#include "compiler_impl.h"

namespace dis::limbo {

namespace {

// Position of the format among a Sys function's arguments, or -1.
int format_index(const std::string& fn) {
  if (fn == "print" || fn == "sprint" || fn == "aprint") return 0;
  if (fn == "fprint") return 1;
  return -1;
}

bool is_flag(char32_t c) {
  return (c >= '0' && c <= '9') ||
         std::u32string_view(U".-+# ,uhl").find(c) != std::u32string_view::npos;
}

// The argument kind a verb takes (TK::None for none); nullopt: not a verb.
std::optional<TK> verb_kind(char32_t v, bool big) {
  switch (v) {
    case '%':
    case 'r':
      return TK::None;
    case 'd':
    case 'o':
    case 'x':
    case 'X':
    case 'c':
      return big ? TK::Big : TK::Int;
    case 'e':
    case 'f':
    case 'g':
    case 'E':
    case 'G':
      return TK::Real;
    case 's':
    case 'q':
      return TK::String;
    default:
      return std::nullopt;
  }
}

std::u32string runes(const std::string& s) {
  std::u32string out;
  for (std::size_t i = 0; i < s.size();) {
    auto c = static_cast<unsigned char>(s[i]);
    int n = c < 0x80 ? 1 : c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;
    char32_t r = n == 1 ? c : c & (0x7f >> n);
    for (int k = 1; k < n && i + k < s.size(); ++k) r = (r << 6) | (s[i + k] & 0x3f);
    out.push_back(r);
    i += n;
  }
  return out;
}

std::string utf8(char32_t c) {
  std::string s;
  if (c < 0x80) {
    s.push_back(static_cast<char>(c));
  } else if (c < 0x800) {
    s += {static_cast<char>(0xc0 | (c >> 6)), static_cast<char>(0x80 | (c & 0x3f))};
  } else {
    s += {static_cast<char>(0xe0 | (c >> 12)), static_cast<char>(0x80 | ((c >> 6) & 0x3f)),
          static_cast<char>(0x80 | (c & 0x3f))};
  }
  return s;
}

}  // namespace

void Compiler::check_format(const Expr* call) {
  const Expr* callee = call->a.get();
  if (callee->kind != Expr::ModField) return;
  int fi = format_index(callee->op);
  if (fi < 0 || call->args.size() <= static_cast<std::size_t>(fi)) return;
  Type* mt = type_of(callee->a.get());
  if (mt->k != TK::Module || !mt->mod || mt->mod->name != "Sys") return;
  auto f = const_eval(call->args[static_cast<std::size_t>(fi)].get());
  if (!f || f->k != TK::String) return;
  const std::u32string fmt = runes(f->s);
  std::string shown;  // the format as written in the source
  for (char c : f->s) shown += c == '\n' ? "\\n" : c == '\t' ? "\\t" : std::string(1, c);
  std::size_t next = static_cast<std::size_t>(fi) + 1;
  bool unsigned_flag = false;
  auto take = [&](TK want, const std::string& spec) {
    if (next >= call->args.size()) {
      error(call->pos, "too few arguments for format '" + shown + "'");
      return false;
    }
    Type* t = type_of(call->args[next++].get());
    // `%ux` and `%x` print a pointer's address (Inferno's Tk code, cook and mk do).
    char verb = spec.back();
    bool address =
        (unsigned_flag || verb == 'x' || verb == 'X') && want == TK::Int && is_pointer(t);
    if (t->k != want && t->k != TK::Error && !address) {
      error(call->pos, "format '" + spec + "' incompatible with argument of type " + type_name(t));
      return false;
    }
    return true;
  };
  for (std::size_t i = 0; i < fmt.size();) {
    if (fmt[i++] != '%') continue;
    std::string spec = "%";
    bool big = false;
    unsigned_flag = false;
    for (; i < fmt.size(); ++i) {
      char32_t c = fmt[i];
      spec += utf8(c);
      if (c == '*') {
        if (!take(TK::Int, spec)) return;
      } else if (c == 'b') {
        big = true;
      } else if (c == 'u') {
        unsigned_flag = true;
      } else if (!is_flag(c)) {
        break;
      }
    }
    if (i >= fmt.size()) break;  // a spec cut off by the end prints nothing
    if (fmt[i] == 'H') {         // Inferno's debugging verb: a pointer's block
      ++i;
      if (next >= call->args.size()) {
        error(call->pos, "too few arguments for format '" + shown + "'");
        return;
      }
      Type* t = type_of(call->args[next++].get());
      if (!is_pointer(t) && t->k != TK::Poly && t->k != TK::Nil && t->k != TK::Error) {
        error(call->pos,
              "format '" + spec + "' incompatible with argument of type " + type_name(t));
        return;
      }
      continue;
    }
    auto want = verb_kind(fmt[i++], big);
    if (!want) {
      error(call->pos, "invalid character " + utf8(fmt[i - 1]) + " in format '" + shown + "'");
      return;
    }
    if (*want != TK::None && !take(*want, spec)) return;
  }
  if (next < call->args.size()) error(call->pos, "more arguments than format '" + shown + "'");
}

}  // namespace dis::limbo
