implement Blocked;

# N threads each block sending on one channel; then all are received.
# Peak memory is when all N are blocked: perf/threads/run.py divides its
# growth by N.

include "sys.m";
	sys: Sys;
include "draw.m";

Blocked: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};

w(c: chan of int, v: int)
{
	c <-= v;
}

init(nil: ref Draw->Context, args: list of string)
{
	sys = load Sys Sys->PATH;
	n := 100000;
	if(tl args != nil)
		n = int hd tl args;
	c := chan of int;
	for(i := 0; i < n; i++)
		spawn w(c, i);
	s := 0;
	for(i = 0; i < n; i++)
		s += <-c;
	sys->print("blocked %d sum %d\n", n, s);
}
