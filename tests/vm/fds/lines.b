implement Lines;

# Prints many lines: `dis lines.b | head -1` must end quietly.

include "sys.m";
	sys: Sys;
include "draw.m";

Lines: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};

init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;
	for(i := 0; i < 1000000; i++)
		sys->print("line %d\n", i);
}
