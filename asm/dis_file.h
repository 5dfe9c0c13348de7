// Reading and writing .dis files (reference/man6-dis.txt, DIS-FACTS.md
// sections 2-3) to and from dis::Module.
//
// read_dis checks the file's structure: every count is bounded by the bytes
// left, every field decodes, operands are present exactly as the opcode table
// says (opcodes.h has_src/has_dst/mid_allowed/mid_optional), field widths
// (16-bit middle and double-indirect offsets), type ids, and that the data
// section's stores stay inside module data / their arrays (as Inferno's
// loader checks). Anything wrong is an InputError{file, byte offset, what}.
// Meaning (frame sizes, branch targets, operand types) is the verifier's job.
//
// write_dis writes the layout Inferno's Limbo compiler writes: shortest
// operand forms, and adjacent data items of one numeric kind merged when the
// second starts where the first ends. So write_dis(read_dis(f)) == f for
// every file the compiler produced, and a Module with one item per value
// (from the assembler) comes out as the compiler writes it.
//
// Module::data_size is the header's value and is written back verbatim; the
// type with id 0 describes MP. If data_size is non-zero they must agree
// (Inferno's loader refuses the file otherwise), and read_dis refuses them.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "diag.h"
#include "dis_encoding.h"
#include "module.h"

namespace dis {

inline constexpr std::size_t kMaxDisFileSize = 8u << 20;  // Inferno's loader limit
inline constexpr std::int32_t kMaxTypeMapBytes = 128 * 1024;
inline constexpr int kDataBaseDepth = 4;  // DADEPTH: nested array initialisers
// Most records (instructions, types, data items, links, imports, handler
// labels) a file may hold (Inferno allows 1M instructions); this
// bounds a Module's memory to tens of MB however the 8 MiB are spent.
inline constexpr std::int64_t kMaxDisRecords = 1 << 20;

Module read_dis(std::span<const std::uint8_t> bytes, const std::string& filename);
Module read_dis_file(const std::string& path);  // InputError if unreadable

std::vector<std::uint8_t> write_dis(const Module& m);           // EncodeError if not encodable
void write_dis_file(const Module& m, const std::string& path);  // InputError if unwritable

// Why `in` cannot be written (or was refused when read): a missing or
// forbidden operand per the opcode table, a reserved mode, a field wider
// than its encoding (16-bit middle and double-indirect offsets, 30-bit
// operands). nullopt when it is fine. Shared by reader, writer, assembler.
std::optional<std::string> instruction_encoding_problem(const Instruction& in);

// The data items as the writer emits them: adjacent Bytes/Words/Reals/Bigs
// items of the same kind merged when the second's offset is where the first
// ends (Limbo's rule: no count limit; strings, arrays and base changes are
// never merged and end any run).
std::vector<DataItem> merge_data_items(const std::vector<DataItem>& items);

// One value stored by the data section, located by its path: path[0] is the
// byte offset in module data; each further element is a byte offset inside
// the data of the array whose pointer the previous element locates.
struct DataValue {
  std::vector<std::int64_t> path;
  DataKind kind = DataKind::Bytes;  // Bytes, Words, String, Reals, Array, Bigs
  std::int64_t value = 0;   // the byte/word/big, a real's bit pattern, an array's element type id
  std::int64_t length = 0;  // Array: number of elements
  std::string text;         // String
  bool operator==(const DataValue&) const = default;
  auto operator<=>(const DataValue&) const = default;
};

// Every value the data section stores, one entry per byte/word/real/big,
// string or array, ordered by path; when a location is stored twice only the
// later store counts. Item order and merging do not matter. Throws
// InputError (file = module name) if an index item has no array to index.
std::vector<DataValue> flatten_data(const Module& m);

}  // namespace dis
