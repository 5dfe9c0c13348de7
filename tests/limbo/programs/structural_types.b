# Tuples and adts with the same members hold the same values: an adt
# returned as a tuple, arrays and lists of one assigned to the other; a
# parenthesized type is that type.
implement StructuralTypes;
include "sys.m";
	sys: Sys;
include "draw.m";
StructuralTypes: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};
Opt: adt {
	code: int;
	name: string;
};
Subexp: adt {
	lo, hi: int;
};
opts := array[] of {Opt(1, "mask"), Opt(3, "router")};
init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;
	(c, n) := find(1);
	sys->print("%d %s\n", c, n);	# expect: 3 router
	sub: array of Subexp;
	sub = spans();
	sys->print("%d %d %d\n", len sub, sub[1].lo, sub[1].hi);	# expect: 2 4 9
	l: list of (int, string);
	l = Opt(5, "five") :: nil;
	sys->print("%s\n", (hd l).t1);	# expect: five
	sys->print("%d\n", len ids());	# expect: 2
}
find(i: int): (int, string)
{
	return opts[i];
}
spans(): array of (int, int)
{
	return array[] of {(0, 1), (4, 9)};
}
ids(): (list of int)
{
	return 1 :: 2 :: nil;
}
