// Embeds the installed VM through both of its APIs and checks the results:
// the embedding layer (a C++ function registered from its signature, a
// Limbo function called with C++ values) and the VM's own API (a builtin
// module, a Limbo program that includes sys.m compiled and run).
#include <disvm/compiler.h>
#include <disvm/diag.h>
#include <disvm/embed.h>
#include <disvm/vm.h>

#include <iostream>
#include <sstream>

namespace {

const char* kProgram = R"(implement Consumer;
include "sys.m";
include "draw.m";
Consumer: module { init: fn(nil: ref Draw->Context, argv: list of string); };
Twice: module { PATH: con "$Twice"; twice: fn(n: int): int; };
init(nil: ref Draw->Context, argv: list of string)
{
	sys := load Sys Sys->PATH;
	t := load Twice Twice->PATH;
	sys->print("%s %d\n", hd tl argv, t->twice(21));
}
)";

const char* kCalc = R"(implement Calc;
Calc: module { area: fn(w, h: int): int; greet: fn(s: string): string; };
Host: module { suffix: fn(s: string): string; };
area(w, h: int): int { return w * h; }
greet(s: string): string { return (load Host "$Host")->suffix("hello, " + s); }
)";

int lower_api() {
  std::ostringstream out;
  dis::vm::Options opts;
  opts.out = &out;
  dis::vm::VM vm(opts);
  // frame: 32 bytes of header, the int argument at 32
  vm.register_module("$Twice", {{"twice", "f(i)i", 0, 40, {},
                                 [](dis::vm::Call& c) { c.ret_int(2 * c.arg_int(32)); }}});
  dis::limbo::CompileOptions co;
  co.include_dirs.push_back(MODULE_DIR);
  dis::Module m = dis::limbo::compile_source("consumer.b", kProgram, co);
  dis::vm::RunResult r = vm.run_module(std::move(m), "consumer.b", {"consumer.b", "answer"});
  if (r.status != 0) std::cerr << "consumer: " << r.message << "\n";
  std::cout << out.str();
  return out.str() == "answer 42\n" ? 0 : 1;
}

int embed_api() {
  dis::embed::VM vm;
  vm.add(dis::embed::Module("$Host").def("suffix", [](std::string s) { return s + "!"; }));
  dis::embed::Script calc = vm.load_string(kCalc, "calc.b");
  int area = calc.call<int>("area", 6, 7);
  std::string greeting = calc.call<std::string>("greet", "world");
  std::cout << area << " " << greeting << "\n";
  return area == 42 && greeting == "hello, world!" ? 0 : 1;
}

}  // namespace

int main() try {
  return lower_api() | embed_api();
} catch (const std::exception& e) {
  std::cerr << "consumer: " << e.what() << "\n";
  return 1;
}
