# A call of a one-return function tested as a condition is inlined as the
# test itself: its argument is computed once, and !, && and || around it
# keep their meaning.
implement IC;
include "sys.m";
	sys: Sys;
include "draw.m";
IC: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};
n := 0;
next(): int
{
	return n++;
}
small(x: int): int
{
	return x >= 0 && x < 3;
}
init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;
	while(small(next()))
		sys->print("small %d\n", n);
	if(!small(n) || small(n - 4))
		sys->print("n %d\n", n);
	if(small(1) && !small(7))
		sys->print("both\n");
}
# expect: small 1
# expect: small 2
# expect: small 3
# expect: n 4
# expect: both
