// Embeds the installed VM: registers a C++ builtin, compiles a Limbo program
// that calls it, runs it and checks what it printed.
#include <disvm/compiler.h>
#include <disvm/diag.h>
#include <disvm/vm.h>

#include <iostream>
#include <sstream>

namespace {

const char* kSource = R"(implement Consumer;
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

}  // namespace

int main() {
  std::ostringstream out;
  dis::vm::Options opts;
  opts.out = &out;
  dis::vm::VM vm(opts);
  // frame: 32 bytes of header, the int argument at 32
  vm.register_module(
      "$Twice",
      {{"twice", "f(i)i", 0, 40, {}, [](dis::vm::Call& c) { c.ret_int(2 * c.arg_int(32)); }}});
  try {
    dis::limbo::CompileOptions co;
    co.include_dirs.push_back(MODULE_DIR);
    dis::Module m = dis::limbo::compile_source("consumer.b", kSource, co);
    dis::vm::RunResult r = vm.run_module(std::move(m), "consumer.b", {"consumer.b", "answer"});
    if (r.status != 0) {
      std::cerr << "consumer: " << r.message << "\n";
      return 1;
    }
  } catch (const dis::InputError& e) {
    std::cerr << e.what() << "\n";
    return 1;
  }
  std::cout << out.str();
  return out.str() == "answer 42\n" ? 0 : 1;
}
