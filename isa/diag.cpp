#include "diag.h"

#include <fmt/format.h>

namespace dis {

std::string Diagnostic::str() const {
  if (offset >= 0) return fmt::format("{}: offset {}: {}", file, offset, message);
  if (line > 0 && col > 0) return fmt::format("{}:{}:{}: {}", file, line, col, message);
  if (line > 0) return fmt::format("{}:{}: {}", file, line, message);
  return fmt::format("{}: {}", file, message);
}

namespace {
std::string join(const std::vector<Diagnostic>& all) {
  std::string out;
  for (const auto& d : all) {
    if (!out.empty()) out += '\n';
    out += d.str();
  }
  return out;
}
}  // namespace

InputError::InputError(Diagnostic d) : InputError(std::vector<Diagnostic>{std::move(d)}) {}

InputError::InputError(std::vector<Diagnostic> all)
    : std::runtime_error(join(all)), diags_(std::move(all)) {}

}  // namespace dis
