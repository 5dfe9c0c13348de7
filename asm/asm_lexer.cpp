#include "asm_lexer.h"

namespace dis::assembly {
namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool is_word_char(char c) { return is_alpha(c) || is_digit(c) || c == '.'; }

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// The escapes Inferno's own assembler understands, plus \xHH for any byte.
// limbo -S escapes only \n, \z (NUL), \" and \\ and writes every other byte raw.
int simple_escape(char c) {
  switch (c) {
    case 'n':
      return '\n';
    case 't':
      return '\t';
    case 'r':
      return '\r';
    case 'b':
      return '\b';
    case 'f':
      return '\f';
    case 'a':
      return '\a';
    case 'v':
      return '\v';
    case '0':
    case 'z':
      return '\0';
    case '\\':
      return '\\';
    case '"':
      return '"';
    default:
      return -1;
  }
}

}  // namespace

LexedLine lex_line(std::string_view line) {
  LexedLine out;
  std::size_t i = 0;
  const std::size_t n = line.size();
  auto fail = [&](std::size_t at, std::string msg) {
    out.ok = false;
    out.error = LexError{static_cast<int>(at) + 1, std::move(msg)};
    return out;
  };
  while (i < n) {
    const char c = line[i];
    if (c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f') {
      ++i;
      continue;
    }
    if (c == '#') break;
    Token t;
    t.col = static_cast<int>(i) + 1;
    if (c == '"') {
      t.kind = TokKind::String;
      ++i;
      bool closed = false;
      while (i < n) {
        const char d = line[i];
        if (d == '"') {
          closed = true;
          ++i;
          break;
        }
        if (d != '\\') {
          t.text.push_back(d);
          ++i;
          continue;
        }
        if (i + 1 >= n) return fail(t.col - 1, "unterminated string");
        const char e = line[i + 1];
        if (e == 'x') {
          const int h1 = i + 2 < n ? hex_value(line[i + 2]) : -1;
          const int h2 = i + 3 < n ? hex_value(line[i + 3]) : -1;
          if (h1 < 0 || h2 < 0) return fail(i, "bad escape \\x: expected two hex digits");
          t.text.push_back(static_cast<char>(h1 * 16 + h2));
          i += 4;
          continue;
        }
        const int v = simple_escape(e);
        if (v < 0) return fail(i, std::string("unknown escape \\") + e);
        t.text.push_back(static_cast<char>(v));
        i += 2;
      }
      if (!closed) return fail(t.col - 1, "unterminated string");
    } else if (is_digit(c) || (c == '.' && i + 1 < n && is_digit(line[i + 1]))) {
      t.kind = TokKind::Number;
      const bool hex = c == '0' && i + 1 < n && (line[i + 1] == 'x' || line[i + 1] == 'X');
      while (i < n) {
        const char d = line[i];
        if (is_word_char(d)) {
          t.text.push_back(d);
          ++i;
        } else if (!hex && (d == '+' || d == '-') && !t.text.empty() &&
                   (t.text.back() == 'e' || t.text.back() == 'E')) {
          t.text.push_back(d);  // exponent sign: 1e+06
          ++i;
        } else {
          break;
        }
      }
    } else if (is_alpha(c)) {
      t.kind = TokKind::Ident;
      while (i < n && is_word_char(line[i])) t.text.push_back(line[i++]);
    } else {
      t.kind = TokKind::Punct;
      t.text.assign(1, c);
      ++i;
    }
    t.end_col = static_cast<int>(i) + 1;
    out.tokens.push_back(std::move(t));
  }
  return out;
}

}  // namespace dis::assembly
