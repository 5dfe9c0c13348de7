#include "disassembler.h"

#include <fmt/format.h>

#include <bit>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <map>

namespace dis::assembly {

namespace {

std::string operand(const Operand& o) {
  switch (o.mode) {
    case AddrMode::Mp:
      return fmt::format("{}(mp)", o.a);
    case AddrMode::Fp:
      return fmt::format("{}(fp)", o.a);
    case AddrMode::Imm:
      return fmt::format("${}", o.a);
    case AddrMode::IndMp:
      return fmt::format("{}({}(mp))", o.b, o.a);
    case AddrMode::IndFp:
      return fmt::format("{}({}(fp))", o.b, o.a);
    case AddrMode::None:
      break;
  }
  return {};
}

std::string middle(const Middle& m) {
  switch (m.mode) {
    case MidMode::Imm:
      return fmt::format("${}", m.a);
    case MidMode::Fp:
      return fmt::format("{}(fp)", m.a);
    case MidMode::Mp:
      return fmt::format("{}(mp)", m.a);
    case MidMode::None:
      break;
  }
  return {};
}

std::string instruction(const Instruction& in) {
  if (in.op == Op::nop_) return "\tnop";  // limbo prints nop without the operand tab
  std::string s = fmt::format("\t{}\t", op_name(in.op));
  const char* comma = "";
  if (in.src.mode != AddrMode::None) {
    s += operand(in.src);
    comma = ",";
  }
  if (in.mid.mode != MidMode::None) {
    s += comma + middle(in.mid);
    comma = ",";
  }
  if (in.dst.mode != AddrMode::None) s += comma + operand(in.dst);
  return s;
}

std::string_view ltrim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  return s;
}

void print_code(std::string& out, const Module& m, const DisasmOptions& opt) {
  std::int32_t last_file = -1, last_line = -1;
  const bool have_pos = opt.source_lines && m.positions.size() == m.code.size();
  for (std::size_t pc = 0; pc < m.code.size(); ++pc) {
    if (!opt.pc_numbers && pc % 10 == 0) out += fmt::format("#{}\n", pc);
    if (have_pos) {
      const SrcPos& p = m.positions[pc];
      if (p.file != last_file || p.line != last_line) {
        last_file = p.file;
        last_line = p.line;
        const auto f = static_cast<std::size_t>(p.file);
        const std::string name = p.file >= 0 && f < m.source_files.size() ? m.source_files[f] : "?";
        std::string_view text;
        if (p.file >= 0 && f < opt.source_text.size() && p.line >= 1 &&
            static_cast<std::size_t>(p.line) <= opt.source_text[f].size())
          text = ltrim(opt.source_text[f][static_cast<std::size_t>(p.line) - 1]);
        out += fmt::format("# {}:{}: {}\n", name, p.line, text);
      }
    }
    out += instruction(m.code[pc]);
    if (opt.pc_numbers) out += fmt::format("\t# {}", pc);
    out += '\n';
  }
}

// How many words of a merged Words item starting at `offset` limbo printed
// on one line: a whole case/goto table, else one word.
std::size_t words_per_line(const std::map<std::int64_t, Op>& tables, std::int64_t offset,
                           std::int64_t first, std::size_t left) {
  auto it = tables.find(offset);
  std::int64_t n = 1;
  if (it != tables.end()) n = it->second == Op::case_ ? 3 * first + 2 : first + 1;
  if (n < 1 || static_cast<std::uint64_t>(n) > left) n = 1;
  return static_cast<std::size_t>(n);
}

void print_data(std::string& out, const Module& m) {
  // MP offsets of case and goto tables, from the instructions naming them.
  std::map<std::int64_t, Op> tables;
  for (const Instruction& in : m.code) {
    if (in.dst.mode != AddrMode::Mp) continue;
    if (in.op == Op::case_) tables[in.dst.a] = Op::case_;
    if (in.op == Op::goto_) tables[std::int64_t{in.dst.a} - 4] = Op::goto_;
  }
  int depth = 0;  // inside `indir` blocks offsets are relative to an array
  for (const DataItem& d : m.data) {
    const std::size_t n = d.values.size();
    switch (d.kind) {
      case DataKind::Bytes:
        for (std::size_t i = 0; i < n; ++i)
          out += fmt::format("\tbyte\t@mp+{},{}\n", d.offset + static_cast<std::int64_t>(i),
                             d.values[i] & 0xff);
        break;
      case DataKind::Words:
        for (std::size_t i = 0; i < n;) {
          const std::int64_t off = d.offset + 4 * static_cast<std::int64_t>(i);
          const std::size_t k = depth > 0 ? 1 : words_per_line(tables, off, d.values[i], n - i);
          out += fmt::format("\tword\t@mp+{}", off);
          for (std::size_t j = i; j < i + k; ++j)
            out += fmt::format(",{}", static_cast<std::int32_t>(d.values[j]));
          out += '\n';
          i += k;
        }
        break;
      case DataKind::Bigs:
        for (std::size_t i = 0; i < n; ++i)
          out += fmt::format("\tlong\t@mp+{},{} # {:016x}\n",
                             d.offset + 8 * static_cast<std::int64_t>(i), d.values[i],
                             static_cast<std::uint64_t>(d.values[i]));
        break;
      case DataKind::Reals:
        for (std::size_t i = 0; i < n; ++i) {
          const auto bits = static_cast<std::uint64_t>(d.values[i]);
          out += fmt::format("\treal\t@mp+{},{} # {:016x}\n",
                             d.offset + 8 * static_cast<std::int64_t>(i),
                             format_real(std::bit_cast<double>(bits)), bits);
        }
        break;
      case DataKind::String:
        out += fmt::format("\tstring\t@mp+{},{}\n", d.offset, quote_string(d.text));
        break;
      case DataKind::Array:
        out += fmt::format("\tarray\t@mp+{},${},{}\n", d.offset, n > 0 ? d.values[0] : 0,
                           n > 1 ? d.values[1] : 0);
        break;
      case DataKind::SetIndex:
        out += fmt::format("\tindir\t@mp+{},{}\n", d.offset, n > 0 ? d.values[0] : 0);
        ++depth;
        break;
      case DataKind::PopBase:
        out += "\tapop\n";
        if (depth > 0) --depth;
        break;
    }
  }
}

void print_imports(std::string& out, const Module& m) {
  out += fmt::format("\tldts\t@ldt,{}\n", m.imports.size());
  for (std::size_t t = 0; t < m.imports.size(); ++t) {
    // Limbo numbers each table by its index and lays its entries out as
    // {sig word, NUL-terminated name} at word-aligned offsets after the count.
    std::int64_t off = static_cast<std::int64_t>(t);
    out += fmt::format("\tword\t@ldt+{},{}\n", off, m.imports[t].size());
    off += 4;
    for (const Import& im : m.imports[t]) {
      off = (off + 3) & ~std::int64_t{3};
      out += fmt::format("\text\t@ldt+{},0x{:x},\"{}\"\n", off, im.sig, im.name);
      off += static_cast<std::int64_t>(im.name.size()) + 1 + 4;
    }
  }
}

void print_handlers(std::string& out, const Module& m) {
  out += fmt::format("\texceptions\t{}\n", m.handlers.size());
  for (const Handler& h : m.handlers) {
    out += fmt::format("\texception\t{}, {}, {}, {}, {}, {}\n", h.pc1, h.pc2, h.offset, h.type,
                       h.cases.size(), h.ne);
    for (const HandlerCase& c : h.cases) out += fmt::format("\texctab\t\"{}\", {}\n", c.name, c.pc);
    out += fmt::format("\texctab\t*, {}\n", h.wildcard_pc);
  }
}

}  // namespace

std::string quote_string(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    switch (c) {
      case '\n':
        out += "\\n";
        break;
      case '\0':
        out += "\\z";
        break;
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      default:
        out += c;
    }
  }
  return out + '"';
}

std::string format_real(double v) {
  if (!std::isfinite(v)) return fmt::format("0x{:016x}", std::bit_cast<std::uint64_t>(v));
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific);
  std::string_view sci(buf, static_cast<std::size_t>(r.ptr - buf));  // [-]d[.ddd]e±XX
  std::string sign;
  if (sci.front() == '-') {
    sign = "-";
    sci.remove_prefix(1);
  }
  const std::size_t e = sci.find('e');
  std::string digits;
  for (char c : sci.substr(0, e))
    if (c != '.') digits += c;
  const int exp = std::atoi(std::string(sci.substr(e + 1)).c_str());
  const int ndig = static_cast<int>(digits.size());
  // Limbo's %g: exponent form below 1e-4, or when the exponent reaches the
  // larger of 6 and the number of significant digits.
  if (exp < -4 || exp >= std::max(ndig, 6)) {
    std::string mant = digits.substr(0, 1);
    if (ndig > 1) mant += "." + digits.substr(1);
    return fmt::format("{}{}e{}{:02}", sign, mant, exp < 0 ? '-' : '+', std::abs(exp));
  }
  if (exp < 0) return sign + "." + std::string(static_cast<std::size_t>(-exp - 1), '0') + digits;
  if (exp + 1 >= ndig)
    return sign + digits + std::string(static_cast<std::size_t>(exp + 1 - ndig), '0');
  return sign + digits.substr(0, static_cast<std::size_t>(exp + 1)) + "." +
         digits.substr(static_cast<std::size_t>(exp + 1));
}

std::string disassemble(const Module& m, const DisasmOptions& opt) {
  std::string out;
  out += fmt::format("\tstackext\t{}\n", m.stack_extent);
  out += fmt::format("\tflags\t0x{:x}\n", m.flags);
  if (m.magic == kSMagic) {
    out += "\tsignature\t\"";
    for (std::uint8_t b : m.signature) out += fmt::format("{:02x}", b);
    out += "\"\n";
  }
  print_code(out, m, opt);
  if (m.entry_pc != -1 || m.entry_type != -1)
    out += fmt::format("\tentry\t{}, {}\n", m.entry_pc, m.entry_type);
  for (const TypeDesc& t : m.types) {
    out += fmt::format("\tdesc\t${},{},\"", t.id, t.size);
    for (std::uint8_t b : t.map) out += fmt::format("{:02x}", b);
    out += "\"\n";
  }
  out += fmt::format("\tvar\t@mp,{}\n", m.data_size);
  print_data(out, m);
  out += fmt::format("\tmodule\t{}\n", m.name);
  for (const Link& l : m.links)
    out += fmt::format("\tlink\t{},{},0x{:x},\"{}\"\n", l.frame_type, l.pc, l.sig, l.name);
  if ((m.flags & kHasLdt) || !m.imports.empty()) print_imports(out, m);
  if ((m.flags & kHasExcept) || !m.handlers.empty()) print_handlers(out, m);
  if (m.source_path) out += fmt::format("\tsource\t\"{}\"\n", *m.source_path);
  return out;
}

}  // namespace dis::assembly
