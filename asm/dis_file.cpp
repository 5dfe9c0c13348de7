#include "dis_file.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <limits>

#include "dis_data.h"

namespace dis {

namespace {

std::string hex(unsigned v) {
  static const char* digits = "0123456789abcdef";
  std::string s = "0x";
  s += digits[(v >> 4) & 15];
  s += digits[v & 15];
  return s;
}

bool in16u(std::int32_t v) { return v >= 0 && v <= 0xFFFF; }

// The byte cursor of the reader: every read is bounds-checked and every
// failure names the byte offset where the offending field starts.
class Cursor {
 public:
  Cursor(std::span<const std::uint8_t> bytes, const std::string& file)
      : bytes_(bytes), file_(file) {}

  [[noreturn]] void fail(std::size_t at, const std::string& msg) const {
    throw InputError(Diagnostic{file_, 0, 0, static_cast<std::int64_t>(at), msg});
  }
  std::size_t pos() const { return pos_; }
  std::size_t left() const { return bytes_.size() - pos_; }

  std::int32_t operand(const std::string& what) {
    auto d = decode_operand(bytes_, pos_);
    if (!d) fail(pos_, "truncated " + what);
    pos_ += d->length;
    return d->value;
  }
  // An operand that must not be negative (a size or a count).
  std::int32_t size(const std::string& what) {
    const std::size_t at = pos_;
    const std::int32_t v = operand(what);
    if (v < 0) fail(at, "negative " + what + " " + std::to_string(v));
    return v;
  }
  // A count of records each at least `min_bytes` long: a count the rest of
  // the file cannot hold is refused before anything is allocated for it.
  std::int32_t count(const std::string& what, std::size_t min_bytes) {
    const std::size_t at = pos_;
    const std::int32_t n = size(what);
    check_count(at, n, min_bytes, what);
    budget(at, n, what);
    return n;
  }
  void check_count(std::size_t at, std::int64_t n, std::size_t min_bytes,
                   const std::string& what) const {
    if (static_cast<std::uint64_t>(n) * min_bytes > left())
      fail(at, what + " " + std::to_string(n) + " exceeds the " + std::to_string(left()) +
                   " bytes left in the file");
  }
  // Bounds the memory a Module read from at most 8 MiB can take: every
  // record (instruction, type, data item, link, import, handler label) counts.
  void budget(std::size_t at, std::int64_t n, const std::string& what) {
    records_ += n;
    if (records_ > kMaxDisRecords)
      fail(at, what + ": implausible .dis file (more than " + std::to_string(kMaxDisRecords) +
                   " records)");
  }
  std::uint8_t byte(const std::string& what) {
    if (left() < 1) fail(pos_, "truncated " + what);
    return bytes_[pos_++];
  }
  std::uint32_t word(const std::string& what) {
    if (left() < 4) fail(pos_, "truncated " + what);
    std::uint32_t w = 0;
    for (int i = 0; i < 4; ++i) w = (w << 8) | bytes_[pos_++];
    return w;
  }
  std::span<const std::uint8_t> take(std::size_t n, const std::string& what) {
    if (left() < n) fail(pos_, "truncated " + what);
    auto s = bytes_.subspan(pos_, n);
    pos_ += n;
    return s;
  }
  std::string cstring(const std::string& what) {
    const std::size_t start = pos_;
    std::size_t end = start;
    while (end < bytes_.size() && bytes_[end] != 0) ++end;
    if (end == bytes_.size()) fail(start, "unterminated " + what);
    pos_ = end + 1;
    return std::string(reinterpret_cast<const char*>(bytes_.data() + start), end - start);
  }

 private:
  std::span<const std::uint8_t> bytes_;
  const std::string& file_;
  std::size_t pos_ = 0;
  std::int64_t records_ = 0;
};

Operand read_operand(Cursor& c, unsigned mode, const char* which) {
  Operand o;
  o.mode = static_cast<AddrMode>(mode);
  switch (o.mode) {
    case AddrMode::None:
      break;
    case AddrMode::Mp:
    case AddrMode::Fp:
    case AddrMode::Imm:
      o.a = c.operand(std::string(which) + " operand");
      break;
    case AddrMode::IndMp:
    case AddrMode::IndFp:
      o.a = c.operand(std::string(which) + " operand");
      o.b = c.operand(std::string(which) + " operand");
      break;
  }
  return o;
}

void read_header(Cursor& c, Module& m, std::int32_t& code_size, std::int32_t& type_size,
                 std::int32_t& link_size, std::size_t& data_size_at) {
  m.magic = c.operand("magic number");
  if (m.magic == kSMagic) {
    const std::size_t at = c.pos();
    const std::int32_t n = c.size("signature length");
    c.check_count(at, n, 1, "signature length");
    auto sig = c.take(static_cast<std::size_t>(n), "signature");
    m.signature.assign(sig.begin(), sig.end());
  } else if (m.magic != kXMagic) {
    c.fail(0, "bad magic number " + std::to_string(m.magic) + " (not a .dis file)");
  }
  const std::size_t flags_at = c.pos();
  m.flags = static_cast<std::uint32_t>(c.operand("runtime flags"));
  if (m.flags & kHasLdt0) c.fail(flags_at, "obsolete .dis layout (runtime flag HASLDT0 0x10)");
  m.stack_extent = c.size("stack extent");
  code_size = c.size("code size");
  data_size_at = c.pos();
  m.data_size = c.size("data size");
  type_size = c.size("type section size");
  link_size = c.size("link section size");
  m.entry_pc = c.operand("entry pc");
  m.entry_type = c.operand("entry type");
}

void read_code(Cursor& c, Module& m, std::int32_t code_size) {
  c.check_count(c.pos(), code_size, 2, "code size");
  c.budget(c.pos(), code_size, "code size");
  m.code.reserve(static_cast<std::size_t>(code_size));
  for (std::int32_t pc = 0; pc < code_size; ++pc) {
    const std::size_t at = c.pos();
    const std::string where = "instruction " + std::to_string(pc);
    const std::uint8_t opcode = c.byte(where);
    if (!valid_opcode(opcode)) c.fail(at, where + ": invalid opcode " + hex(opcode));
    const std::uint8_t mode = c.byte(where + " address mode");
    const unsigned src = (mode >> 3) & 7, dst = mode & 7;
    if (src > 5) c.fail(at + 1, where + ": reserved source address mode " + std::to_string(src));
    if (dst > 5)
      c.fail(at + 1, where + ": reserved destination address mode " + std::to_string(dst));
    Instruction in;
    in.op = static_cast<Op>(opcode);
    in.mid.mode = static_cast<MidMode>(mode >> 6);
    if (in.mid.mode != MidMode::None) in.mid.a = c.operand(where + " middle operand");
    in.src = read_operand(c, src, (where + " source").c_str());
    in.dst = read_operand(c, dst, (where + " destination").c_str());
    if (auto problem = instruction_encoding_problem(in))
      c.fail(at, where + " (" + std::string(op_name(in.op)) + "): " + *problem);
    m.code.push_back(in);
  }
}

void read_types(Cursor& c, Module& m, std::int32_t type_size) {
  c.check_count(c.pos(), type_size, 3, "type section size");
  c.budget(c.pos(), type_size, "type section size");
  m.types.reserve(static_cast<std::size_t>(type_size));
  std::vector<bool> seen(static_cast<std::size_t>(type_size), false);
  for (std::int32_t i = 0; i < type_size; ++i) {
    const std::string where = "type descriptor " + std::to_string(i);
    const std::size_t at = c.pos();
    TypeDesc t;
    t.id = c.operand(where + " id");
    if (t.id < 0 || t.id >= type_size)
      c.fail(at, where + ": id " + std::to_string(t.id) + " outside 0.." +
                     std::to_string(type_size - 1));
    if (seen[static_cast<std::size_t>(t.id)])
      c.fail(at, where + ": duplicate id " + std::to_string(t.id));
    seen[static_cast<std::size_t>(t.id)] = true;
    t.size = c.size(where + " size");
    const std::size_t map_at = c.pos();
    const std::int32_t n = c.size(where + " pointer map length");
    if (n > kMaxTypeMapBytes)
      c.fail(map_at, where + ": pointer map of " + std::to_string(n) + " bytes (limit " +
                         std::to_string(kMaxTypeMapBytes) + ")");
    auto map = c.take(static_cast<std::size_t>(n), where + " pointer map");
    t.map.assign(map.begin(), map.end());
    m.types.push_back(std::move(t));
  }
}

// Reads the data items; returns the file offset of each (for diagnostics).
std::vector<std::size_t> read_data(Cursor& c, Module& m) {
  std::vector<std::size_t> item_at;
  for (;;) {
    const std::size_t at = c.pos();
    const std::string where = "data item " + std::to_string(m.data.size());
    const std::uint8_t ctl = c.byte("data section");
    if (ctl == 0) break;
    const unsigned kind = ctl >> 4;
    if (kind < 1 || kind > 8) c.fail(at, where + ": unknown kind " + std::to_string(kind));
    c.budget(at, 1, where);
    DataItem d;
    d.kind = static_cast<DataKind>(kind);
    std::int64_t n = ctl & 15;
    const std::size_t count_at = c.pos();
    if (n == 0) n = c.size(where + " count");
    d.offset = c.operand(where + " offset");
    auto values = [&](std::size_t width) {
      c.check_count(count_at, n, width, where + " count");
      d.values.reserve(static_cast<std::size_t>(n));
    };
    switch (d.kind) {
      case DataKind::Bytes:
        values(1);
        for (std::int64_t i = 0; i < n; ++i) d.values.push_back(c.byte(where));
        break;
      case DataKind::Words:
        values(4);
        for (std::int64_t i = 0; i < n; ++i)
          d.values.push_back(static_cast<std::int32_t>(c.word(where)));
        break;
      case DataKind::Reals:
      case DataKind::Bigs:
        values(8);
        for (std::int64_t i = 0; i < n; ++i) {
          const std::uint64_t hi = c.word(where);
          const std::uint64_t lo = c.word(where);
          d.values.push_back(static_cast<std::int64_t>(hi << 32 | lo));
        }
        break;
      case DataKind::String: {
        c.check_count(count_at, n, 1, where + " string length");
        auto s = c.take(static_cast<std::size_t>(n), where + " string");
        d.text.assign(reinterpret_cast<const char*>(s.data()), s.size());
        break;
      }
      case DataKind::Array:  // the count is ignored, as Inferno's loader does
        d.values.push_back(static_cast<std::int32_t>(c.word(where + " array type")));
        d.values.push_back(static_cast<std::int32_t>(c.word(where + " array length")));
        break;
      case DataKind::SetIndex:
        d.values.push_back(static_cast<std::int32_t>(c.word(where + " array index")));
        break;
      case DataKind::PopBase:
        break;
    }
    item_at.push_back(at);
    m.data.push_back(std::move(d));
  }
  return item_at;
}

void read_links(Cursor& c, Module& m, std::int32_t link_size) {
  c.check_count(c.pos(), link_size, 7, "link section size");
  c.budget(c.pos(), link_size, "link section size");
  m.links.reserve(static_cast<std::size_t>(link_size));
  for (std::int32_t i = 0; i < link_size; ++i) {
    const std::string where = "link " + std::to_string(i);
    Link l;
    l.pc = c.operand(where + " pc");
    l.frame_type = c.operand(where + " type");
    l.sig = c.word(where + " signature");
    l.name = c.cstring(where + " name");
    m.links.push_back(std::move(l));
  }
}

void read_terminator(Cursor& c, const std::string& section) {
  const std::size_t at = c.pos();
  if (c.byte(section + " terminator") != 0) c.fail(at, section + " not terminated by a 0 byte");
}

void read_imports(Cursor& c, Module& m) {
  const std::int32_t ntables = c.count("import table count", 1);
  m.imports.reserve(static_cast<std::size_t>(ntables));
  for (std::int32_t t = 0; t < ntables; ++t) {
    const std::string where = "import table " + std::to_string(t);
    const std::int32_t n = c.count(where + " size", 5);
    ImportTable table;
    table.reserve(static_cast<std::size_t>(n));
    for (std::int32_t i = 0; i < n; ++i) {
      Import im;
      im.sig = c.word(where + " signature");
      im.name = c.cstring(where + " name");
      table.push_back(std::move(im));
    }
    m.imports.push_back(std::move(table));
  }
  read_terminator(c, "import section");
}

void read_handlers(Cursor& c, Module& m) {
  const std::int32_t nh = c.count("handler count", 6);
  m.handlers.reserve(static_cast<std::size_t>(nh));
  for (std::int32_t i = 0; i < nh; ++i) {
    const std::string where = "handler " + std::to_string(i);
    Handler h;
    h.offset = c.operand(where + " frame offset");
    h.pc1 = c.operand(where + " pc range");
    h.pc2 = c.operand(where + " pc range");
    h.type = c.operand(where + " type");
    const std::size_t nlab_at = c.pos();
    const std::int32_t word = c.operand(where + " label count");
    h.ne = word >> 16;
    const std::int32_t nlab = word & 0xFFFF;
    c.check_count(nlab_at, nlab, 2, where + " label count");
    c.budget(nlab_at, nlab, where + " label count");
    h.cases.reserve(static_cast<std::size_t>(nlab));
    for (std::int32_t k = 0; k < nlab; ++k) {
      HandlerCase hc;
      hc.name = c.cstring(where + " exception name");
      hc.pc = c.operand(where + " label pc");
      h.cases.push_back(std::move(hc));
    }
    h.wildcard_pc = c.operand(where + " wildcard pc");
    m.handlers.push_back(std::move(h));
  }
  read_terminator(c, "handler section");
}

}  // namespace

std::optional<std::string> instruction_encoding_problem(const Instruction& in) {
  if (!valid_opcode(static_cast<unsigned>(in.op))) return "invalid opcode";
  if (static_cast<unsigned>(in.mid.mode) > 3) return "invalid middle operand mode";
  if (static_cast<unsigned>(in.src.mode) > 5) return "invalid source address mode";
  if (static_cast<unsigned>(in.dst.mode) > 5) return "invalid destination address mode";
  const bool src = in.src.mode != AddrMode::None, dst = in.dst.mode != AddrMode::None;
  const bool mid = in.mid.mode != MidMode::None;
  if (src != has_src(in.op)) return src ? "source operand not allowed" : "missing source operand";
  if (dst != has_dst(in.op))
    return dst ? "destination operand not allowed" : "missing destination operand";
  if (mid && !mid_allowed(in.op)) return "middle operand not allowed";
  if (!mid && mid_allowed(in.op) && !mid_optional(in.op)) return "missing middle operand";
  if (in.mid.mode == MidMode::Imm && (in.mid.a < -32768 || in.mid.a > 32767))
    return "middle immediate " + std::to_string(in.mid.a) + " exceeds 16 bits";
  if ((in.mid.mode == MidMode::Fp || in.mid.mode == MidMode::Mp) && !in16u(in.mid.a))
    return "middle offset " + std::to_string(in.mid.a) + " outside 0..65535";
  for (const Operand* o : {&in.src, &in.dst}) {
    if ((o->mode == AddrMode::IndMp || o->mode == AddrMode::IndFp) &&
        (!in16u(o->a) || !in16u(o->b)))
      return "double-indirect offsets " + std::to_string(o->b) + "(" + std::to_string(o->a) +
             ") outside 0..65535";
    if (!operand_fits(o->a) || !operand_fits(o->b)) return "operand value does not fit in 30 bits";
  }
  if (!operand_fits(in.mid.a)) return "operand value does not fit in 30 bits";
  return std::nullopt;
}

Module read_dis(std::span<const std::uint8_t> bytes, const std::string& filename) {
  Cursor c(bytes, filename);
  if (bytes.size() > kMaxDisFileSize)
    c.fail(kMaxDisFileSize, "file larger than " + std::to_string(kMaxDisFileSize) + " bytes");
  Module m;
  std::int32_t code_size = 0, type_size = 0, link_size = 0;
  std::size_t data_size_at = 0;
  read_header(c, m, code_size, type_size, link_size, data_size_at);
  read_code(c, m, code_size);
  read_types(c, m, type_size);
  if (m.data_size != 0) {
    const TypeDesc* mp = nullptr;
    for (const TypeDesc& t : m.types)
      if (t.id == 0) mp = &t;
    if (mp == nullptr || mp->size != m.data_size)
      c.fail(data_size_at, "data size " + std::to_string(m.data_size) +
                               " does not match type 0 (the module data descriptor, size " +
                               (mp ? std::to_string(mp->size) : std::string("missing")) + ")");
  }
  const std::vector<std::size_t> item_at = read_data(c, m);
  if (auto err = walk_data(m, [](DataValue&&) {}))
    c.fail(item_at[err->item], "data item " + std::to_string(err->item) + ": " + err->message);
  m.name = c.cstring("module name");
  read_links(c, m, link_size);
  if (m.flags & kHasLdt) read_imports(c, m);
  if (m.flags & kHasExcept) read_handlers(c, m);
  if (c.left() > 0) {
    m.source_path = c.cstring("source path");
    if (c.left() > 0) c.fail(c.pos(), "unexpected bytes after the source path");
  }
  return m;
}

Module read_dis_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw InputError(
        Diagnostic{path, 0, 0, -1, std::string("cannot open: ") + std::strerror(errno)});
  std::vector<std::uint8_t> bytes;
  char buf[65536];
  while (in) {
    in.read(buf, sizeof buf);
    bytes.insert(bytes.end(), buf, buf + in.gcount());
    if (bytes.size() > kMaxDisFileSize) break;  // read_dis refuses it; read no further
  }
  if (in.bad()) throw InputError(Diagnostic{path, 0, 0, -1, "read error"});
  return read_dis(bytes, path);
}

// ---------------------------------------------------------------- writer

namespace {

void put_string(std::vector<std::uint8_t>& out, const std::string& s, const std::string& what) {
  if (s.find('\0') != std::string::npos) throw EncodeError(what + " contains a NUL byte");
  out.insert(out.end(), s.begin(), s.end());
  out.push_back(0);
}

void put_operand_field(std::vector<std::uint8_t>& out, const Operand& o) {
  switch (o.mode) {
    case AddrMode::None:
      break;
    case AddrMode::Mp:
    case AddrMode::Fp:
    case AddrMode::Imm:
      put_operand(out, o.a);
      break;
    case AddrMode::IndMp:
    case AddrMode::IndFp:
      put_operand(out, o.a);
      put_operand(out, o.b);
      break;
  }
}

void put_data_header(std::vector<std::uint8_t>& out, DataKind kind, std::int64_t n,
                     std::int32_t offset) {
  const auto k = static_cast<std::uint8_t>(static_cast<unsigned>(kind) << 4);
  if (n > 0 && n < 16) {
    out.push_back(static_cast<std::uint8_t>(k | n));
  } else {
    out.push_back(k);
    put_operand(out, n, "data item count");
  }
  put_operand(out, offset, "data item offset");
}

std::uint32_t checked_word(std::int64_t v, const std::string& what) {
  if (v < std::numeric_limits<std::int32_t>::min() || v > std::numeric_limits<std::uint32_t>::max())
    throw EncodeError(what + " " + std::to_string(v) + " does not fit in 32 bits");
  return static_cast<std::uint32_t>(v);
}

void put_data(std::vector<std::uint8_t>& out, const Module& m) {
  const std::vector<DataItem> items = merge_data_items(m.data);
  for (std::size_t i = 0; i < items.size(); ++i) {
    const DataItem& d = items[i];
    const std::string where = "data item " + std::to_string(i);
    switch (d.kind) {
      case DataKind::Bytes:
        put_data_header(out, d.kind, static_cast<std::int64_t>(d.values.size()), d.offset);
        for (std::int64_t v : d.values) {
          if (v < -128 || v > 255) throw EncodeError(where + ": byte value " + std::to_string(v));
          out.push_back(static_cast<std::uint8_t>(v));
        }
        break;
      case DataKind::Words:
        put_data_header(out, d.kind, static_cast<std::int64_t>(d.values.size()), d.offset);
        for (std::int64_t v : d.values) put_word(out, checked_word(v, where + ": word"));
        break;
      case DataKind::Reals:
      case DataKind::Bigs:
        put_data_header(out, d.kind, static_cast<std::int64_t>(d.values.size()), d.offset);
        for (std::int64_t v : d.values) {
          const auto u = static_cast<std::uint64_t>(v);
          put_word(out, static_cast<std::uint32_t>(u >> 32));
          put_word(out, static_cast<std::uint32_t>(u));
        }
        break;
      case DataKind::String:
        put_data_header(out, d.kind, static_cast<std::int64_t>(d.text.size()), d.offset);
        out.insert(out.end(), d.text.begin(), d.text.end());
        break;
      case DataKind::Array:
      case DataKind::SetIndex:
      case DataKind::PopBase: {
        const std::size_t nvalues = d.kind == DataKind::Array      ? 2
                                    : d.kind == DataKind::SetIndex ? 1
                                                                   : 0;
        if (d.values.size() != nvalues)
          throw EncodeError(where + ": needs " + std::to_string(nvalues) + " values");
        put_data_header(out, d.kind, 1, d.offset);  // Limbo writes count 1; loaders ignore it
        for (std::int64_t v : d.values) put_word(out, checked_word(v, where + ": word"));
        break;
      }
      default:
        throw EncodeError(where + ": invalid kind");
    }
  }
  out.push_back(0);
}

}  // namespace

std::vector<std::uint8_t> write_dis(const Module& m) {
  std::vector<std::uint8_t> out;
  if (m.magic != kXMagic && m.magic != kSMagic)
    throw EncodeError("bad magic number " + std::to_string(m.magic));
  if (m.flags & kHasLdt0) throw EncodeError("obsolete runtime flag HASLDT0 (0x10)");
  if (!(m.flags & kHasLdt) && !m.imports.empty())
    throw EncodeError("import tables present but runtime flag HASLDT (0x40) not set");
  if (!(m.flags & kHasExcept) && !m.handlers.empty())
    throw EncodeError("exception handlers present but runtime flag HASEXCEPT (0x20) not set");
  put_operand(out, m.magic);
  if (m.magic == kSMagic) {
    put_operand(out, static_cast<std::int64_t>(m.signature.size()), "signature length");
    out.insert(out.end(), m.signature.begin(), m.signature.end());
  }
  put_operand(out, static_cast<std::int32_t>(m.flags), "runtime flags");
  put_operand(out, m.stack_extent, "stack extent");
  put_operand(out, static_cast<std::int64_t>(m.code.size()), "code size");
  put_operand(out, m.data_size, "data size");
  put_operand(out, static_cast<std::int64_t>(m.types.size()), "type section size");
  put_operand(out, static_cast<std::int64_t>(m.links.size()), "link section size");
  put_operand(out, m.entry_pc, "entry pc");
  put_operand(out, m.entry_type, "entry type");

  for (std::size_t pc = 0; pc < m.code.size(); ++pc) {
    const Instruction& in = m.code[pc];
    if (auto problem = instruction_encoding_problem(in))
      throw EncodeError("instruction " + std::to_string(pc) + ": " + *problem);
    out.push_back(static_cast<std::uint8_t>(in.op));
    out.push_back(static_cast<std::uint8_t>(static_cast<unsigned>(in.mid.mode) << 6 |
                                            static_cast<unsigned>(in.src.mode) << 3 |
                                            static_cast<unsigned>(in.dst.mode)));
    if (in.mid.mode != MidMode::None) put_operand(out, in.mid.a);
    put_operand_field(out, in.src);
    put_operand_field(out, in.dst);
  }

  for (const TypeDesc& t : m.types) {
    if (t.map.size() > static_cast<std::size_t>(kMaxTypeMapBytes))
      throw EncodeError("type " + std::to_string(t.id) + ": pointer map too long");
    put_operand(out, t.id, "type id");
    put_operand(out, t.size, "type size");
    put_operand(out, static_cast<std::int64_t>(t.map.size()), "type map length");
    out.insert(out.end(), t.map.begin(), t.map.end());
  }

  put_data(out, m);
  put_string(out, m.name, "module name");

  for (const Link& l : m.links) {
    put_operand(out, l.pc, "link pc");
    put_operand(out, l.frame_type, "link type");
    put_word(out, l.sig);
    put_string(out, l.name, "link name");
  }
  if (m.flags & kHasLdt) {
    put_operand(out, static_cast<std::int64_t>(m.imports.size()), "import table count");
    for (const ImportTable& table : m.imports) {
      put_operand(out, static_cast<std::int64_t>(table.size()), "import table size");
      for (const Import& im : table) {
        put_word(out, im.sig);
        put_string(out, im.name, "import name");
      }
    }
    out.push_back(0);
  }
  if (m.flags & kHasExcept) {
    put_operand(out, static_cast<std::int64_t>(m.handlers.size()), "handler count");
    for (const Handler& h : m.handlers) {
      put_operand(out, h.offset, "handler offset");
      put_operand(out, h.pc1, "handler pc");
      put_operand(out, h.pc2, "handler pc");
      put_operand(out, h.type, "handler type");
      if (h.cases.size() > 0xFFFF) throw EncodeError("handler with more than 65535 labels");
      put_operand(
          out, static_cast<std::int64_t>(h.ne) * 65536 + static_cast<std::int64_t>(h.cases.size()),
          "handler label count");
      for (const HandlerCase& hc : h.cases) {
        put_string(out, hc.name, "exception name");
        put_operand(out, hc.pc, "handler label pc");
      }
      put_operand(out, h.wildcard_pc, "handler wildcard pc");
    }
    out.push_back(0);
  }
  if (m.source_path) put_string(out, *m.source_path, "source path");
  if (out.size() > kMaxDisFileSize) throw EncodeError("module larger than 8 MiB as a .dis file");
  return out;
}

void write_dis_file(const Module& m, const std::string& path) {
  const std::vector<std::uint8_t> bytes = write_dis(m);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out)
    throw InputError(
        Diagnostic{path, 0, 0, -1, std::string("cannot create: ") + std::strerror(errno)});
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
  out.close();
  if (!out) throw InputError(Diagnostic{path, 0, 0, -1, "write error"});
}

}  // namespace dis
