// The Limbo .sbl symbol file (reference/man6-sbl.txt, DIS-FACTS.md section 9):
// reading, writing, and mapping its pc table onto a Module.
//
// Contract: for every file Inferno's compiler writes,
// write_sbl(read_sbl(text)) == text byte for byte. Positions are kept
// decoded (absolute file/line/char); the writer re-compresses them with the
// compiler's rule: one running (file, line) pair for the whole file, starting
// at (0, 0), updated by every position of every table; a start position
// prints `file:` and `line.` only when they differ from the running pair, a
// stop position only when they differ from its start.
//
// Versions 2.0 and 2.1 are parsed completely. For the obsolete 1.x versions
// only the header, file table and pc table are parsed; the rest of the file
// is kept as raw text (Sbl::raw_tail) and written back unchanged.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "module.h"

namespace dis {

struct SblPos {
  std::int32_t file = 0;
  std::int32_t line = 0;
  std::int32_t col = 0;  // "char" in the manual: 0-based
  bool operator==(const SblPos&) const = default;
};

struct SblSrc {
  SblPos start, stop;
  bool operator==(const SblSrc&) const = default;
};

struct SblId;
struct SblTag;

// One type-table type. `kind` is the type letter: n N i B b f s P (basic),
// '@' (reference to type table entry `index`), A L C R (one `sub` type),
// F (args in `ids`, return in `sub`), t (tuple: `size`, fields in `ids`),
// a / p (adt: `name` possibly "Mod->Adt", `src`, `size`, fields in `ids`;
// p adds `tags`), m (module: `name`, `src`, members in `ids`).
struct SblType {
  char kind = 'n';
  std::int32_t index = 0;
  std::int32_t size = 0;
  std::string name;
  SblSrc src;
  std::vector<SblId> ids;
  std::vector<SblType> sub;  // empty or one element
  std::vector<SblTag> tags;
  bool operator==(const SblType&) const;
};

// An id-table entry: `offset:name:src type`.
struct SblId {
  std::int32_t offset = 0;
  std::string name;
  SblSrc src;
  SblType type;
  bool operator==(const SblId&) const = default;
};

// A pick variant. `same_as_previous`: written as `name:src` alone, sharing
// the previous variant's description (no size, no fields).
struct SblTag {
  std::string name;
  SblSrc src;
  bool same_as_previous = false;
  std::int32_t size = 0;
  std::vector<SblId> fields;
  bool operator==(const SblTag&) const = default;
};

struct SblFn {
  std::int32_t pc = 0;
  std::string name;  // "Adt.fn" for adt members
  std::vector<SblId> args, locals;
  SblType ret;
  bool operator==(const SblFn&) const = default;
};

struct SblPcEntry {
  SblSrc src;
  std::int32_t block = 0;
  bool operator==(const SblPcEntry&) const = default;
};

struct Sbl {
  std::string version = "2.1";  // as on the magic line: "2.1", "2.0", "1.1", "1."
  std::string module;
  std::vector<std::string> files;
  std::vector<SblPcEntry> pcs;  // one per instruction
  std::vector<SblType> types;
  std::vector<SblFn> fns;
  std::vector<SblId> globals;
  std::string raw_tail;     // 1.x files only: everything after the pc table
  std::string source_name;  // the file it was read from (for diagnostics); not written
  bool operator==(const Sbl&) const = default;
};

// InputError with file:line:col on malformed text.
Sbl read_sbl(std::string_view text, const std::string& filename);
Sbl read_sbl_file(const std::string& path);  // InputError also if unreadable

std::string write_sbl(const Sbl& sbl);

// Fills m.source_files (the file table), m.positions (one per pc, from the
// pc table; the stop position's file is dropped) and m.functions (fn table). InputError naming
// sbl.source_name if the pc count differs from m.code.size().
void apply_sbl(Module& m, const Sbl& sbl);

// An Sbl holding what a Module knows: version 2.1, the module name, its
// source files and pc table (positions, or an empty table if it has none),
// and a fn table of m.functions' names and pcs (no ids, return type `n`).
// Type and global tables are left empty; the Limbo compiler fills them all.
Sbl sbl_from_module(const Module& m);

// The function whose code contains pc: the fn-table entry with the greatest
// start pc not above it (a function runs up to the next one's start).
std::optional<std::string> function_at(const Sbl& sbl, std::int32_t pc);

}  // namespace dis
