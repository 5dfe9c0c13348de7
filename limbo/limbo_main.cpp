// limbo: compile a Limbo program to a Dis module.
//   limbo [-I dir] [-o out] [-S] [-g] prog.b
// writes prog.dis (or `out`), prog.sbl with -g, prog.s (assembly) with -S.
// Errors go to stderr as `prog.b:LINE:COL: message`; exit status 2.
#include <CLI/CLI.hpp>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "compiler.h"
#include "dis_file.h"
#include "disassembler.h"
#include "sbl.h"
#include "tool_cli.h"

namespace fs = std::filesystem;

int main(int argc, char** argv) {
  dis::cli::Tool tool("limbo", "limbo: compile a Limbo program (.b) to a Dis module (.dis)",
                      "limbo [OPTIONS] FILE.b");
  CLI::App& app = tool.app();
  std::vector<std::string> includes;
  std::string out;
  bool asm_out = false, sbl_out = false;
  std::string src;
  app.add_option("-I", includes, "directory searched for include files")->allow_extra_args(false);
  tool.add_out(out, "output file (default: the source's base name with .dis, or .s with -S)");
  app.add_flag("-S", asm_out, "write Dis assembly instead of a .dis file");
  app.add_flag("-g", sbl_out, "also write the .sbl symbol file");
  app.add_option("file", src, "Limbo source file")->required();
  if (std::optional<int> rc = tool.parse(argc, argv)) return *rc;
  try {
    dis::limbo::CompileOptions opts;
    opts.include_dirs = includes;
    dis::limbo::CompiledModule cm = dis::limbo::compile_file_with_symbols(src, opts);
    const dis::Module& m = cm.module;
    fs::path stem = fs::path(src).stem();
    if (asm_out) {
      std::string path = out.empty() ? stem.string() + ".s" : out;
      std::ofstream f(path, std::ios::binary);
      if (!f) throw dis::InputError(dis::Diagnostic{path, 0, 0, -1, "cannot create file"});
      f << dis::assembly::disassemble(m);
    } else {
      std::string path = out.empty() ? stem.string() + ".dis" : out;
      dis::write_dis_file(m, path);
      if (sbl_out) {
        std::string sp = fs::path(path).replace_extension(".sbl").string();
        std::ofstream f(sp, std::ios::binary);
        if (!f) throw dis::InputError(dis::Diagnostic{sp, 0, 0, -1, "cannot create file"});
        f << dis::write_sbl(cm.symbols);
      }
    }
  } catch (const dis::InputError& e) {
    std::cerr << e.what();
    std::string w = e.what();
    if (w.empty() || w.back() != '\n') std::cerr << '\n';
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "limbo: " << e.what() << '\n';
    return 2;
  }
  return 0;
}
