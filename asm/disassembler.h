// The disassembler: a dis::Module printed as Dis assembly in the syntax
// Inferno's `limbo -S` writes, so that dis::assembly::assemble() reads it back
// to the same module (assemble(disassemble(m)) written as .dis is
// byte-identical to the .dis m was read from).
//
// Layout, in limbo -S order: our header directives; the instructions (tab
// separated, operands s,m,d where present, `#N` before every tenth pc);
// `entry`; `desc` per type; `var` and the data directives; `module`; `link`
// per export; `ldts` with `word`/`ext` per import table; `exceptions` with
// `exception`/`exctab`; `source`.
//
// Directives of our own (limbo -S has no way to say these; asm reads them):
//   stackext N        the header's stack extent (always printed)
//   flags 0xN         the header's runtime flags (always printed)
//   signature "hex"   the signature bytes of an SMAGIC module (only then)
// They come first, before the code.
//
// Data: limbo -S prints one directive per initialised declaration while the
// .dis file (and so the Module) merges adjacent values of one kind into one
// item. To print what limbo prints, a merged item is split again: bytes,
// bigs and reals one value per line; words one value per line except a
// `case` table (3n+2 words, found at the MP offset a `case` instruction names)
// and a `goto` table (n+1 words, 4 bytes before the offset a `goto` names),
// which stay on one line. The .dis writer merges them back.
// Known departures from limbo -S (none occurs in the test corpus):
//   - `casel` tables are printed as the word/long values the .dis holds
//     (limbo -S prints them as one `word` line that no assembler reads back
//     to the same file).
//   - `exceptions N` counts the handlers present; limbo counts unreachable
//     handlers it then omits.
//   - reals that are NaN or infinite are printed as 0x + 16 hex digits (the
//     bit pattern); other reals in limbo's %g shortest form (`.5`, `1e+06`).
//   - limbo's `-$N` operand form (negated interface offsets) is printed as
//     the immediate the file holds.
#pragma once

#include <string>
#include <vector>

#include "module.h"

// `asm` is a C++ keyword, so the assembler's namespace is dis::assembly.
namespace dis::assembly {

struct DisasmOptions {
  // Append `\t# PC` to every instruction (the `#N` markers are then omitted).
  bool pc_numbers = false;
  // Before the first instruction of each new source line (from
  // Module::positions), print `# FILE:LINE: TEXT` with TEXT the source line
  // with its leading blanks removed. source_text[i] holds the lines of
  // Module::source_files[i]; a missing file or line prints an empty TEXT.
  bool source_lines = false;
  std::vector<std::vector<std::string>> source_text;
};

std::string disassemble(const Module& m, const DisasmOptions& options = {});

// Limbo's %g rendering of a real (shortest round-trip digits, no leading
// zero: `.5`, `-2.5`, `1e+06`, `-0`); NaN and infinities as 0x + 16 hex digits.
std::string format_real(double v);

// A string constant quoted as limbo -S quotes it: newline as \n, NUL as \z,
// the quote and the backslash escaped by a backslash, every other byte raw.
std::string quote_string(const std::string& s);

}  // namespace dis::assembly
