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
#include "tool_cli.h"

namespace fs = std::filesystem;

namespace {

std::string default_output(const std::string& input) {
  std::string base = fs::path(input).filename().string();
  if (base.size() >= 2 && base.compare(base.size() - 2, 2, ".s") == 0) base.resize(base.size() - 2);
  return base + ".dis";
}

}  // namespace

int main(int argc, char** argv) {
  dis::cli::Tool tool("asm",
                      "asm: assemble Dis assembly (.s, as limbo -S writes it) into a .dis module",
                      "asm [OPTIONS] FILE.s");
  CLI::App& app = tool.app();
  std::string input;
  std::string output;
  tool.add_out(output, "output file (default: the input's basename with .dis)");
  app.add_option("file", input, "the assembly file (.s)")->required();
  if (std::optional<int> rc = tool.parse(argc, argv)) return *rc;

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
