implement Spawn;

# Issue 41's program: N threads each block sending one value on a shared
# channel, then the first thread receives them all. With a small heap limit
# a spawn runs out of memory: the spawning thread gets the exception, the
# VM must end with it (status 1) and never crash.

include "sys.m";
	sys: Sys;
include "draw.m";

Spawn: module {
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
	sys->print("threads %d sum %d\n", n, s);
}
