// Tokens of one line of Dis assembly. The assembler is line oriented (every
// statement is one line, as `limbo -S` writes them), so the lexer works on a
// single line and reports positions as 1-based columns within it.
#pragma once

#include <boost/container/small_vector.hpp>
#include <cstdint>
#include <string>
#include <string_view>

namespace dis::assembly {

enum class TokKind : std::uint8_t {
  Ident,   // letters, digits, '_' and '.', starting with a letter or '_'
  Number,  // digits/letters/'.' starting with a digit or ".digit" (sign is separate)
  String,  // "..." with escapes decoded into `text`
  Punct,   // one of $ ( ) , + - * @ or any other single character
};

struct Token {
  TokKind kind = TokKind::Punct;
  std::string text;  // identifier/number spelling, decoded string, or the punctuation char
  int col = 0;       // 1-based column of the first character
  int end_col = 0;   // 1-based column just past the token
};

// A line that could not be split into tokens (an unterminated string, a bad
// escape): the column and message of the first problem.
struct LexError {
  int col = 0;
  std::string message;
};

// A statement is a mnemonic and up to three operands of at most five
// tokens (`m(n(fp))`) with their commas: a line's tokens stay inline.
using TokenList = boost::container::small_vector<Token, 16>;

struct LexedLine {
  TokenList tokens;
  bool ok = true;
  LexError error;
};

// Splits `line` (without its newline) into tokens; a `#` outside a string
// starts a comment that runs to the end of the line.
LexedLine lex_line(std::string_view line);

}  // namespace dis::assembly
