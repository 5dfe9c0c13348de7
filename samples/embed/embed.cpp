// Embedding the Dis VM: a host program registers its own builtin module
// ($Greet, written in C++), runs a Dis program that calls it through
// `load`/`mframe`/`mcall` exactly as it calls $Sys, captures the program's
// output and reads the VM's statistics.
//
//   embed_example            runs the built-in program below
//   embed_example prog.dis   runs a module file with $Greet available
#include <chrono>
#include <iostream>
#include <sstream>
#include <thread>

#include "assembler.h"
#include "signature.h"
#include "vm.h"

namespace {

// greet(name: string): string
void greet(dis::vm::Call& c) { c.ret_string("hello, " + c.arg_string(32) + ", from C++"); }

// nap(ms: int): a blocking builtin. Registered with `blocking` set, it runs
// with the interpreter released: other Dis threads (or idle GC) run while
// it sleeps. It may only read scalar arguments and set scalar results.
void nap(dis::vm::Call& c) {
  std::this_thread::sleep_for(std::chrono::milliseconds(c.arg_int(32)));
}

std::string program() {
  char sig[16];
  std::snprintf(sig, sizeof sig, "0x%x", dis::type_sig("f(s)s"));
  return R"(	load	0(mp),$0,8(mp)
	load	4(mp),$1,12(mp)
	mframe	12(mp),$0,40(fp)
	movp	16(mp),32(40(fp))
	lea	48(fp),16(40(fp))
	mcall	40(fp),$0,12(mp)
	frame	$1,40(fp)
	movp	20(mp),32(40(fp))
	movp	48(fp),36(40(fp))
	lea	44(fp),16(40(fp))
	mcall	40(fp),$0,8(mp)
	ret
	entry	0, 2
	desc	$0,24,"fc"
	desc	$1,40,"00c0"
	desc	$2,56,"00c8"
	var	@mp,24
	string	@mp+0,"$Sys"
	string	@mp+4,"$Greet"
	string	@mp+16,"embedder"
	string	@mp+20,"%s\n"
	module	Embed
	link	2,0,0x4244b354,"init"
	ldts	@ldt,2
	word	@ldt+0,1
	ext	@ldt+4,0xac849033,"print"
	word	@ldt+12,1
	ext	@ldt+16,)" +
         std::string(sig) + R"(,"greet"
)";
}

}  // namespace

int main(int argc, char** argv) {
  std::ostringstream captured;
  dis::vm::Options opts;
  opts.heap_limit = 64 << 20;
  opts.out = &captured;  // the program's stdout, kept by the host
  dis::vm::VM vm(opts);
  // frame: header and temps (32 bytes), the string argument at 32; the
  // pointer map marks word 8 (offset 32).
  // nap's frame: the int argument at 32, no pointers.
  vm.register_module("$Greet", {{"greet", "f(s)s", 0, 40, {0x00, 0x80}, greet},
                                {"nap", "f(i)n", 0, 40, {}, nap, /*blocking=*/true}});
  try {
    dis::vm::RunResult r = argc > 1 ? vm.run_file(argv[1], {argv[1]})
                                    : vm.run_module(dis::assembly::assemble(program(), "embed.s"),
                                                    "embed.s", {"embed.s"});
    dis::vm::Stats s = vm.stats();
    std::cout << "program said: " << captured.str();
    std::cout << "status " << r.status << ", " << s.instructions << " instructions, "
              << s.heap.allocs << " heap objects allocated, " << s.heap.frees << " freed\n";
    return r.status;
  } catch (const std::exception& e) {
    std::cerr << e.what() << "\n";
    return 2;
  }
}
