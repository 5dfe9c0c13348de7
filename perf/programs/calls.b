implement Calls;

# A call-heavy loop: small functions of one to three arguments and an adt
# member function, called in a counted loop.
# Usage: calls [iterations]   (iterations below 500000000)

include "sys.m";
	sys: Sys;
include "draw.m";

Calls: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};

Acc: adt {
	n: int;
	add: fn(a: self ref Acc, v: int);
};

Acc.add(a: self ref Acc, v: int)
{
	a.n = (a.n + v) % 1000003;
}

inc(x: int): int
{
	return x + 1;
}

add3(a, b, c: int): int
{
	return a + b + c;
}

mix(a, b: int): int
{
	return (a * 31 + b) % 65536;
}

init(nil: ref Draw->Context, args: list of string)
{
	sys = load Sys Sys->PATH;

	n := 13000000;	# default size
	if(args != nil && tl args != nil)
		n = int hd tl args;
	acc := ref Acc(0);
	s := 0;
	for(i := 0; i < n; i++) {
		s = mix(s, add3(i, inc(i), 1));
		acc.add(s);
	}
	sys->print("calls %d: %d %d\n", n, s, acc.n);
}
