// The Module: one in-memory form of a Dis module, the meeting point of every
// front end (limbo, asm, .dis reader) and back end (.dis writer, disdump, VM
// loader). It mirrors the .dis file section by section (reference/man6-dis.txt,
// DIS-FACTS.md section 3) so that reading and writing a file round-trips to
// the same bytes. It holds no run-time state.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "opcodes.h"

namespace dis {

inline constexpr std::int32_t kXMagic = 819248;  // unsigned module
inline constexpr std::int32_t kSMagic = 923426;  // module carrying a signature

// Runtime flags (header `runtime_flag`). HASLDT is 0x40; 0x10 is the obsolete
// layout that loaders refuse.
enum RuntimeFlag : std::uint32_t {
  kMustCompile = 0x01,
  kDontCompile = 0x02,
  kShareMp = 0x04,
  kDynMod = 0x08,
  kHasLdt0 = 0x10,
  kHasExcept = 0x20,
  kHasLdt = 0x40,
};

// Source/destination address modes, as encoded in the mode byte.
enum class AddrMode : std::uint8_t {
  Mp = 0,     // a(mp)
  Fp = 1,     // a(fp)
  Imm = 2,    // $a
  None = 3,   // absent
  IndMp = 4,  // b(a(mp)): load the pointer at mp+a, add b
  IndFp = 5,  // b(a(fp))
};

// Middle operand modes (mode byte bits 6-7).
enum class MidMode : std::uint8_t {
  None = 0,  // absent: the middle address is the destination's
  Imm = 1,   // $a, 16-bit signed
  Fp = 2,    // a(fp), 16-bit unsigned
  Mp = 3,    // a(mp), 16-bit unsigned
};

struct Operand {
  AddrMode mode = AddrMode::None;
  std::int32_t a = 0;  // offset from mp/fp, the immediate, or (indirect) the register offset
  std::int32_t b = 0;  // indirect modes only: the offset added to the loaded pointer
  bool operator==(const Operand&) const = default;
};

struct Middle {
  MidMode mode = MidMode::None;
  std::int32_t a = 0;
  bool operator==(const Middle&) const = default;
};

struct Instruction {
  Op op = Op::nop_;
  Middle mid;
  Operand src;
  Operand dst;
  bool operator==(const Instruction&) const = default;
};

// Where an instruction came from: a range in a source file (Limbo source, or
// the .s file for assembled code). Lines are 1-based, columns 0-based, the end
// column is just past the text. `block` is the .sbl statement/region number.
struct SrcPos {
  std::int32_t file = 0;  // index into Module::source_files
  std::int32_t line = 0;
  std::int32_t col = 0;
  std::int32_t end_line = 0;
  std::int32_t end_col = 0;
  std::int32_t block = 0;
  bool operator==(const SrcPos&) const = default;
};

// A type descriptor: size in bytes and pointer map (bit 0x80>>i of byte j
// marks the word at byte offset 4*(8j+i); bytes past the map are zero).
struct TypeDesc {
  std::int32_t id = 0;
  std::int32_t size = 0;
  std::vector<std::uint8_t> map;
  bool operator==(const TypeDesc&) const = default;
};

enum class DataKind : std::uint8_t {
  Bytes = 1,
  Words = 2,
  String = 3,
  Reals = 4,
  Array = 5,
  SetIndex = 6,
  PopBase = 7,
  Bigs = 8,
};

// One data-section item. Items are kept in file order, merged as the file
// merges them, so the writer reproduces the file.
struct DataItem {
  DataKind kind = DataKind::Bytes;
  std::int32_t offset = 0;  // relative to the current base
  // Bytes, Words, Bigs: the values. Reals: IEEE-754 bit patterns (exact
  // round trip). Array: {element type id, length}. SetIndex: {index}.
  std::vector<std::int64_t> values;
  std::string text;  // String: UTF-8 bytes
  bool operator==(const DataItem&) const = default;
};

// An exported function (link section). Adt members are named "Adt.fn";
// Limbo's ".mp" data export has pc and frame_type -1.
struct Link {
  std::string name;
  std::int32_t pc = -1;
  std::int32_t frame_type = -1;
  std::uint32_t sig = 0;
  bool operator==(const Link&) const = default;
};

struct Import {
  std::string name;
  std::uint32_t sig = 0;
  // The canonical type string the signature hashes, when known (the Limbo
  // compiler's; a .dis file carries only `sig`): for load's error message.
  // Not part of the import's identity.
  std::string type;
  bool operator==(const Import& o) const { return name == o.name && sig == o.sig; }
};

// One import table per module loaded; `load`'s middle operand indexes them.
using ImportTable = std::vector<Import>;

struct HandlerCase {
  std::string name;  // exception name or pattern ("fail:*", "*")
  std::int32_t pc = -1;
  bool operator==(const HandlerCase&) const = default;
};

// An exception handler covering pc1 <= pc < pc2.
struct Handler {
  std::int32_t offset = 0;  // frame offset of the exception slot
  std::int32_t pc1 = 0;
  std::int32_t pc2 = 0;
  std::int32_t type = -1;  // frame memory to reset, -1 for none
  std::int32_t ne = 0;     // the high half of the nlab word, kept for round trips
  std::vector<HandlerCase> cases;
  std::int32_t wildcard_pc = -1;
  bool operator==(const Handler&) const = default;
};

// A function's name ("Adt.fn" for adt members) and first pc, for tools that
// name the function a pc belongs to. Not part of .dis.
struct FunctionInfo {
  std::string name;
  std::int32_t pc = 0;
  bool operator==(const FunctionInfo&) const = default;
};

struct Module {
  // Header.
  std::int32_t magic = kXMagic;
  std::vector<std::uint8_t> signature;  // SMAGIC only
  std::uint32_t flags = 0;
  std::int32_t stack_extent = 0;
  std::int32_t data_size = 0;  // bytes of module data (MP)
  std::int32_t entry_pc = -1;
  std::int32_t entry_type = -1;

  std::vector<Instruction> code;
  std::vector<TypeDesc> types;  // descriptor 0 describes MP
  std::vector<DataItem> data;
  std::string name;
  std::vector<Link> links;
  std::vector<ImportTable> imports;        // present when flags has kHasLdt
  std::vector<Handler> handlers;           // present when flags has kHasExcept
  std::optional<std::string> source_path;  // the path Limbo appends, if any

  // Not part of .dis: pc -> source position (from the compiler, the
  // assembler, or a .sbl file). Empty, or one entry per instruction.
  std::vector<std::string> source_files;
  std::vector<SrcPos> positions;
  // Not part of .dis: functions in pc order (from the compiler or a .sbl
  // fn table); empty when unknown.
  std::vector<FunctionInfo> functions;

  bool operator==(const Module&) const = default;
};

}  // namespace dis
