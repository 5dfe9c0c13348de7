#include "assembler.h"

#include <fmt/format.h>

#include <algorithm>
#include <boost/container/small_vector.hpp>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <utility>

#include "asm_lexer.h"
#include "asm_statement.h"
#include "dis_encoding.h"
#include "dis_file.h"
#include "opcodes.h"

namespace dis::assembly {
namespace {

// The array-index family (indx, indw, ...: kinds P,P,W) reads its index from
// d and writes the element address to m, the reverse of every other op.
bool is_index_op(Op op) {
  const OpInfo& i = op_info(op);
  return i.mid == OperandKind::P && i.dst == OperandKind::W;
}

std::string plural(std::size_t n, std::string_view one, std::string_view many = {}) {
  if (n == 1) return fmt::format("1 {}", one);
  if (many.empty()) return fmt::format("{} {}s", n, one);
  return fmt::format("{} {}", n, many);
}

// A value that can only be checked once the whole file is read.
struct PendingRef {
  enum Kind { Branch, Desc, Pc, PcEnd, PcOrNone, DescOrNone } kind;
  std::int64_t value;
  int line;
  int col;
  std::string what;
};

struct DataRegion {
  std::int64_t size = -1;  // bytes available from the base, -1 unknown
  std::map<std::int64_t, std::pair<std::int64_t, std::int64_t>> arrays;  // offset -> (type, length)
};

class Assembler {
 public:
  explicit Assembler(std::string filename) : file_(std::move(filename)) {}

  Module run(std::string_view text) {
    std::size_t start = 0;
    int line_no = 0;
    while (start <= text.size()) {
      std::size_t nl = text.find('\n', start);
      if (nl == std::string_view::npos) nl = text.size();
      std::string_view line = text.substr(start, nl - start);
      ++line_no;
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
      do_line(line_no, line);
      if (nl == text.size()) break;
      start = nl + 1;
    }
    // Nothing but blanks and comments is no module (it would have no entry
    // and no code): an empty file is a mistake, not a program.
    if (!statements_ && diags_.empty()) {
      error(0, 0, "empty: no instructions or directives (an assembly file holds a module)");
      throw InputError(std::move(diags_));
    }
    finish();
    if (!diags_.empty()) {
      std::stable_sort(diags_.begin(), diags_.end(), [](const Diagnostic& x, const Diagnostic& y) {
        return std::pair(x.line, x.col) < std::pair(y.line, y.col);
      });
      throw InputError(std::move(diags_));
    }
    return std::move(m_);
  }

 private:
  void error(int line, int col, std::string msg) {
    diags_.push_back(Diagnostic{file_, line, col, -1, std::move(msg)});
  }

  void do_line(int line_no, std::string_view line) {
    line_ = line_no;
    const LexedLine lx = lex_line(line);
    if (!lx.ok) {
      error(line_no, lx.error.col, lx.error.message);
      return;
    }
    if (lx.tokens.empty()) return;
    ++statements_;
    Cursor c(lx.tokens, static_cast<int>(line.size()) + 1);
    try {
      statement(c);
    } catch (const LineError& e) {
      error(line_no, e.col, e.message);
    }
  }

  void statement(Cursor& c) {
    const Token* first = c.peek();
    if (first->kind != TokKind::Ident) fail(first->col, "expected an opcode or a directive");
    const Token& word = c.next();
    const std::string& w = word.text;
    if (w == "entry") return d_entry(c, word);
    if (w == "desc") return d_desc(c, word);
    if (w == "var") return d_var(c, word);
    if (w == "byte" || w == "word" || w == "long" || w == "real") return d_values(c, word);
    if (w == "string") return d_string(c);
    if (w == "array") return d_array(c);
    if (w == "indir") return d_indir(c);
    if (w == "apop") return d_apop(c, word);
    if (w == "module") return d_module(c, word);
    if (w == "link") return d_link(c);
    if (w == "ldts") return d_ldts(c, word);
    if (w == "ext") return d_ext(c, word);
    if (w == "exceptions") return d_exceptions(c, word);
    if (w == "exception") return d_exception(c, word);
    if (w == "exctab") return d_exctab(c, word);
    if (w == "source") return d_source(c, word);
    if (w == "stackext") return d_stackext(c, word);
    if (w == "flags") return d_flags(c, word);
    if (w == "signature") return d_signature(c, word);
    // A bad instruction line still takes its pc, so that the branch targets
    // of the following lines are checked against the intended numbering.
    try {
      const auto op = find_op(w);
      if (!op) fail(word.col, fmt::format("unknown opcode '{}'", w));
      instruction(c, *op, word);
    } catch (const LineError&) {
      m_.code.emplace_back();
      m_.positions.push_back(SrcPos{0, line_, word.col - 1, line_, word.end_col - 1, 0});
      throw;
    }
  }

  // ---- instructions ----

  void instruction(Cursor& c, Op op, const Token& mnemonic) {
    // At most three operands, one more when a line has too many.
    boost::container::small_vector<RawOperand, 4> ops;
    if (!c.at_end()) {
      ops.push_back(parse_operand(c));
      while (c.accept(',')) ops.push_back(parse_operand(c));
      c.end();
    }
    const std::size_t max = has_src(op) + mid_allowed(op) + has_dst(op);
    const bool short_ok = mid_optional(op);
    const std::string_view name = op_name(op);
    if (ops.size() != max && !(short_ok && ops.size() + 1 == max)) {
      const int col = ops.size() > max ? ops[max].col : c.last_end_col();
      if (max == 0) fail(col, fmt::format("'{}' takes no operands, got {}", name, ops.size()));
      const std::string want =
          short_ok ? fmt::format("{} or {} operands", max - 1, max) : plural(max, "operand");
      fail(col, fmt::format("'{}' takes {}, got {}", name, want, ops.size()));
    }
    Instruction in;
    in.op = op;
    std::size_t k = 0;
    const RawOperand* src = has_src(op) ? &ops[k++] : nullptr;
    const RawOperand* mid = mid_allowed(op) && ops.size() == max ? &ops[k++] : nullptr;
    const RawOperand* dst = has_dst(op) ? &ops[k++] : nullptr;
    const OpInfo& info = op_info(op);
    // Sources may be immediates of any kind: Limbo writes `send $-1, c` and
    // `lea $42, d` (the immediate is addressed in place in the instruction).
    if (src) in.src = address(*src);
    if (mid) in.mid = middle(*mid, op);
    if (dst) {
      if (info.dst == OperandKind::T) {
        if (dst->mode != AddrMode::Imm)
          fail(dst->col, fmt::format("branch target of '{}' must be an immediate instruction "
                                     "number ($N), not {}",
                                     name, dst->text));
      } else if (dst->mode == AddrMode::Imm && !is_index_op(op)) {
        fail(dst->col,
             fmt::format("'{}' destination must be a memory address, not an immediate", name));
      }
      in.dst = address(*dst);
      if (info.dst == OperandKind::T)
        pending_.push_back({PendingRef::Branch, dst->a, line_, dst->col, "branch target"});
    }
    const TypeOperand ds = type_operand(op);
    if (ds == TypeOperand::Src && src && src->mode == AddrMode::Imm)
      pending_.push_back({PendingRef::Desc, src->a, line_, src->col, ""});
    if (ds == TypeOperand::Mid && mid && mid->mode == AddrMode::Imm)
      pending_.push_back({PendingRef::Desc, mid->a, line_, mid->col, ""});
    m_.code.push_back(in);
    SrcPos pos;
    pos.file = 0;
    pos.line = line_;
    pos.end_line = line_;
    pos.col = mnemonic.col - 1;
    pos.end_col = c.last_end_col() - 1;
    m_.positions.push_back(pos);
  }

  Operand address(const RawOperand& r) {
    Operand o;
    o.mode = r.mode;
    auto check30 = [&](std::int64_t v, std::string_view what) {
      if (!operand_fits(v))
        fail(r.col, fmt::format("{} {} out of range (30-bit signed: {}..{})", what, v, kOperandMin,
                                kOperandMax));
    };
    switch (r.mode) {
      case AddrMode::Imm:
        check30(r.a, "immediate");
        break;
      case AddrMode::Fp:
      case AddrMode::Mp:
        check30(r.a, "offset");
        break;
      case AddrMode::IndFp:
      case AddrMode::IndMp:
        for (const std::int64_t v : {r.a, r.b})
          if (v < 0 || v > 0xFFFF)
            fail(r.col,
                 fmt::format("double-indirect offset {} out of range (0..65535) in {}", v, r.text));
        break;
      case AddrMode::None:
        break;
    }
    o.a = static_cast<std::int32_t>(r.a);
    o.b = static_cast<std::int32_t>(r.b);
    return o;
  }

  Middle middle(const RawOperand& r, Op op) {
    Middle m;
    switch (r.mode) {
      case AddrMode::Imm:
        if (is_index_op(op))
          fail(r.col, fmt::format("'{}' middle operand receives an address: it cannot be an "
                                  "immediate",
                                  op_name(op)));
        if (r.a < -32768 || r.a > 32767)
          fail(r.col, fmt::format("middle immediate {} out of range (-32768..32767)", r.a));
        m.mode = MidMode::Imm;
        break;
      case AddrMode::Fp:
      case AddrMode::Mp:
        if (r.a < 0 || r.a > 0xFFFF)
          fail(r.col, fmt::format("middle offset {} out of range (0..65535)", r.a));
        m.mode = r.mode == AddrMode::Fp ? MidMode::Fp : MidMode::Mp;
        break;
      default:
        fail(r.col, fmt::format("middle operand cannot be double indirect: {}", r.text));
    }
    m.a = static_cast<std::int32_t>(r.a);
    return m;
  }

  // ---- directives ----

  void once(std::optional<int>& seen, const Token& word) {
    if (seen)
      fail(word.col, fmt::format("duplicate '{}' directive (first on line {})", word.text, *seen));
    seen = line_;
  }

  void d_entry(Cursor& c, const Token& word) {
    once(entry_line_, word);
    const int pcol = c.col();
    const auto pc = c.integer_in("entry pc", -1, kOperandMax);
    c.expect(',', "after the entry pc");
    const int tcol = c.col();
    const auto type = c.integer_in("entry type", -1, kOperandMax);
    c.end();
    m_.entry_pc = static_cast<std::int32_t>(pc);
    m_.entry_type = static_cast<std::int32_t>(type);
    pending_.push_back({PendingRef::PcOrNone, pc, line_, pcol, "entry pc"});
    pending_.push_back({PendingRef::DescOrNone, type, line_, tcol, ""});
  }

  void d_desc(Cursor& c, const Token&) {
    c.expect('$', "before the descriptor id");
    const int icol = c.col();
    const auto id = c.integer_in("descriptor id", 0, kOperandMax);
    c.expect(',', "after the descriptor id");
    const auto size = c.integer_in("descriptor size", 0, kOperandMax);
    c.expect(',', "after the descriptor size");
    const int mcol = c.col();
    const std::string hex = c.string("(the pointer map in hex)");
    c.end();
    if (hex.size() % 2 != 0) fail(mcol, "pointer map has an odd number of hex digits");
    if (hex.size() / 2 > static_cast<std::size_t>(kMaxTypeMapBytes))
      fail(mcol, fmt::format("pointer map longer than {} bytes", kMaxTypeMapBytes));
    TypeDesc t;
    t.id = static_cast<std::int32_t>(id);
    t.size = static_cast<std::int32_t>(size);
    for (std::size_t i = 0; i < hex.size(); i += 2) {
      std::uint64_t v;
      if (!parse_magnitude("0x" + hex.substr(i, 2), v))
        fail(mcol, fmt::format("bad hex digit in pointer map \"{}\"", hex));
      t.map.push_back(static_cast<std::uint8_t>(v));
    }
    if (!desc_ids_.insert(t.id).second) fail(icol, fmt::format("descriptor ${} defined twice", id));
    desc_pos_[t.id] = {line_, icol};
    if (t.id == 0 && !var_line_) regions_.front().size = size;  // $0 describes module data
    m_.types.push_back(std::move(t));
  }

  // `@mp+off`, `@mp`, `@ldt+off`: returns (is_ldt, offset).
  std::pair<bool, std::int64_t> data_address(Cursor& c) {
    c.expect('@', "(a data address such as @mp+8)");
    const int col = c.col();
    const std::string base = c.ident("mp or ldt after '@'");
    if (base != "mp" && base != "ldt")
      fail(col, fmt::format("expected @mp or @ldt, found @{}", base));
    std::int64_t off = 0;
    if (c.accept('+')) off = c.integer_in("data offset", 0, kOperandMax);
    return {base == "ldt", off};
  }

  std::int64_t mp_address(Cursor& c) {
    const int col = c.col();
    auto [ldt, off] = data_address(c);
    if (ldt) fail(col, "this directive stores into module data: use @mp, not @ldt");
    return off;
  }

  void d_var(Cursor& c, const Token& word) {
    once(var_line_, word);
    const int col = c.col();
    if (mp_address(c) != 0) fail(col, "var takes @mp with no offset");
    c.expect(',', "after @mp");
    const auto size = c.integer_in("module data size", 0, kOperandMax);
    c.end();
    m_.data_size = static_cast<std::int32_t>(size);
    regions_.front().size = size;
  }

  // Checks that a store of `bytes` at `off` lies inside the current base.
  void check_store(std::int64_t off, std::int64_t bytes, int col) {
    const DataRegion& r = regions_.back();
    if (r.size < 0) {
      // Module data's size may only be known at the end (from desc $0).
      if (regions_.size() == 1) unsized_stores_.push_back({line_, col, off, bytes});
      return;
    }
    if (off + bytes > r.size) {
      if (regions_.size() == 1)
        fail(col, fmt::format("data at @mp+{} ({}) lies outside module data ({})", off,
                              plural(static_cast<std::size_t>(bytes), "byte"),
                              plural(static_cast<std::size_t>(r.size), "byte")));
      fail(col, fmt::format("data at offset {} ({}) lies outside the indexed array ({} from the "
                            "indexed element)",
                            off, plural(static_cast<std::size_t>(bytes), "byte"),
                            plural(static_cast<std::size_t>(r.size), "byte")));
    }
  }

  void d_values(Cursor& c, const Token& word) {
    const int acol = c.col();
    auto [ldt, off] = data_address(c);
    c.expect(',', "after the data address");
    if (ldt) {
      if (word.text != "word") fail(acol, fmt::format("'{}' cannot store into @ldt", word.text));
      return ldt_table(c, acol);
    }
    DataItem item;
    item.offset = static_cast<std::int32_t>(off);
    std::int64_t elem = 0;
    if (word.text == "byte") {
      item.kind = DataKind::Bytes;
      elem = 1;
    } else if (word.text == "word") {
      item.kind = DataKind::Words;
      elem = 4;
    } else if (word.text == "long") {
      item.kind = DataKind::Bigs;
      elem = 8;
    } else {
      item.kind = DataKind::Reals;
      elem = 8;
    }
    do {
      if (item.kind == DataKind::Reals) {
        item.values.push_back(real_bits(c));
        continue;
      }
      const IntLit lit = c.integer("a value");
      std::optional<std::int64_t> v;
      if (item.kind == DataKind::Bytes) {
        v = lit.in(-128, 255);
        if (v) *v &= 0xFF;
      } else if (item.kind == DataKind::Words) {
        v = lit.in(std::numeric_limits<std::int32_t>::min(), 0xFFFFFFFFLL);
        if (v) *v = static_cast<std::int32_t>(static_cast<std::uint32_t>(*v));
      } else {
        v = lit.in(std::numeric_limits<std::int64_t>::min(),
                   std::numeric_limits<std::int64_t>::max());
        if (!v && !lit.negative) v = static_cast<std::int64_t>(lit.magnitude);  // 64-bit pattern
      }
      if (!v) fail(lit.col, fmt::format("{} value {} out of range", word.text, lit.spelling()));
      item.values.push_back(*v);
    } while (c.accept(','));
    c.end();
    check_store(off, elem * static_cast<std::int64_t>(item.values.size()), acol);
    m_.data.push_back(std::move(item));
  }

  std::int64_t real_bits(Cursor& c) {
    const int col = c.col();
    const bool neg = c.accept('-');
    if (!neg) c.accept('+');
    const Token* k = c.peek();
    if (!k || (k->kind != TokKind::Number && k->kind != TokKind::Ident))
      fail(col, "expected a real value");
    const std::string text = c.next().text;
    double d;
    if (k->kind == TokKind::Ident) {
      if (text == "Inf" || text == "Infinity")
        d = std::numeric_limits<double>::infinity();
      else if (text == "NaN" && !neg)
        return 0x7FFFFFFFFFFFFFFFLL;  // Inferno's asm spells NaN this way
      else
        fail(col, fmt::format("bad real value '{}'", text));
    } else if (text.size() == 18 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
      std::uint64_t bits;
      if (!parse_magnitude(text, bits)) fail(col, fmt::format("bad real bit pattern '{}'", text));
      if (neg) fail(col, "a real bit pattern takes no sign");
      return static_cast<std::int64_t>(bits);
    } else {
      char* end = nullptr;
      d = std::strtod(text.c_str(), &end);
      if (end == text.c_str() || *end != '\0') fail(col, fmt::format("bad real value '{}'", text));
    }
    if (neg) d = -d;
    std::uint64_t bits;
    std::memcpy(&bits, &d, sizeof bits);
    return static_cast<std::int64_t>(bits);
  }

  void d_string(Cursor& c) {
    const int acol = c.col();
    const std::int64_t off = mp_address(c);
    c.expect(',', "after the data address");
    DataItem item;
    item.kind = DataKind::String;
    item.offset = static_cast<std::int32_t>(off);
    item.text = c.string("(the string's text)");
    c.end();
    if (item.text.size() > static_cast<std::size_t>(kOperandMax)) fail(acol, "string too long");
    check_store(off, 4, acol);
    m_.data.push_back(std::move(item));
  }

  void d_array(Cursor& c) {
    const int acol = c.col();
    const std::int64_t off = mp_address(c);
    c.expect(',', "after the data address");
    c.expect('$', "before the element type");
    const int tcol = c.col();
    const auto type = c.integer_in("element type", 0, std::numeric_limits<std::int32_t>::max());
    c.expect(',', "after the element type");
    const auto len = c.integer_in("array length", 0, std::numeric_limits<std::int32_t>::max());
    c.end();
    check_store(off, 4, acol);
    pending_.push_back({PendingRef::Desc, type, line_, tcol, ""});
    regions_.back().arrays[off] = {type, len};
    DataItem item;
    item.kind = DataKind::Array;
    item.offset = static_cast<std::int32_t>(off);
    item.values = {type, len};
    m_.data.push_back(std::move(item));
  }

  void d_indir(Cursor& c) {
    const int acol = c.col();
    const std::int64_t off = mp_address(c);
    c.expect(',', "after the data address");
    const int icol = c.col();
    const auto index = c.integer_in("array index", 0, std::numeric_limits<std::int32_t>::max());
    c.end();
    const auto it = regions_.back().arrays.find(off);
    if (it == regions_.back().arrays.end())
      fail(acol, fmt::format("indir: no array stored at offset {} by an earlier 'array'", off));
    const auto [type, len] = it->second;
    if (index >= len && !(index == 0 && len == 0))
      fail(icol, fmt::format("array index {} out of range (length {})", index, len));
    if (static_cast<int>(regions_.size()) > kDataBaseDepth)
      fail(acol, fmt::format("array initialisers nested more than {} deep", kDataBaseDepth));
    DataRegion r;
    for (const TypeDesc& t : m_.types)
      if (t.id == type) r.size = (len - index) * static_cast<std::int64_t>(t.size);
    regions_.push_back(std::move(r));
    DataItem item;
    item.kind = DataKind::SetIndex;
    item.offset = static_cast<std::int32_t>(off);
    item.values = {index};
    m_.data.push_back(std::move(item));
  }

  void d_apop(Cursor& c, const Token& word) {
    c.end();
    if (regions_.size() == 1) fail(word.col, "apop without a matching indir");
    regions_.pop_back();
    DataItem item;
    item.kind = DataKind::PopBase;
    item.offset = 0;
    m_.data.push_back(std::move(item));
  }

  void d_module(Cursor& c, const Token& word) {
    once(module_line_, word);
    m_.name = c.ident("a module name");
    c.end();
  }

  std::uint32_t signature_value(Cursor& c) {
    const IntLit lit = c.integer("a signature");
    const auto v = lit.in(std::numeric_limits<std::int32_t>::min(), 0xFFFFFFFFLL);
    if (!v) fail(lit.col, fmt::format("signature {} out of range (32 bits)", lit.spelling()));
    return static_cast<std::uint32_t>(*v);
  }

  void d_link(Cursor& c) {
    const int dcol = c.col();
    const auto desc = c.integer_in("link descriptor", -1, kOperandMax);
    c.expect(',', "after the link descriptor");
    const int pcol = c.col();
    const auto pc = c.integer_in("link pc", -1, kOperandMax);
    c.expect(',', "after the link pc");
    Link l;
    l.sig = signature_value(c);
    c.expect(',', "after the signature");
    const int ncol = c.col();
    l.name = c.string("(the exported name)");
    c.end();
    if (l.name.find('\0') != std::string::npos) fail(ncol, "a name cannot contain NUL");
    if (!link_names_.insert(l.name).second)
      fail(ncol, fmt::format("link \"{}\" defined twice", l.name));
    l.pc = static_cast<std::int32_t>(pc);
    l.frame_type = static_cast<std::int32_t>(desc);
    pending_.push_back({PendingRef::PcOrNone, pc, line_, pcol, "link pc"});
    pending_.push_back({PendingRef::DescOrNone, desc, line_, dcol, ""});
    m_.links.push_back(std::move(l));
  }

  void d_ldts(Cursor& c, const Token& word) {
    once(ldts_line_, word);
    const int col = c.col();
    auto [ldt, off] = data_address(c);
    if (!ldt || off != 0) fail(col, "ldts takes @ldt with no offset");
    c.expect(',', "after @ldt");
    ldts_count_ = c.integer_in("number of import tables", 0, kOperandMax);
    c.end();
  }

  // `word @ldt+off, count`: starts the next import table.
  void ldt_table(Cursor& c, int acol) {
    if (!ldts_line_) fail(acol, "@ldt data before the 'ldts' directive");
    // Opened before the count is read, so a malformed count does not make
    // each following ext line an error too.
    close_table();
    m_.imports.emplace_back();
    table_ = TableState{-1, line_, acol};
    table_->declared = c.integer_in("import count", 0, kOperandMax);
    c.end();
  }

  void close_table() {
    if (!table_) return;
    const std::size_t have = m_.imports.back().size();
    if (table_->declared >= 0 && static_cast<std::int64_t>(have) != table_->declared)
      error(table_->line, table_->col,
            fmt::format("import table declares {} but {} follow",
                        plural(static_cast<std::size_t>(table_->declared), "entry", "entries"),
                        have));
    table_.reset();
  }

  void d_ext(Cursor& c, const Token&) {
    const int acol = c.col();
    auto [ldt, off] = data_address(c);
    c.expect(',', "after the data address");
    Import imp;
    imp.sig = signature_value(c);
    c.expect(',', "after the signature");
    const int ncol = c.col();
    imp.name = c.string("(the imported name)");
    c.end();
    if (imp.name.find('\0') != std::string::npos) fail(ncol, "a name cannot contain NUL");
    if (ldt) {
      if (!table_) fail(acol, "ext @ldt before its table's 'word @ldt' line");
      m_.imports.back().push_back(std::move(imp));
      return;
    }
    // Without import tables Limbo writes the import into module data: the
    // signature word, then the name and its NUL.
    check_store(off, 4 + static_cast<std::int64_t>(imp.name.size()) + 1, acol);
    DataItem sig;
    sig.kind = DataKind::Words;
    sig.offset = static_cast<std::int32_t>(off);
    sig.values = {static_cast<std::int32_t>(imp.sig)};
    DataItem name;
    name.kind = DataKind::Bytes;
    name.offset = static_cast<std::int32_t>(off + 4);
    for (const char ch : imp.name) name.values.push_back(static_cast<std::uint8_t>(ch));
    name.values.push_back(0);
    m_.data.push_back(std::move(sig));
    m_.data.push_back(std::move(name));
  }

  void d_exceptions(Cursor& c, const Token& word) {
    once(exceptions_line_, word);
    c.integer_in("number of handlers", 0, kOperandMax);
    c.end();
  }

  void d_exception(Cursor& c, const Token& word) {
    close_handler();
    // Open the handler before reading the line, so that the exctab lines of a
    // malformed exception line attach to it instead of each reporting an error.
    m_.handlers.emplace_back();
    handler_ = HandlerState{-1, line_, word.col};
    std::int64_t v[6];
    int cols[6];
    static constexpr std::string_view kWhat[6] = {
        "handler pc1",  "handler pc2",      "exception frame offset",
        "handler type", "named case count", "ne"};
    static constexpr std::int64_t kLo[6] = {0, 0, 0, -1, 0, 0};
    static constexpr std::int64_t kHi[6] = {kOperandMax, kOperandMax, kOperandMax,
                                            kOperandMax, 0xFFFF,      (kOperandMax >> 16)};
    for (int i = 0; i < 6; ++i) {
      if (i > 0) c.expect(',', fmt::format("after the {}", kWhat[i - 1]));
      cols[i] = c.col();
      v[i] = c.integer_in(kWhat[i], kLo[i], kHi[i]);
    }
    c.end();
    Handler& h = m_.handlers.back();
    h.pc1 = static_cast<std::int32_t>(v[0]);
    h.pc2 = static_cast<std::int32_t>(v[1]);
    h.offset = static_cast<std::int32_t>(v[2]);
    h.type = static_cast<std::int32_t>(v[3]);
    h.ne = static_cast<std::int32_t>(v[5]);
    if (h.pc2 < h.pc1)
      fail(cols[1], fmt::format("handler pc2 {} is before its pc1 {}", h.pc2, h.pc1));
    pending_.push_back({PendingRef::Pc, v[0], line_, cols[0], "handler pc1"});
    pending_.push_back({PendingRef::PcEnd, v[1], line_, cols[1], "handler pc2"});
    pending_.push_back({PendingRef::DescOrNone, v[3], line_, cols[3], ""});
    handler_->nlab = v[4];
  }

  void d_exctab(Cursor& c, const Token& word) {
    if (!handler_) fail(word.col, "exctab outside an exception handler");
    if (c.accept('*')) {
      c.expect(',', "after '*'");
      const int pcol = c.col();
      const auto pc = c.integer_in("wildcard pc", -1, kOperandMax);
      c.end();
      m_.handlers.back().wildcard_pc = static_cast<std::int32_t>(pc);
      pending_.push_back({PendingRef::PcOrNone, pc, line_, pcol, "wildcard pc"});
      const std::size_t named = m_.handlers.back().cases.size();
      if (handler_->nlab >= 0 && static_cast<std::int64_t>(named) != handler_->nlab)
        error(line_, word.col,
              fmt::format("handler lists {} but its exception line declares {}",
                          plural(named, "named case"), handler_->nlab));
      handler_.reset();
      return;
    }
    HandlerCase hc;
    const int ncol = c.col();
    hc.name = c.string("or '*'");
    c.expect(',', "after the exception name");
    const int pcol = c.col();
    const auto pc = c.integer_in("handler case pc", 0, kOperandMax);
    c.end();
    if (hc.name.find('\0') != std::string::npos) fail(ncol, "a name cannot contain NUL");
    hc.pc = static_cast<std::int32_t>(pc);
    pending_.push_back({PendingRef::Pc, pc, line_, pcol, "handler case pc"});
    m_.handlers.back().cases.push_back(std::move(hc));
  }

  void close_handler() {
    if (!handler_) return;
    error(handler_->line, handler_->col, "exception handler not closed by an 'exctab *, pc' line");
    handler_.reset();
  }

  void d_source(Cursor& c, const Token& word) {
    once(source_line_, word);
    const int col = c.col();
    std::string path = c.string("(the source path)");
    c.end();
    if (path.find('\0') != std::string::npos) fail(col, "a path cannot contain NUL");
    m_.source_path = std::move(path);
  }

  void d_stackext(Cursor& c, const Token& word) {
    once(stackext_line_, word);
    stack_extent_ = c.integer_in("stack extent", 0, kOperandMax);
    c.end();
  }

  void d_flags(Cursor& c, const Token& word) {
    once(flags_line_, word);
    flags_col_ = c.col();
    flags_ = c.integer_in("flags", 0, kOperandMax);
    c.end();
  }

  void d_signature(Cursor& c, const Token& word) {
    once(signature_line_, word);
    const int col = c.col();
    const std::string hex = c.string("(the signature bytes in hex)");
    c.end();
    if (hex.size() % 2 != 0) fail(col, "signature has an odd number of hex digits");
    m_.signature.clear();
    for (std::size_t i = 0; i < hex.size(); i += 2) {
      std::uint64_t v;
      if (!parse_magnitude("0x" + hex.substr(i, 2), v))
        fail(col, fmt::format("bad hex digit in signature \"{}\"", hex));
      m_.signature.push_back(static_cast<std::uint8_t>(v));
    }
    m_.magic = kSMagic;
  }

  // ---- end of file ----

  void finish() {
    close_handler();
    close_table();
    const auto ncode = static_cast<std::int64_t>(m_.code.size());
    for (const PendingRef& r : pending_) {
      switch (r.kind) {
        case PendingRef::Branch:
        case PendingRef::Pc:
        case PendingRef::PcEnd:
        case PendingRef::PcOrNone: {
          if (r.kind == PendingRef::PcOrNone && r.value == -1) break;
          const std::int64_t hi = r.kind == PendingRef::PcEnd ? ncode : ncode - 1;
          if (r.value < 0 || r.value > hi)
            error(r.line, r.col,
                  fmt::format("{} {} out of range (module has {})", r.what, r.value,
                              plural(static_cast<std::size_t>(ncode), "instruction")));
          break;
        }
        case PendingRef::Desc:
        case PendingRef::DescOrNone:
          if (r.kind == PendingRef::DescOrNone && r.value == -1) break;
          if (!m_.types.empty() && !desc_ids_.count(static_cast<std::int32_t>(r.value)))
            error(r.line, r.col, fmt::format("undefined type descriptor ${}", r.value));
          break;
      }
    }
    if (ldts_line_ && static_cast<std::int64_t>(m_.imports.size()) != ldts_count_)
      error(*ldts_line_, 1,
            fmt::format("ldts declares {} but {} follow",
                        plural(static_cast<std::size_t>(ldts_count_), "import table"),
                        m_.imports.size()));

    const TypeDesc* mp_desc = nullptr;
    for (const TypeDesc& t : m_.types) {
      if (t.id == 0) mp_desc = &t;
      // The .dis format numbers descriptors 0..n-1 (in any order).
      if (t.id >= static_cast<std::int64_t>(m_.types.size()))
        error(desc_pos_.at(t.id).first, desc_pos_.at(t.id).second,
              fmt::format("descriptor ${} out of range: with {} the ids are 0..{}", t.id,
                          plural(m_.types.size(), "descriptor"), m_.types.size() - 1));
    }
    if (!var_line_ && mp_desc) m_.data_size = mp_desc->size;
    for (const UnsizedStore& st : unsized_stores_)
      if (st.off + st.bytes > m_.data_size)
        error(st.line, st.col,
              fmt::format("data at @mp+{} ({}) lies outside module data ({})", st.off,
                          plural(static_cast<std::size_t>(st.bytes), "byte"),
                          plural(static_cast<std::size_t>(m_.data_size), "byte")));
    if (var_line_ && m_.data_size != 0 && (!mp_desc || mp_desc->size != m_.data_size))
      error(*var_line_, 1,
            mp_desc ? fmt::format("module data size {} differs from descriptor $0's size {}",
                                  m_.data_size, mp_desc->size)
                    : fmt::format("module data size {} but no descriptor $0 describes it",
                                  m_.data_size));
    if (m_.name.empty()) m_.name = "main";  // Inferno's assembler's default

    std::int32_t max_frame = 0;
    for (const TypeDesc& t : m_.types)
      if (t.id != 0) max_frame = std::max(max_frame, t.size);
    if (stack_extent_)
      m_.stack_extent = static_cast<std::int32_t>(*stack_extent_);
    else
      m_.stack_extent = static_cast<std::int32_t>(
          std::min<std::int64_t>(std::int64_t{10} * max_frame, kOperandMax));

    if (flags_) {
      m_.flags = static_cast<std::uint32_t>(*flags_);
      if (m_.flags & kHasLdt0)
        error(*flags_line_, flags_col_, "flags include the obsolete HASLDT0 (0x10)");
      if (!m_.imports.empty() && !(m_.flags & kHasLdt))
        error(*flags_line_, flags_col_, "flags lack HASLDT (0x40) but import tables are present");
      if (!m_.handlers.empty() && !(m_.flags & kHasExcept))
        error(*flags_line_, flags_col_, "flags lack HASEXCEPT (0x20) but handlers are present");
    } else {
      m_.flags = 0;
      if (ldts_line_) m_.flags |= kHasLdt;
      if (exceptions_line_ || !m_.handlers.empty()) m_.flags |= kHasExcept;
    }
    m_.source_files = {file_};
  }

  struct TableState {
    std::int64_t declared;  // -1 while the count is unread or malformed
    int line;
    int col;
  };
  struct HandlerState {
    std::int64_t nlab;  // -1 while the exception line is unread or malformed
    int line;
    int col;
  };

  std::string file_;
  Module m_;
  std::vector<Diagnostic> diags_;
  int statements_ = 0;  // lines with something on them
  int line_ = 0;
  std::vector<PendingRef> pending_;
  std::set<std::int32_t> desc_ids_;
  std::map<std::int32_t, std::pair<int, int>> desc_pos_;  // id -> (line, col)
  std::set<std::string> link_names_;
  std::vector<DataRegion> regions_ = std::vector<DataRegion>(1);
  struct UnsizedStore {
    int line, col;
    std::int64_t off, bytes;
  };
  std::vector<UnsizedStore> unsized_stores_;
  std::optional<int> entry_line_, var_line_, module_line_, ldts_line_, exceptions_line_,
      source_line_, stackext_line_, flags_line_, signature_line_;
  std::int64_t ldts_count_ = 0;
  std::optional<TableState> table_;
  std::optional<HandlerState> handler_;
  std::optional<std::int64_t> stack_extent_, flags_;
  int flags_col_ = 1;
};

}  // namespace

Module assemble(std::string_view text, const std::string& filename) {
  return Assembler(filename).run(text);
}

}  // namespace dis::assembly
