#include "lexer.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>

#include "utf8.h"

namespace dis::limbo {

namespace {

constexpr std::array<const char*, 46> kKeywords = {
    "adt",  "alt",      "array",  "big",       "break",  "byte",      "case", "chan",
    "con",  "continue", "cyclic", "do",        "else",   "exception", "exit", "fn",
    "for",  "hd",       "if",     "implement", "import", "include",   "int",  "len",
    "list", "load",     "module", "nil",       "of",     "or",        "pick", "real",
    "ref",  "return",   "self",   "spawn",     "string", "tagof",     "tl",   "to",
    "type", "while",    "raise",  "raises",    "fixed",  "dynamic"};

// Longest first so that greedy matching picks e.g. "<<=" before "<<".
constexpr std::array<const char*, 48> kPuncts = {
    "<-=", "<<=", ">>=", "**=", "->", "=>", "::", ":=", "<-", "<<", ">>", "<=",
    ">=",  "==",  "!=",  "&&",  "||", "++", "--", "+=", "-=", "*=", "/=", "%=",
    "&=",  "|=",  "^=",  "**",  "(",  ")",  "[",  "]",  "{",  "}",  ";",  ",",
    ".",   ":",   "=",   "+",   "-",  "*",  "/",  "%",  "&",  "|",  "^",  "<"};

class Lexer {
 public:
  Lexer(const std::string& src, const std::string& file, std::vector<Diagnostic>& errs)
      : s_(src), file_(file), errs_(errs) {}

  std::vector<Token> run() {
    std::vector<Token> out;
    for (;;) {
      skip_space();
      Token t;
      t.line = line_;
      t.col = col();
      if (p_ >= s_.size()) {
        t.kind = Tok::End;
        t.end_col = t.col;
        out.push_back(t);
        return out;
      }
      scan(t);
      t.end_col = line_ == t.line ? col() : t.col + 1;
      if (t.kind != Tok::End) out.push_back(std::move(t));
    }
  }

 private:
  const std::string& s_;
  const std::string& file_;
  std::vector<Diagnostic>& errs_;
  std::size_t p_ = 0;
  std::size_t line_start_ = 0;
  std::int32_t line_ = 1;

  std::int32_t col() const { return static_cast<std::int32_t>(p_ - line_start_); }
  char peek(std::size_t k = 0) const { return p_ + k < s_.size() ? s_[p_ + k] : '\0'; }

  void error(std::int32_t line, std::int32_t c, std::string msg) {
    errs_.push_back(Diagnostic{file_, line, c + 1, -1, std::move(msg)});
  }

  void newline() {
    ++line_;
    line_start_ = p_;
  }

  void skip_space() {
    while (p_ < s_.size()) {
      char c = s_[p_];
      if (c == '\n') {
        ++p_;
        newline();
      } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
        ++p_;
      } else if (c == '#') {
        while (p_ < s_.size() && s_[p_] != '\n') ++p_;
      } else {
        break;
      }
    }
  }

  // Decodes one UTF-8 character at p_ (advancing), as Inferno's lexer does.
  std::uint32_t rune() {
    std::uint32_t r;
    p_ += static_cast<std::size_t>(
        utf8_decode(reinterpret_cast<const std::uint8_t*>(s_.data()) + p_, s_.size() - p_, r));
    return r;
  }

  // One possibly escaped character inside a quoted string or char constant.
  std::uint32_t char_in_quotes(std::int32_t line, std::int32_t c0) {
    if (s_[p_] != '\\') return rune();
    ++p_;
    if (p_ >= s_.size()) return '\\';
    char e = s_[p_++];
    switch (e) {
      case 'n':
        return '\n';
      case 't':
        return '\t';
      case 'r':
        return '\r';
      case 'b':
        return '\b';
      case 'a':
        return '\a';
      case 'f':
        return '\f';
      case 'v':
        return '\v';
      case '0':
        return 0;
      case '\\':
        return '\\';
      case '\'':
        return '\'';
      case '"':
        return '"';
      case 'u': {
        std::uint32_t r = 0;
        for (int i = 0; i < 4; ++i) {
          char h = peek();
          if (!std::isxdigit(static_cast<unsigned char>(h))) {
            error(line, c0, "malformed \\u escape");
            return r;
          }
          r = r * 16 + static_cast<std::uint32_t>(std::isdigit(static_cast<unsigned char>(h))
                                                      ? h - '0'
                                                      : (std::tolower(h) - 'a' + 10));
          ++p_;
        }
        return r;
      }
      default:
        error(line, c0, std::string("unknown escape '\\") + e + "'");
        return static_cast<unsigned char>(e);
    }
  }

  void scan(Token& t) {
    char c = s_[p_];
    auto uc = static_cast<unsigned char>(c);
    if (std::isalpha(uc) || c == '_' || uc >= 0x80) {
      std::size_t b = p_;
      while (p_ < s_.size()) {
        auto d = static_cast<unsigned char>(s_[p_]);
        if (std::isalnum(d) || d == '_' || d >= 0x80)
          ++p_;
        else
          break;
      }
      t.text = s_.substr(b, p_ - b);
      t.kind = is_keyword(t.text) ? Tok::Keyword : Tok::Ident;
      return;
    }
    if (std::isdigit(uc) || (c == '.' && std::isdigit(static_cast<unsigned char>(peek(1))))) {
      number(t);
      return;
    }
    if (c == '"') {
      ++p_;
      t.kind = Tok::StrLit;
      while (p_ < s_.size() && s_[p_] != '"' && s_[p_] != '\n')
        utf8_append(t.text, char_in_quotes(t.line, t.col));
      if (peek() != '"')
        error(t.line, t.col, "unterminated string");
      else
        ++p_;
      return;
    }
    if (c == '`') {
      ++p_;
      t.kind = Tok::StrLit;
      while (p_ < s_.size() && s_[p_] != '`') {
        if (s_[p_] == '\n') {
          t.text += '\n';
          ++p_;
          newline();
        } else {
          t.text += s_[p_++];
        }
      }
      if (peek() != '`')
        error(t.line, t.col, "unterminated raw string");
      else
        ++p_;
      return;
    }
    if (c == '\'') {
      ++p_;
      t.kind = Tok::CharLit;
      if (peek() == '\'' && peek(1) == '\'') {  // `'''`: the quote itself
        t.ival = '\'';
        ++p_;
      } else if (peek() == '\'' || peek() == '\n' || p_ >= s_.size()) {
        error(t.line, t.col, "empty character constant");
      } else {
        t.ival = char_in_quotes(t.line, t.col);
      }
      if (peek() != '\'')
        error(t.line, t.col, "unterminated character constant");
      else
        ++p_;
      return;
    }
    for (const char* pu : kPuncts) {
      std::size_t n = std::char_traits<char>::length(pu);
      if (s_.compare(p_, n, pu) == 0) {
        t.kind = Tok::Punct;
        t.text = pu;
        p_ += n;
        return;
      }
    }
    for (const char* pu : {">", "!", "~"}) {
      if (c == pu[0]) {
        t.kind = Tok::Punct;
        t.text = pu;
        ++p_;
        return;
      }
    }
    error(t.line, t.col, std::string("unexpected character '") + c + "'");
    ++p_;
    t.kind = Tok::End;  // dropped by the caller
  }

  void number(Token& t) {
    std::size_t b = p_;
    while (std::isdigit(static_cast<unsigned char>(peek()))) ++p_;
    if ((peek() == 'r' || peek() == 'R') && p_ > b) {
      long base = std::strtol(s_.substr(b, p_ - b).c_str(), nullptr, 10);
      ++p_;
      if (base < 2 || base > 36)
        error(t.line, t.col, "radix " + std::to_string(base) + " out of range");
      std::uint64_t v = 0;
      std::size_t d0 = p_;
      while (std::isalnum(static_cast<unsigned char>(peek()))) {
        char h = static_cast<char>(std::tolower(peek()));
        int dv = std::isdigit(static_cast<unsigned char>(h)) ? h - '0' : h - 'a' + 10;
        if (dv >= base)
          error(t.line, t.col,
                "digit '" + std::string(1, h) + "' not valid in radix " + std::to_string(base));
        v = v * static_cast<std::uint64_t>(base) + static_cast<std::uint64_t>(dv);
        ++p_;
      }
      if (p_ == d0) error(t.line, t.col, "missing digits after radix");
      // `16r1234.5678`: a real with a fraction in the radix (the addendum's
      // literal for fixed-point values).
      auto digit = [&](char ch) {
        ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
        int dv = std::isdigit(static_cast<unsigned char>(ch))   ? ch - '0'
                 : std::isalpha(static_cast<unsigned char>(ch)) ? ch - 'a' + 10
                                                                : 99;
        return dv < base ? dv : -1;
      };
      if (peek() == '.' && digit(peek(1)) >= 0) {
        ++p_;
        double r = static_cast<double>(v), w = 1;
        for (int dv; (dv = digit(peek())) >= 0; ++p_) {
          w /= static_cast<double>(base);
          r += dv * w;
        }
        t.kind = Tok::RealLit;
        t.rval = r;
        return;
      }
      t.kind = Tok::IntLit;
      t.ival = static_cast<std::int64_t>(v);
      t.text = "r";  // written with a radix
      return;
    }
    // `1.e-30`: an exponent right after the point.
    auto exponent_at = [&](std::size_t at) {
      auto c = [&](std::size_t i) { return i < s_.size() ? s_[i] : '\0'; };
      if (c(at) != 'e' && c(at) != 'E') return false;
      std::size_t d = c(at + 1) == '+' || c(at + 1) == '-' ? at + 2 : at + 1;
      return std::isdigit(static_cast<unsigned char>(c(d))) != 0;
    };
    bool real = false;
    if (peek() == '.' && std::isdigit(static_cast<unsigned char>(peek(1)))) {
      real = true;
      ++p_;
      while (std::isdigit(static_cast<unsigned char>(peek()))) ++p_;
    } else if (peek() == '.' && peek(1) != '.' &&
               (!std::isalpha(static_cast<unsigned char>(peek(1))) || exponent_at(p_ + 1))) {
      real = true;
      ++p_;
    }
    if (peek() == 'e' || peek() == 'E') {
      std::size_t save = p_;
      ++p_;
      if (peek() == '+' || peek() == '-') ++p_;
      if (std::isdigit(static_cast<unsigned char>(peek()))) {
        real = true;
        while (std::isdigit(static_cast<unsigned char>(peek()))) ++p_;
      } else {
        p_ = save;
      }
    }
    std::string txt = s_.substr(b, p_ - b);
    if (real) {
      t.kind = Tok::RealLit;
      t.rval = std::strtod(txt.c_str(), nullptr);
    } else {
      t.kind = Tok::IntLit;
      std::uint64_t v = 0;
      for (char d : txt) v = v * 10 + static_cast<std::uint64_t>(d - '0');
      t.ival = static_cast<std::int64_t>(v);
    }
  }
};

}  // namespace

bool is_keyword(const std::string& s) {
  return std::find_if(kKeywords.begin(), kKeywords.end(), [&](const char* k) { return s == k; }) !=
         kKeywords.end();
}

std::vector<Token> lex(const std::string& src, const std::string& file,
                       std::vector<Diagnostic>& errs) {
  return Lexer(src, file, errs).run();
}

}  // namespace dis::limbo
