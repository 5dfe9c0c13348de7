#include "asm_statement.h"

namespace dis::assembly {

bool parse_magnitude(const std::string& s, std::uint64_t& out) {
  std::uint64_t v = 0;
  std::size_t i = 0;
  unsigned base = 10;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    base = 16;
    i = 2;
  }
  if (i >= s.size()) return false;
  for (; i < s.size(); ++i) {
    const char c = s[i];
    unsigned d;
    if (c >= '0' && c <= '9')
      d = static_cast<unsigned>(c - '0');
    else if (base == 16 && c >= 'a' && c <= 'f')
      d = static_cast<unsigned>(c - 'a' + 10);
    else if (base == 16 && c >= 'A' && c <= 'F')
      d = static_cast<unsigned>(c - 'A' + 10);
    else
      return false;
    if (v > (std::numeric_limits<std::uint64_t>::max() - d) / base) return false;
    v = v * base + d;
  }
  out = v;
  return true;
}

namespace {

AddrMode base_mode(const std::string& reg, int col) {
  if (reg == "fp") return AddrMode::Fp;
  if (reg == "mp") return AddrMode::Mp;
  fail(col, fmt::format("expected fp or mp, found '{}'", reg));
}

}  // namespace

RawOperand parse_operand(Cursor& c) {
  RawOperand r;
  r.col = c.col();
  auto value = [&](const IntLit& lit) {
    const auto v = lit.in(std::numeric_limits<std::int64_t>::min() / 2,
                          std::numeric_limits<std::int64_t>::max() / 2);
    if (!v) fail(lit.col, fmt::format("number {} out of range", lit.spelling()));
    return *v;
  };
  if (c.accept('$')) {
    r.mode = AddrMode::Imm;
    r.a = value(c.integer("an immediate value after '$'"));
    r.text = fmt::format("${}", r.a);
    return r;
  }
  if (!c.at_integer())
    fail(c.col(), "expected an operand ($imm, n(fp), n(mp), m(n(fp)) or m(n(mp)))");
  const std::int64_t first = value(c.integer("an offset"));
  c.expect('(', "after an offset");
  if (c.at_integer()) {
    const std::int64_t reg = value(c.integer("a register offset"));
    c.expect('(', "after a register offset");
    const int rcol = c.col();
    const AddrMode base = base_mode(c.ident("fp or mp"), rcol);
    c.expect(')', "after fp or mp");
    c.expect(')', "to close the indirect operand");
    r.mode = base == AddrMode::Fp ? AddrMode::IndFp : AddrMode::IndMp;
    r.a = reg;
    r.b = first;
    r.text = fmt::format("{}({}({}))", first, reg, base == AddrMode::Fp ? "fp" : "mp");
    return r;
  }
  const int rcol = c.col();
  r.mode = base_mode(c.ident("fp, mp or a register offset"), rcol);
  c.expect(')', "after fp or mp");
  r.a = first;
  r.text = fmt::format("{}({})", first, r.mode == AddrMode::Fp ? "fp" : "mp");
  return r;
}

}  // namespace dis::assembly
