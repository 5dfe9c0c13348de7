// The reading half of the assembler: a cursor over one statement's tokens
// that reads identifiers, strings, integer literals of any range and
// operands, and throws a LineError (column and message) at the first thing
// it cannot read. The assembler (assembler.cpp) gives the statements their
// meaning; nothing else includes this header.
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "asm_lexer.h"
#include "module.h"

namespace dis::assembly {

// Thrown inside the handling of one line; the line loop turns it into a
// Diagnostic and goes on with the next line.
struct LineError {
  int col = 0;
  std::string message;
};

[[noreturn]] inline void fail(int col, std::string msg) { throw LineError{col, std::move(msg)}; }

// An integer literal: sign and magnitude, so that both -2^63 and 2^64-1 (a
// hex bit pattern) can be read and each context applies its own range.
struct IntLit {
  bool negative = false;
  std::uint64_t magnitude = 0;
  int col = 0;
  int end_col = 0;

  std::string spelling() const {
    return (negative && magnitude != 0 ? "-" : "") + std::to_string(magnitude);
  }
  // The value if it lies in [lo, hi].
  std::optional<std::int64_t> in(std::int64_t lo, std::int64_t hi) const {
    constexpr std::uint64_t kMinMag = std::uint64_t{1} << 63;
    std::int64_t v;
    if (negative) {
      if (magnitude > kMinMag) return std::nullopt;
      v = magnitude == kMinMag ? std::numeric_limits<std::int64_t>::min()
                               : -static_cast<std::int64_t>(magnitude);
    } else {
      if (magnitude > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
        return std::nullopt;
      v = static_cast<std::int64_t>(magnitude);
    }
    if (v < lo || v > hi) return std::nullopt;
    return v;
  }
};

// A decimal or 0x-hexadecimal magnitude without sign; false when malformed
// or over 2^64-1.
bool parse_magnitude(const std::string& s, std::uint64_t& out);

// Reads the tokens of one statement.
class Cursor {
 public:
  Cursor(const TokenList& toks, int line_end_col) : t_(toks), eol_(line_end_col) {}

  bool at_end() const { return pos_ >= t_.size(); }
  const Token* peek() const { return at_end() ? nullptr : &t_[pos_]; }
  int col() const { return at_end() ? eol_ : t_[pos_].col; }
  int last_end_col() const { return pos_ == 0 ? 1 : t_[pos_ - 1].end_col; }
  const Token& next() { return t_[pos_++]; }

  bool is_punct(char c) const {
    const Token* k = peek();
    return k && k->kind == TokKind::Punct && k->text[0] == c;
  }
  bool accept(char c) {
    if (!is_punct(c)) return false;
    ++pos_;
    return true;
  }
  void expect(char c, std::string_view what) {
    if (!accept(c)) fail(col(), fmt::format("expected '{}' {}", c, what));
  }
  std::string ident(std::string_view what) {
    const Token* k = peek();
    if (!k || k->kind != TokKind::Ident) fail(col(), fmt::format("expected {}", what));
    return next().text;
  }
  std::string string(std::string_view what) {
    const Token* k = peek();
    if (!k || k->kind != TokKind::String) fail(col(), fmt::format("expected a string {}", what));
    return next().text;
  }
  bool at_integer() const {
    const Token* k = peek();
    if (!k) return false;
    if (k->kind == TokKind::Number) return true;
    return (is_punct('-') || is_punct('+')) && pos_ + 1 < t_.size() &&
           t_[pos_ + 1].kind == TokKind::Number;
  }
  IntLit integer(std::string_view what) {
    IntLit lit;
    lit.col = col();
    if (accept('-'))
      lit.negative = true;
    else
      accept('+');
    const Token* k = peek();
    if (!k || k->kind != TokKind::Number) fail(lit.col, fmt::format("expected {}", what));
    if (!parse_magnitude(k->text, lit.magnitude))
      fail(k->col, fmt::format("bad integer '{}'", k->text));
    lit.end_col = next().end_col;
    return lit;
  }
  std::int64_t integer_in(std::string_view what, std::int64_t lo, std::int64_t hi) {
    const IntLit lit = integer(what);
    const auto v = lit.in(lo, hi);
    if (!v) fail(lit.col, fmt::format("{} {} out of range ({}..{})", what, lit.spelling(), lo, hi));
    return *v;
  }
  void end() {
    if (!at_end()) fail(col(), fmt::format("unexpected '{}'", peek()->text));
  }

 private:
  const TokenList& t_;
  std::size_t pos_ = 0;
  int eol_;
};

// An operand as written, before it is checked against its slot.
struct RawOperand {
  AddrMode mode = AddrMode::None;
  std::int64_t a = 0;  // offset, immediate, or (indirect) register offset
  std::int64_t b = 0;  // indirect: offset added to the loaded pointer
  int col = 0;
  std::string text;  // as written, for messages
};

// $imm, n(fp), n(mp), m(n(fp)) or m(n(mp)), as written.
RawOperand parse_operand(Cursor& c);

}  // namespace dis::assembly
