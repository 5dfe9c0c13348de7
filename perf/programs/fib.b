implement Fib;

# Recursive Fibonacci: calls, returns and integer compares.
# Usage: fib [n]   (prints fib(n); n at most 46 so the result fits an int)

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

init(nil: ref Draw->Context, args: list of string)
{
	sys = load Sys Sys->PATH;

	n := 37;	# default size
	if(args != nil && tl args != nil)
		n = int hd tl args;
	sys->print("fib %d: %d\n", n, fib(n));
}
