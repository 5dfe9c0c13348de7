// The reference corpus in ../shared (DIS_SHARED_DIR). A clone without it
// must still build, list and run the tests: listing the corpus never throws
// (an absent folder lists as empty), and a test that needs it skips, saying
// why, through DIS_NEEDS_SHARED().
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

namespace distest {

inline std::filesystem::path shared_limbo_dir() {
  return std::filesystem::path(DIS_SHARED_DIR) / "testdata" / "limbo";
}

inline bool shared_present() {
  std::error_code ec;
  return std::filesystem::is_directory(shared_limbo_dir(), ec);
}

// The entries of `dir`, or none when it cannot be read.
inline std::vector<std::filesystem::directory_entry> entries_of(const std::filesystem::path& dir,
                                                                bool recursive = false) {
  std::vector<std::filesystem::directory_entry> out;
  std::error_code ec;
  if (recursive) {
    for (std::filesystem::recursive_directory_iterator it(dir, ec), end; !ec && it != end;
         it.increment(ec))
      out.push_back(*it);
  } else {
    for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
      out.push_back(*it);
  }
  return out;
}

}  // namespace distest

#define DIS_NEEDS_SHARED()                                                                \
  do {                                                                                    \
    if (!distest::shared_present())                                                       \
      GTEST_SKIP() << "needs the reference corpus ../shared/testdata/limbo, absent here"; \
  } while (0)
