// Nothing a user writes may crash the compiler: mutated corpus programs and
// hostile inputs either compile or are refused with an InputError.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "compiler.h"
#include "diag.h"
#include "shared_corpus.h"

namespace fs = std::filesystem;

namespace {

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Compiles; returns false if anything but an InputError escaped.
bool compiles_or_refuses(const std::string& path, const std::string& text) {
  dis::limbo::CompileOptions opts;
  opts.include_dirs.push_back(fs::path(path).parent_path().string());
  try {
    dis::limbo::compile_source(path, text, opts);
  } catch (const dis::InputError& e) {
    if (e.diagnostics().empty()) return false;
  } catch (...) {
    return false;
  }
  return true;
}

TEST(LimboRobustness, MutatedCorpusProgramsNeverCrash) {
  DIS_NEEDS_SHARED();
  std::mt19937 rng(12345);  // fixed seed: the same mutations every run
  const std::string alphabet = "(){}[];:=,.*+-<>\"'`#\nx1 ";
  int n = 0;
  for (auto& d : distest::entries_of(distest::shared_limbo_dir())) {
    if (!d.is_directory()) continue;
    fs::path src = d.path() / (d.path().filename().string() + ".b");
    std::string text = slurp(src);
    ASSERT_FALSE(text.empty());
    for (int k = 0; k < 25; ++k) {
      std::string t = text;
      int edits = 1 + static_cast<int>(rng() % 6);
      for (int i = 0; i < edits; ++i) {
        std::size_t at = rng() % t.size();
        switch (rng() % 3) {
          case 0:
            t.erase(at, 1 + rng() % 8);
            break;
          case 1:
            t[at] = alphabet[rng() % alphabet.size()];
            break;
          default:
            t.insert(at, t.substr(rng() % t.size(), 1 + rng() % 20));
            break;
        }
        if (t.empty()) t = "x";
      }
      EXPECT_TRUE(compiles_or_refuses(src.string(), t)) << src << " mutation " << k << ":\n" << t;
      ++n;
    }
  }
  EXPECT_GE(n, 18 * 25);
}

TEST(LimboRobustness, HostileInputsAreRefused) {
  std::string head =
      "implement H;\ninclude \"sys.m\";\ninclude \"draw.m\";\n"
      "H: module { init: fn(nil: ref Draw->Context, a: list of string); };\n"
      "init(nil: ref Draw->Context, nil: list of string)\n{\n";
  std::string path = (fs::path(DIS_SOURCE_DIR) / "samples" / "hostile.b").string();
  std::vector<std::string> bodies = {
      "x := " + std::string(5000, '(') + "1" + std::string(5000, ')') + ";\n",
      std::string(5000, '{') + std::string(5000, '}') + "\n",
      "x := 1" +
          [] {
            std::string s;
            for (int i = 0; i < 3000; ++i) s += "+1";
            return s;
          }() +
          ";\n",
      "a := array[16r7fffffff] of {0 to 16r7ffffff0 => 1};\n",
      "x := \"unterminated\n",
      "x := 'ab';\n",
      "x := 99999999999999999999999;\n",
      "include \"sys.m\";\n",
      "s := \"\\u12\";\n",
  };
  for (auto& b : bodies) {
    EXPECT_TRUE(compiles_or_refuses(path, head + b + "}\n")) << b.substr(0, 80);
  }
  // An include cycle stops at the nesting limit.
  fs::path dir = fs::temp_directory_path() / ("limbo-hostile-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  { std::ofstream(dir / "loop.m") << "include \"loop.m\";\n"; }
  EXPECT_TRUE(compiles_or_refuses((dir / "p.b").string(), "implement P;\ninclude \"loop.m\";\n"));
  fs::remove_all(dir);
}

}  // namespace
