implement Loop;

# A counted integer loop: loop control, multiply, add and remainder.
# The state stays below 2^24, so 32-bit Limbo ints never overflow and
# Lua and Python compute the same values.
# Usage: loop [iterations]   (iterations below 1500000000)

include "sys.m";
	sys: Sys;
include "draw.m";

Loop: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};

init(nil: ref Draw->Context, args: list of string)
{
	sys = load Sys Sys->PATH;

	n := 125000000;	# default size
	if(args != nil && tl args != nil)
		n = int hd tl args;
	s := 0;
	for(i := 0; i < n; i++)
		s = (s * 31 + i) % 16777216;
	sys->print("loop %d: %d\n", n, s);
}
