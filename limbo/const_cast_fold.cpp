#include "const_cast_fold.h"

#include <bit>
#include <cctype>
#include <cmath>
#include <cstdlib>

#include "compiler_impl.h"

namespace dis::limbo {

namespace {

std::size_t skip_space(const std::string& s) {
  std::size_t i = 0;
  while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
  return i;
}

std::size_t skip_digits(const std::string& s, std::size_t i) {
  while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
  return i;
}

}  // namespace

std::int64_t fold_string_to_big(const std::string& s) {
  std::size_t i = skip_space(s);
  bool neg = i < s.size() && s[i] == '-';
  if (i < s.size() && (s[i] == '-' || s[i] == '+')) ++i;
  std::uint64_t v = 0;
  for (; i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])); ++i)
    v = v * 10 + static_cast<std::uint64_t>(s[i] - '0');
  return static_cast<std::int64_t>(neg ? 0 - v : v);
}

std::int32_t fold_string_to_int(const std::string& s) {
  return static_cast<std::int32_t>(fold_string_to_big(s));
}

double fold_string_to_real(const std::string& s) {
  std::size_t start = skip_space(s), i = start;
  bool neg = i < s.size() && s[i] == '-';
  if (i < s.size() && (s[i] == '-' || s[i] == '+')) ++i;
  std::size_t int_end = skip_digits(s, i), end = int_end;
  bool digits = int_end > i;
  if (end < s.size() && s[end] == '.') {
    std::size_t frac_end = skip_digits(s, end + 1);
    digits = digits || frac_end > end + 1;
    end = frac_end;
  }
  if (!digits) return neg ? -0.0 : 0.0;
  if (end < s.size() && (s[end] == 'e' || s[end] == 'E')) {
    std::size_t j = end + 1;
    if (j < s.size() && (s[j] == '-' || s[j] == '+')) ++j;
    if (skip_digits(s, j) > j) end = skip_digits(s, j);
  }
  return std::strtod(s.substr(start, end - start).c_str(), nullptr);
}

double fold_real_result(double r) {
  return std::isnan(r) ? std::bit_cast<double>(std::uint64_t{0x7fffffffffffffff}) : r;
}

std::optional<ConstVal> fold_string_cast(const std::string& s, const std::string& to) {
  if (to == "int") return ConstVal{TK::Int, fold_string_to_int(s), 0, ""};
  if (to == "big") return ConstVal{TK::Big, fold_string_to_big(s), 0, ""};
  if (to == "real") return ConstVal{TK::Real, 0, fold_string_to_real(s), ""};
  return std::nullopt;
}

}  // namespace dis::limbo
