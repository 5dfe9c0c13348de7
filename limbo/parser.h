// Limbo parser: source text to a Program (ast.h). `include` is resolved
// while parsing: the including file's directory, then each include dir, then
// the project's module/ directory (module_search_dirs()). Syntax errors are
// collected (several per run, recovering at `;` and `}`) and thrown together
// as one InputError.
#pragma once

#include <string>
#include <vector>

#include "ast.h"
#include "diag.h"

namespace dis::limbo {

// Parses the file `path` (its text is `src`). Throws InputError listing every
// syntax error found.
Program parse_program(const std::string& path, const std::string& src,
                      const std::vector<std::string>& include_dirs);

// The directories searched last for `include`: data_dirs("module") (isa/data_dirs.h).
std::vector<std::string> module_search_dirs();

// Resolves an include name; empty if not found.
std::string find_include(const std::string& name, const std::string& including_file,
                         const std::vector<std::string>& include_dirs);

}  // namespace dis::limbo
