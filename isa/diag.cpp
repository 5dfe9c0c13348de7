#include "diag.h"

#include <fmt/format.h>

#include "printable.h"
#include "utf8.h"

namespace dis {

std::string printable(std::string_view text) {
  std::string out;
  const auto* p = reinterpret_cast<const std::uint8_t*>(text.data());
  for (std::size_t i = 0; i < text.size();) {
    const std::uint8_t c = p[i];
    if (c == '\n' || c == '\t' || (c >= 0x20 && c < 0x7f)) {
      out += static_cast<char>(c);
      ++i;
      continue;
    }
    std::uint32_t rune = 0;
    const int n = c < 0x80 ? 1 : utf8_decode(p + i, text.size() - i, rune);
    // U+FFFD from one byte is an invalid sequence; the C1 controls act on
    // terminals as the C0 ones do.
    const bool valid = c >= 0x80 && !(rune == 0xFFFD && n == 1) && !(rune >= 0x80 && rune < 0xA0);
    if (valid) {
      out.append(text.substr(i, static_cast<std::size_t>(n)));
      i += static_cast<std::size_t>(n);
    } else {
      out += fmt::format("\\x{:02x}", c);
      ++i;
    }
  }
  return out;
}

std::string Diagnostic::str() const {
  const std::string f = printable(file), m = printable(message);
  if (offset >= 0) return fmt::format("{}: offset {}: {}", f, offset, m);
  if (line > 0 && col > 0) return fmt::format("{}:{}:{}: {}", f, line, col, m);
  if (line > 0) return fmt::format("{}:{}: {}", f, line, m);
  return fmt::format("{}: {}", f, m);
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
