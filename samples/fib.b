implement Fib;

# Recursive Fibonacci: the classic call-heavy benchmark.

include "sys.m";
	sys: Sys;
include "draw.m";

Fib: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};

fib(n: int): int
{
	if(n < 2)
		return n;
	return fib(n - 1) + fib(n - 2);
}

init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;
	for(i := 0; i <= 20; i += 5)
		sys->print("fib(%d) = %d\n", i, fib(i));
}
