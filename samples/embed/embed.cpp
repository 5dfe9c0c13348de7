// Embedding the Dis VM (docs/embedding.md): a C++ function as the module
// $Greet, Limbo source run in one call, a Limbo function called with C++
// values, a Limbo exception caught in C++. `embed_example prog.b args`
// runs a Limbo file instead, with $Greet available.
#include "embed.h"

#include <iostream>

const char* kHello = R"(implement Hello;
include "sys.m";
include "draw.m";
Hello: module {
	init: fn(nil: ref Draw->Context, argv: list of string);
	fib: fn(n: int): int;
	ratio: fn(a, b: int): int;
};
Greet: module { greet: fn(who: string): string; };
init(nil: ref Draw->Context, argv: list of string)
{
	sys := load Sys Sys->PATH;
	sys->print("%s\n", (load Greet "$Greet")->greet(hd tl argv));
}
fib(n: int): int { if(n < 2) return n; return fib(n-1) + fib(n-2); }
ratio(a, b: int): int { return a / b; }
)";

int main(int argc, char** argv) try {
  dis::embed::VM vm;
  auto greet = [](std::string who) { return "hello, " + who; };
  vm.add(dis::embed::Module("$Greet").def("greet", greet));
  if (argc > 1) return vm.run_file(argv[1], {argv + 2, argv + argc}), 0;
  vm.run_string(kHello, {"world"}, "hello.b");  // prints "hello, world"
  dis::embed::Script hello = vm.load_string(kHello, "hello.b");
  std::cout << "fib(20) = " << hello.call<int>("fib", 20) << std::endl;
  return hello.call<int>("ratio", 1, 0);  // throws "hello.b:16: zero divide"
} catch (const dis::embed::Error& e) {
  std::cout << "error: " << e.what() << std::endl;
  return 1;
}
