implement Loop;

# A counted loop: movw, the exit test at the top, addw, jmp.

include "sys.m";
	sys: Sys;
include "draw.m";

Loop: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};

init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;
	sum := 0;
	for(i := 0; i < 100000; i++)
		sum += i & 16rff;
	sys->print("sum %d\n", sum);
	b := big 0;
	for(i = 0; i < 1000; i++)
		b += big i * big i;
	sys->print("squares %bd\n", b);
}
