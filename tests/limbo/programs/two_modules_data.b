# `implement A, B;` with data in both modules: their variables are this
# module's data together, sorted by name (a name both declare, with one
# type, is one variable), and exported so as `.mp`; the module reaches
# them by name and through a module value of either type loaded as SELF.
implement TwoData, Tally;
include "sys.m";
	sys: Sys;
include "draw.m";
TwoData: module {
	init: fn(nil: ref Draw->Context, args: list of string);
	shared: int;
	zlast: string;
};
Tally: module {
	count: int;
	shared: int;
	total: big;
	bump: fn(n: int): int;
};
zlast = "z";
bump(n: int): int
{
	count += n;
	total += big n << 32;
	return count;
}
init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;
	bump(3);
	bump(4);
	shared = 9;
	sys->print("%d %bd %d %s\n", count, total, shared, zlast);	# expect: 7 30064771072 9 z
	t := load Tally SELF;
	me := load TwoData SELF;
	t->count += 10;
	me->zlast += "!";
	me->shared++;
	sys->print("%d %d %s\n", t->bump(1), me->shared, zlast);	# expect: 18 10 z!
	sys->print("%bd %s\n", t->total >> 32, me->zlast);	# expect: 8 z!
}
