implement Fildes;

# Makes FD objects (Sys->fildes) while host allocations fail in turn: each
# failure must leave no FD object behind with a count and no holder.

include "sys.m";
	sys: Sys;
include "draw.m";

Fildes: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};

init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;
	n := 0;
	for(i := 0; i < 3; i++)
		if(sys->fildes(1) != nil)
			n++;
	sys->print("%d\n", n);
}
