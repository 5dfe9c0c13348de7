// Errors in user input (source, assembly, .dis, .sbl, observation files).
// Every such error names the file and a position: a line and column for
// text, a byte offset for binary files. what() is the full message, e.g.
//   prog.s:12:5: unknown opcode 'adw'
//   prog.dis: offset 118: truncated operand
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace dis {

struct Diagnostic {
  std::string file;
  std::int32_t line = 0;     // 1-based; 0 when the position is a byte offset
  std::int32_t col = 0;      // 1-based
  std::int64_t offset = -1;  // byte offset in a binary file, or -1
  std::string message;

  std::string str() const;
};

class InputError : public std::runtime_error {
 public:
  explicit InputError(Diagnostic d);
  explicit InputError(std::vector<Diagnostic> all);  // all errors of one run, at least one
  const std::vector<Diagnostic>& diagnostics() const { return diags_; }

 private:
  std::vector<Diagnostic> diags_;
};

}  // namespace dis
