// The Dis assembler: Dis assembly text, exactly as Inferno's `limbo -S`
// writes it (and as our disdump prints it), to a dis::Module.
//
// Contract: assemble() returns the Module or throws InputError carrying every
// error of the run (`file.s:LINE:COL: message`, one per bad line at least, in
// line order). Each instruction's .s position is recorded in
// Module::positions (file 0 = the .s file, the only Module::source_files
// entry; line = .s line; col/end_col = 0-based columns of the mnemonic's
// start and just past the last operand), so assembled code can be costed by
// line. Data directives become one DataItem each, in file order (the .dis
// writer merges them as Limbo does).
//
// Syntax, one statement per line; `#` starts a comment (limbo's `#10` pc
// markers are comments). Numbers are decimal or 0x hex, with an optional sign.
//
//   op s, m, d       operands: $imm, n(fp), n(mp), m(n(fp)), m(n(mp)). The
//                    op's present slots (isa/opcodes.h) are filled in the order
//                    s, m, d; one operand fewer is allowed exactly when
//                    mid_optional(op), and then the middle is absent. Branch
//                    targets (call, jmp, spawn, b*) are $N instruction
//                    numbers. Ranges: direct offsets and immediates 30-bit
//                    signed; middle $imm -32768..32767, middle n(fp)/n(mp) and
//                    both halves of m(n(..)) 0..65535; no double-indirect
//                    middle.
//   entry pc, type                  entry point and its frame descriptor
//   desc $id, size, "hexmap"        type descriptor (map bytes in hex)
//   var @mp, size                   size of module data
//   byte|word|long @mp+off, v, ...  data: bytes, 32-bit words, 64-bit bigs
//   real @mp+off, v, ...            decimal, Inf, NaN, or 0x + 16 hex digits
//                                   (the IEEE-754 bit pattern, for NaNs)
//   string @mp+off, "text"          escapes \n \t \r \b \f \a \v \\ \" \xHH,
//                                   \z and \0 (NUL); other bytes are taken raw
//   array @mp+off, $type, length    an array in module data
//   indir @mp+off, index            following offsets are inside element
//                                   `index` of the array stored at off
//   apop                            back to the enclosing base
//   module Name
//   link desc, pc, sig, "name"      an export (desc and pc -1 for ".mp")
//   ldts @ldt, ntables              import tables follow:
//   word @ldt+off, count            ... a table of `count` entries
//   ext @ldt+off, sig, "name"       ... one import (offsets are ignored)
//   ext @mp+off, sig, "name"        (not after @ldt: the import written into
//                                   module data, as Limbo does without LDTs)
//   exceptions n                    handler table follows (n is informative)
//   exception pc1, pc2, frameoff, type, nlab, ne
//   exctab "name", pc               one of the nlab named cases
//   exctab *, pc                    the wildcard pc (-1 none); ends a handler
//   source "path"                   the source path Limbo appends
// Our extensions (disdump prints them when the defaults would be wrong):
//   stackext N        header stack extent. Default: 10 x the largest size of
//                     the descriptors other than $0 (Limbo's rule: ten frames
//                     of the largest function), 0 when there are none.
//   flags 0xN         exact runtime flags. Default: HASLDT (0x40) when an
//                     `ldts` directive is present, plus HASEXCEPT (0x20) when
//                     an `exceptions` directive or a handler is present.
//   signature "hex"   an SMAGIC module carrying these signature bytes.
#pragma once

#include <string>
#include <string_view>

#include "diag.h"
#include "module.h"

// `asm` is a C++ keyword, so the assembler's namespace is dis::assembly.
namespace dis::assembly {

Module assemble(std::string_view text, const std::string& filename);

}  // namespace dis::assembly
