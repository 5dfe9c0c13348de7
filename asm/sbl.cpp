#include "sbl.h"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <limits>
#include <sstream>

#include "diag.h"

namespace dis {

bool SblType::operator==(const SblType& o) const {
  return kind == o.kind && index == o.index && size == o.size && name == o.name && src == o.src &&
         ids == o.ids && sub == o.sub && tags == o.tags;
}

namespace {

// Nesting limit for types: a lying file must not exhaust the host stack.
constexpr int kMaxTypeDepth = 200;

class Reader {
 public:
  Reader(std::string_view text, const std::string& filename) : text_(text), file_(filename) {}

  Sbl parse() {
    Sbl s;
    s.source_name = file_;
    std::string magic = line_text("version line");
    const std::string prefix = "limbo .sbl ";
    if (magic.rfind(prefix, 0) != 0) fail_at(1, 1, "not a .sbl file (bad magic line)");
    s.version = magic.substr(prefix.size());
    if (s.version != "2.1" && s.version != "2.0" && s.version != "1.1" && s.version != "1.")
      fail_at(1, static_cast<int>(prefix.size()) + 1,
              fmt::format("unsupported .sbl version '{}'", s.version));
    s.module = line_text("module name");
    const std::int32_t nfiles = count("file count");
    for (std::int32_t i = 0; i < nfiles; ++i) s.files.push_back(line_text("file name"));
    const std::int32_t npcs = count("pc count");
    s.pcs.reserve(static_cast<std::size_t>(std::min<std::int32_t>(npcs, 1 << 16)));
    for (std::int32_t i = 0; i < npcs; ++i) {
      SblPcEntry e;
      e.src = src();
      e.block = integer("statement number");
      expect('\n');
      s.pcs.push_back(e);
    }
    if (s.version[0] == '1') {
      s.raw_tail = std::string(text_.substr(pos_));
      return s;
    }
    const std::int32_t ntypes = count("type count");
    for (std::int32_t i = 0; i < ntypes; ++i) s.types.push_back(type(0));
    const std::int32_t nfns = count("fn count");
    for (std::int32_t i = 0; i < nfns; ++i) {
      SblFn f;
      f.pc = integer("fn pc");
      expect(':');
      f.name = until('\n', "fn name");
      expect('\n');
      f.args = id_table(0);
      f.locals = id_table(0);
      f.ret = type(0);
      s.fns.push_back(std::move(f));
    }
    s.globals = id_table(0);
    if (pos_ != text_.size()) fail("unexpected text after the global table");
    return s;
  }

 private:
  std::string_view text_;
  std::string file_;
  std::size_t pos_ = 0;
  int line_ = 1, col_ = 1;
  SblPos run_;  // the running (file, line) pair

  [[noreturn]] void fail_at(int line, int col, std::string msg) const {
    throw InputError(Diagnostic{file_, line, col, -1, std::move(msg)});
  }
  [[noreturn]] void fail(std::string msg) const { fail_at(line_, col_, std::move(msg)); }

  int peek() const { return pos_ < text_.size() ? static_cast<unsigned char>(text_[pos_]) : -1; }
  void advance() {
    if (text_[pos_] == '\n') {
      ++line_;
      col_ = 1;
    } else {
      ++col_;
    }
    ++pos_;
  }
  static std::string show(int c) {
    if (c < 0) return "end of file";
    if (c == '\n') return "end of line";
    return fmt::format("'{}'", static_cast<char>(c));
  }
  void expect(char c) {
    if (peek() != static_cast<unsigned char>(c))
      fail(fmt::format("expected {}, found {}", show(c), show(peek())));
    advance();
  }

  std::string line_text(const char* what) {
    std::string s = until('\n', what);
    expect('\n');
    return s;
  }
  // Text up to (not including) `stop`; it must be followed by `stop`.
  std::string until(char stop, const char* what) {
    const std::size_t begin = pos_;
    while (peek() >= 0 && peek() != static_cast<unsigned char>(stop)) {
      if (peek() == '\n') fail(fmt::format("unexpected end of line in {}", what));
      advance();
    }
    if (peek() < 0) fail(fmt::format("unexpected end of file in {}", what));
    return std::string(text_.substr(begin, pos_ - begin));
  }

  std::int32_t integer(const char* what) {
    const int l = line_, c = col_;
    bool neg = false;
    if (peek() == '-') {
      neg = true;
      advance();
    }
    if (peek() < '0' || peek() > '9')
      fail(fmt::format("expected a number ({}), found {}", what, show(peek())));
    std::int64_t v = 0;
    while (peek() >= '0' && peek() <= '9') {
      v = v * 10 + (peek() - '0');
      if (v > std::numeric_limits<std::int32_t>::max())
        fail_at(l, c, fmt::format("{} out of range", what));
      advance();
    }
    return static_cast<std::int32_t>(neg ? -v : v);
  }
  std::int32_t count(const char* what) {
    const int l = line_, c = col_;
    const std::int32_t n = integer(what);
    if (n < 0) fail_at(l, c, fmt::format("negative {}", what));
    // Every entry takes at least two bytes, so a count beyond that is a lie.
    if (static_cast<std::size_t>(n) > (text_.size() - pos_) / 2 + 1)
      fail_at(l, c, fmt::format("{} {} exceeds the file's size", what, n));
    expect('\n');
    return n;
  }

  // [file:][line.]char, with omitted parts taken from `deflt`.
  SblPos position(SblPos deflt) {
    SblPos p = deflt;
    std::int32_t v = integer("position");
    if (peek() == ':') {
      advance();
      p.file = v;
      v = integer("position");
    }
    if (peek() == '.') {
      advance();
      p.line = v;
      v = integer("position");
    }
    p.col = v;
    return p;
  }
  // `start,stop ` (the trailing space is part of the source description).
  SblSrc src() {
    SblSrc s;
    s.start = position(run_);
    expect(',');
    s.stop = position(SblPos{s.start.file, s.start.line, 0});
    expect(' ');
    run_ = s.stop;
    return s;
  }

  std::vector<SblId> id_table(int depth) {
    const std::int32_t n = count("id count");
    std::vector<SblId> ids;
    for (std::int32_t i = 0; i < n; ++i) {
      SblId id;
      id.offset = integer("id offset");
      expect(':');
      id.name = until(':', "id name");
      expect(':');
      id.src = src();
      id.type = type(depth + 1);
      expect('\n');
      ids.push_back(std::move(id));
    }
    return ids;
  }

  SblType type(int depth) {
    if (depth > kMaxTypeDepth) fail("types nested too deeply");
    SblType t;
    const int c = peek();
    if (c < 0) fail("unexpected end of file, expected a type");
    t.kind = static_cast<char>(c);
    advance();
    switch (c) {
      case 'n':
      case 'N':
      case 'i':
      case 'B':
      case 'b':
      case 'f':
      case 's':
      case 'P':
        break;
      case '@':
        t.index = integer("type index");
        expect('\n');
        break;
      case 'A':
      case 'L':
      case 'C':
      case 'R':
        t.sub.push_back(type(depth + 1));
        break;
      case 'F':
        t.ids = id_table(depth + 1);
        t.sub.push_back(type(depth + 1));
        break;
      case 't':
        t.size = integer("tuple size");
        expect('.');
        t.ids = id_table(depth + 1);
        break;
      case 'a':
      case 'p': {
        t.name = until(' ', "adt name");
        expect(' ');
        t.src = src();
        t.size = integer("adt size");
        expect('\n');
        t.ids = id_table(depth + 1);
        if (c == 'p') {
          const std::int32_t n = count("tag count");
          for (std::int32_t i = 0; i < n; ++i) {
            SblTag g;
            g.name = until(':', "tag name");
            expect(':');
            g.src = src();
            if (peek() == '\n') {
              g.same_as_previous = true;
              advance();
            } else {
              g.size = integer("tag size");
              expect('\n');
              g.fields = id_table(depth + 1);
            }
            t.tags.push_back(std::move(g));
          }
        }
        break;
      }
      case 'm':
        t.name = until('\n', "module name");
        expect('\n');
        t.src = src();
        t.ids = id_table(depth + 1);
        break;
      default:
        fail_at(line_, col_ - 1, fmt::format("unknown type letter {}", show(c)));
    }
    return t;
  }
};

class Writer {
 public:
  std::string out;

  void src(const SblSrc& s) {
    if (s.start.file != run_.file) out += fmt::format("{}:", s.start.file);
    if (s.start.line != run_.line) out += fmt::format("{}.", s.start.line);
    out += fmt::format("{},", s.start.col);
    if (s.stop.file != s.start.file) out += fmt::format("{}:", s.stop.file);
    if (s.stop.line != s.start.line) out += fmt::format("{}.", s.stop.line);
    out += fmt::format("{} ", s.stop.col);
    run_ = s.stop;
  }

  void id_table(const std::vector<SblId>& ids) {
    out += fmt::format("{}\n", ids.size());
    for (const SblId& id : ids) {
      out += fmt::format("{}:{}:", id.offset, id.name);
      src(id.src);
      type(id.type);
      out += '\n';
    }
  }

  void type(const SblType& t) {
    out += t.kind;
    switch (t.kind) {
      case '@':
        out += fmt::format("{}\n", t.index);
        break;
      case 'A':
      case 'L':
      case 'C':
      case 'R':
        sub(t);
        break;
      case 'F':
        id_table(t.ids);
        sub(t);
        break;
      case 't':
        out += fmt::format("{}.", t.size);
        id_table(t.ids);
        break;
      case 'a':
      case 'p':
        out += t.name;
        out += ' ';
        src(t.src);
        out += fmt::format("{}\n", t.size);
        id_table(t.ids);
        if (t.kind == 'p') {
          out += fmt::format("{}\n", t.tags.size());
          for (const SblTag& g : t.tags) {
            out += g.name;
            out += ':';
            src(g.src);
            if (g.same_as_previous) {
              out += '\n';
            } else {
              out += fmt::format("{}\n", g.size);
              id_table(g.fields);
            }
          }
        }
        break;
      case 'm':
        out += t.name;
        out += '\n';
        src(t.src);
        id_table(t.ids);
        break;
      default:
        break;  // basic types: the letter alone
    }
  }

 private:
  SblPos run_;

  void sub(const SblType& t) {
    if (t.sub.empty())
      out += 'n';
    else
      type(t.sub.front());
  }
};

}  // namespace

Sbl read_sbl(std::string_view text, const std::string& filename) {
  return Reader(text, filename).parse();
}

Sbl read_sbl_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(Diagnostic{path, 0, 0, -1, "cannot open file"});
  std::ostringstream buf;
  buf << in.rdbuf();
  if (in.bad()) throw InputError(Diagnostic{path, 0, 0, -1, "read error"});
  return read_sbl(buf.str(), path);
}

std::string write_sbl(const Sbl& s) {
  Writer w;
  w.out = fmt::format("limbo .sbl {}\n{}\n{}\n", s.version, s.module, s.files.size());
  for (const std::string& f : s.files) w.out += f + '\n';
  w.out += fmt::format("{}\n", s.pcs.size());
  for (const SblPcEntry& e : s.pcs) {
    w.src(e.src);
    w.out += fmt::format("{}\n", e.block);
  }
  if (!s.version.empty() && s.version[0] == '1') return w.out + s.raw_tail;
  w.out += fmt::format("{}\n", s.types.size());
  for (const SblType& t : s.types) w.type(t);
  w.out += fmt::format("{}\n", s.fns.size());
  for (const SblFn& f : s.fns) {
    w.out += fmt::format("{}:{}\n", f.pc, f.name);
    w.id_table(f.args);
    w.id_table(f.locals);
    w.type(f.ret);
  }
  w.id_table(s.globals);
  return w.out;
}

void apply_sbl(Module& m, const Sbl& s) {
  if (s.pcs.size() != m.code.size())
    throw InputError(Diagnostic{s.source_name.empty() ? m.name : s.source_name, 0, 0, -1,
                                fmt::format("pc table has {} entries but the module has {} "
                                            "instructions",
                                            s.pcs.size(), m.code.size())});
  m.source_files = s.files;
  m.positions.clear();
  m.positions.reserve(s.pcs.size());
  for (const SblPcEntry& e : s.pcs)
    m.positions.push_back(SrcPos{e.src.start.file, e.src.start.line, e.src.start.col,
                                 e.src.stop.line, e.src.stop.col, e.block});
  m.functions.clear();
  for (const SblFn& f : s.fns) m.functions.push_back(FunctionInfo{f.name, f.pc});
}

Sbl sbl_from_module(const Module& m) {
  Sbl s;
  s.module = m.name;
  s.files = m.source_files;
  s.pcs.reserve(m.positions.size());
  for (const SrcPos& p : m.positions)
    s.pcs.push_back(SblPcEntry{
        SblSrc{SblPos{p.file, p.line, p.col}, SblPos{p.file, p.end_line, p.end_col}}, p.block});
  for (const FunctionInfo& f : m.functions) {
    SblFn fn;
    fn.pc = f.pc;
    fn.name = f.name;
    s.fns.push_back(std::move(fn));
  }
  return s;
}

std::optional<std::string> function_at(const Sbl& s, std::int32_t pc) {
  const SblFn* best = nullptr;
  for (const SblFn& f : s.fns)
    if (f.pc <= pc && (best == nullptr || f.pc > best->pc)) best = &f;
  if (best == nullptr) return std::nullopt;
  return best->name;
}

}  // namespace dis
