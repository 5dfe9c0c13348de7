// The Limbo compiler's entry points: source file to dis::Module. The Module
// carries code, type descriptors (MP, frames, adts), data, links, import
// tables, handlers and a position per instruction (Module::positions, files
// in Module::source_files). Every error of a run is thrown as one InputError
// with `file.b:LINE:COL: message` diagnostics; unsupported constructs are
// refused with "not supported" naming the line.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "module.h"
#include "sbl.h"

namespace dis::limbo {

struct CompileOptions {
  std::vector<std::string> include_dirs;  // -I, searched after the file's own directory
};

Module compile_source(const std::string& path, const std::string& source,
                      const CompileOptions& opts);
Module compile_file(const std::string& path,
                    const CompileOptions& opts);  // InputError if unreadable

// The module plus its .sbl symbol tables as Inferno's compiler writes them
// for `-g`: files, pc table, adt type table, fn table (every compiled
// function in pc order with its arguments, locals by frame offset and
// return type) and globals by MP offset. Module::functions is filled either way.
struct CompiledModule {
  Module module;
  Sbl symbols;
};
CompiledModule compile_source_with_symbols(const std::string& path, const std::string& source,
                                           const CompileOptions& opts);
CompiledModule compile_file_with_symbols(const std::string& path, const CompileOptions& opts);

// The canonical type string (DIS-FACTS.md section 11) of every function the
// module declaration `module_name` in the include file `m_path` declares,
// adt members as "Adt.fn", in name order. For checking builtin tables.
std::vector<std::pair<std::string, std::string>> declared_signatures(const std::string& m_path,
                                                                     const std::string& module_name,
                                                                     const CompileOptions& opts);

}  // namespace dis::limbo
