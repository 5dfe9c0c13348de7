// asm: assemble Dis assembly (as `limbo -S` or disdump writes it) into a .dis
// file. The output goes to the input's basename with .s replaced by .dis in
// the current directory (as Inferno's asm does), or to -o FILE. Exit 0; 2 for
// a usage error or malformed input (every error on stderr, no file written).
#include <CLI/CLI.hpp>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "assembler.h"
#include "diag.h"
#include "dis_encoding.h"
#include "dis_file.h"
#include "log_option.h"

namespace fs = std::filesystem;

namespace {

std::string default_output(const std::string& input) {
  std::string base = fs::path(input).filename().string();
  if (base.size() >= 2 && base.compare(base.size() - 2, 2, ".s") == 0) base.resize(base.size() - 2);
  return base + ".dis";
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"asm: assemble Dis assembly (.s, as limbo -S writes it) into a .dis module"};
  app.set_version_flag("--version", std::string("asm ") + DIS_VERSION);
  dis::add_log_option(app);
  std::string input;
  std::string output;
  app.add_option("-o,--out", output, "output file (default: the input's basename with .dis)");
  app.add_option("file", input, "the assembly file (.s)")->required();
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? 0 : 2;
  }

  std::ifstream in(input, std::ios::binary);
  if (!in) {
    std::cerr << "asm: cannot open " << input << "\n";
    return 2;
  }
  std::stringstream text;
  text << in.rdbuf();
  if (output.empty()) output = default_output(input);
  try {
    const dis::Module m = dis::assembly::assemble(text.str(), input);
    dis::write_dis_file(m, output);
  } catch (const dis::InputError& e) {
    std::cerr << e.what() << "\n";
    return 2;
  } catch (const dis::EncodeError& e) {
    std::cerr << "asm: " << input << ": " << e.what() << "\n";
    return 2;
  }
  return 0;
}
