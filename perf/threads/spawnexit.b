implement Spawnexit;

# N threads that end at once: the cost of making a thread, running it and
# ending it (the run ends when every thread has).

include "sys.m";
	sys: Sys;
include "draw.m";

Spawnexit: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};

nop(v: int)
{
	v++;
}

init(nil: ref Draw->Context, args: list of string)
{
	sys = load Sys Sys->PATH;
	n := 100000;
	if(tl args != nil)
		n = int hd tl args;
	for(i := 0; i < n; i++)
		spawn nop(i);
	sys->print("spawned %d\n", n);
}
