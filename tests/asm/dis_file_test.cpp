// Tests of the .dis reader and writer (asm/dis_file.h) against the corpus
// compiled by Inferno's Limbo compiler.
#include "dis_file.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;
using namespace dis;

namespace {

const fs::path kCorpus = fs::path(DIS_SHARED_DIR) / "testdata" / "limbo";

std::vector<fs::path> corpus_dis_files() {
  std::vector<fs::path> out;
  for (const auto& dir : fs::directory_iterator(kCorpus))
    if (dir.is_directory())
      for (const auto& f : fs::directory_iterator(dir.path()))
        if (f.path().extension() == ".dis") out.push_back(f.path());
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::uint8_t> slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST(DisFile, CorpusIsPresent) {
  // Guards the round-trip test against silently iterating nothing.
  EXPECT_GE(corpus_dis_files().size(), 19u);
}

TEST(DisFile, RoundTripEveryCorpusFileByteForByte) {
  for (const fs::path& p : corpus_dis_files()) {
    SCOPED_TRACE(p.string());
    const std::vector<std::uint8_t> bytes = slurp(p);
    ASSERT_FALSE(bytes.empty());
    Module m;
    ASSERT_NO_THROW(m = read_dis(bytes, p.string()));
    const std::vector<std::uint8_t> again = write_dis(m);
    EXPECT_EQ(again, bytes);
    EXPECT_EQ(read_dis(again, "again"), m);
  }
}

}  // namespace
