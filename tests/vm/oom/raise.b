implement RaiseWithLongNames;

# Exceptions whose names are longer than a short string's inline room (the
# module's name is part of each), raised with values, while host
# allocations fail in turn: the raised value's reference is taken just
# before the throw, so nothing that can fail may come between them.

include "sys.m";
	sys: Sys;
include "draw.m";

RaiseWithLongNames: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};

Overflowed: exception(int, string);

# Raised one call below its handler: an exception with values that
# neither the raising function nor its caller handles becomes a string.
overflow(n: int)
{
	raise Overflowed(n, "deep");
}

init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;
	sum := 0;
	for(i := 0; i < 3; i++) {
		Localised: exception(list of int);
		{
			overflow(i);
		} exception e {
		Overflowed =>
			(n, s) := e;
			sum += n + len s;
		}
		{
			raise Localised(i :: sum :: nil);
		} exception e {
		Localised =>
			sum += hd tl e;
		}
	}
	sys->print("%d\n", sum);
}
