// disdump: print .dis modules as Dis assembly (limbo -S syntax; see
// disassembler.h). Exit 0, or 2 if any file is unreadable or malformed
// (message on stderr naming the file and byte offset).
#include <CLI/CLI.hpp>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "diag.h"
#include "dis_file.h"
#include "disassembler.h"
#include "sbl.h"
#include "tool_cli.h"

namespace fs = std::filesystem;

namespace {

std::vector<std::string> read_lines(const fs::path& p, bool& ok) {
  std::ifstream in(p, std::ios::binary);
  ok = static_cast<bool>(in);
  std::vector<std::string> lines;
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  return lines;
}

// Attaches positions and source text from FILE.sbl beside FILE.dis. Anything
// missing gives a warning and the listing goes on without it.
void load_source(const std::string& dis_path, dis::Module& m, dis::assembly::DisasmOptions& opt) {
  const fs::path sbl_path = fs::path(dis_path).replace_extension(".sbl");
  if (!fs::exists(sbl_path)) {
    std::cerr << "disdump: warning: " << sbl_path.string()
              << " not found; listing without source lines\n";
    return;
  }
  try {
    dis::apply_sbl(m, dis::read_sbl_file(sbl_path.string()));
  } catch (const dis::InputError& e) {
    std::cerr << "disdump: warning: " << e.what() << "; listing without source lines\n";
    return;
  }
  // Only the files some instruction comes from (not every included .m file).
  const fs::path dir = fs::path(dis_path).parent_path();
  std::vector<bool> used(m.source_files.size(), false);
  for (const dis::SrcPos& p : m.positions)
    if (p.file >= 0 && static_cast<std::size_t>(p.file) < used.size())
      used[static_cast<std::size_t>(p.file)] = true;
  opt.source_text.assign(m.source_files.size(), {});
  for (std::size_t i = 0; i < m.source_files.size(); ++i) {
    if (!used[i]) continue;
    bool ok = false;
    opt.source_text[i] = read_lines(dir / m.source_files[i], ok);
    if (!ok)
      std::cerr << "disdump: warning: cannot read source " << (dir / m.source_files[i]).string()
                << "\n";
  }
}

}  // namespace

int main(int argc, char** argv) {
  dis::cli::Tool tool("disdump",
                      "disdump: print Dis modules (.dis) as Dis assembly, as limbo -S writes it",
                      "disdump [OPTIONS] FILE.dis...");
  CLI::App& app = tool.app();
  std::vector<std::string> files;
  bool pc = false, source = false;
  app.add_flag("--pc", pc, "Append each instruction's pc as a '# N' comment");
  app.add_flag("--source", source,
               "Interleave source lines (reads FILE.sbl beside FILE.dis and the source it names)");
  app.add_option("files", files, "Dis modules to print")->required();
  std::string out_path;
  tool.add_out(out_path, "write the listing to FILE instead of stdout");
  if (std::optional<int> rc = tool.parse(argc, argv)) return *rc;

  std::ofstream out_file;
  if (!out_path.empty()) {
    out_file.open(out_path, std::ios::binary);
    if (!out_file) {
      std::cerr << "disdump: " << out_path << ": cannot open for writing\n";
      return 2;
    }
  }
  std::ostream& out = out_path.empty() ? std::cout : out_file;
  int status = 0;
  for (const std::string& f : files) {
    try {
      dis::Module m = dis::read_dis_file(f);
      dis::assembly::DisasmOptions opt;
      opt.pc_numbers = pc;
      opt.source_lines = source;
      if (source) load_source(f, m, opt);
      if (files.size() > 1) out << "# " << f << "\n";
      out << dis::assembly::disassemble(m, opt);
    } catch (const dis::InputError& e) {
      std::cerr << e.what() << "\n";
      status = 2;
    }
  }
  out.flush();
  if (!out) {
    std::cerr << "disdump: " << (out_path.empty() ? "stdout" : out_path) << ": cannot write\n";
    return 2;
  }
  return status;
}
