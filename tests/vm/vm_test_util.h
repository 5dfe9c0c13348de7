// Helpers for VM tests: build a small assembly program around a body of
// instructions, run it through the embedding API, capture stdout/stderr.
//
// Program layout the bodies rely on:
//   frame (desc $1, 256 bytes): 40..127 scalars, 128..188 pointer slots,
//     192 the print frame pointer, 196 print's result;
//   module data (desc $0, 128 bytes): 0 "$Sys", 4 the Sys module, 8 "%d\n",
//     12 "%bd\n", 16 "%g\n", 20 "%s\n", 24 and 28 free pointer slots,
//     32..127 scalars (bigs and reals must come from here).
// Body lines may define labels ("L:name") and refer to them as "$@name".
#pragma once

#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "assembler.h"
#include "vm.h"

namespace vmtest {

struct Outcome {
  int status = 0;
  std::string out, err;
};

inline std::string print_int(const std::string& op) {
  return "\tframe\t$2,192(fp)\n\tmovp\t8(mp),32(192(fp))\n\tmovw\t" + op +
         ",36(192(fp))\n\tlea\t196(fp),16(192(fp))\n\tmcall\t192(fp),$0,4(mp)\n";
}
inline std::string print_big(const std::string& op) {
  return "\tframe\t$3,192(fp)\n\tmovp\t12(mp),32(192(fp))\n\tmovl\t" + op +
         ",40(192(fp))\n\tlea\t196(fp),16(192(fp))\n\tmcall\t192(fp),$0,4(mp)\n";
}
inline std::string print_real(const std::string& op) {
  return "\tframe\t$3,192(fp)\n\tmovp\t16(mp),32(192(fp))\n\tmovf\t" + op +
         ",40(192(fp))\n\tlea\t196(fp),16(192(fp))\n\tmcall\t192(fp),$0,4(mp)\n";
}
inline std::string print_str(const std::string& op) {
  return "\tframe\t$4,192(fp)\n\tmovp\t20(mp),32(192(fp))\n\tmovp\t" + op +
         ",36(192(fp))\n\tlea\t196(fp),16(192(fp))\n\tmcall\t192(fp),$0,4(mp)\n";
}

// Resolves labels and wraps the body into a complete module.
inline std::string program(const std::string& body, const std::string& data = "",
                           const std::string& extra_descs = "", const std::string& handlers = "") {
  std::vector<std::string> lines;
  std::istringstream in("\tload\t0(mp),$0,4(mp)\n" + body + "\tret\n");
  std::string l;
  std::map<std::string, int> labels;
  int pc = 0;
  std::vector<std::string> code;
  while (std::getline(in, l)) {
    if (l.empty()) continue;
    if (l.rfind("L:", 0) == 0) {
      labels[l.substr(2)] = pc;
      continue;
    }
    // One instruction per line; a line may hold several (from print_*).
    code.push_back(l);
    ++pc;
  }
  std::string text;
  for (std::string c : code) {
    for (auto& [name, at] : labels) {
      std::string ref = "$@" + name;
      for (std::size_t p; (p = c.find(ref)) != std::string::npos;)
        c.replace(p, ref.size(), "$" + std::to_string(at));
    }
    text += c + "\n";
  }
  return "\tentry\t0, 1\n"
         "\tdesc\t$0,128,\"ff\"\n"
         "\tdesc\t$1,256,\"00c00000ffff\"\n"
         "\tdesc\t$2,40,\"0080\"\n"
         "\tdesc\t$3,48,\"0080\"\n"
         "\tdesc\t$4,40,\"00c0\"\n"
         "\tdesc\t$5,4,\"\"\n"
         "\tdesc\t$6,8,\"\"\n" +
         extra_descs +
         "\tvar\t@mp,128\n"
         "\tstring\t@mp+0,\"$Sys\"\n"
         "\tstring\t@mp+8,\"%d\\n\"\n"
         "\tstring\t@mp+12,\"%bd\\n\"\n"
         "\tstring\t@mp+16,\"%g\\n\"\n"
         "\tstring\t@mp+20,\"%s\\n\"\n" +
         data +
         "\tmodule\tT\n"
         "\tlink\t1,0,0x4244b354,\"init\"\n"
         "\tldts\t@ldt,1\n"
         "\tword\t@ldt+0,1\n"
         "\text\t@ldt+4,0xac849033,\"print\"\n" +
         handlers + text;
}

inline Outcome run_text(const std::string& text, dis::vm::Options opts = {}) {
  std::ostringstream out, err;
  opts.out = &out;
  opts.err = &err;
  Outcome o;
  dis::vm::VM vm(opts);
  dis::Module m = dis::assembly::assemble(text, "t.s");
  o.status = vm.run_module(std::move(m), "t.s", {"t.s"}).status;
  o.out = out.str();
  o.err = err.str();
  return o;
}

inline Outcome run(const std::string& body, const std::string& data = "",
                   dis::vm::Options opts = {}) {
  return run_text(program(body, data), opts);
}

}  // namespace vmtest
