// Limbo lexical analysis (reference/limbo.txt section 2): identifiers,
// keywords, integer constants (decimal, NNrDIGITS radix form, character
// constants), real constants, strings with escapes and backquoted raw
// strings. Errors are collected as diagnostics; lexing continues.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "diag.h"

namespace dis::limbo {

enum class Tok : std::uint8_t {
  End,
  Ident,
  IntLit,
  RealLit,
  StrLit,
  CharLit,
  Punct,    // operators and separators; text holds the spelling
  Keyword,  // text holds the keyword
};

struct Token {
  Tok kind = Tok::End;
  std::string text;       // identifier, keyword, punctuation, string value; "r": IntLit with radix
  std::int64_t ival = 0;  // IntLit, CharLit
  double rval = 0;        // RealLit
  std::int32_t line = 0;  // 1-based
  std::int32_t col = 0;   // 0-based
  std::int32_t end_col = 0;
};

// Splits `src` into tokens, ending with Tok::End. Lexical errors are appended
// to `errs` (file `file`).
std::vector<Token> lex(const std::string& src, const std::string& file,
                       std::vector<Diagnostic>& errs);

bool is_keyword(const std::string& s);

}  // namespace dis::limbo
