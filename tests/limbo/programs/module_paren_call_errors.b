# `m->(e)`: e must name or be a value of an adt of module m, and `m->(e)`
# called directly needs an adt function (`m->(v.f)`).
implement ParenErr;
include "sys.m";
	sys: Sys;
include "draw.m";
ParenErr: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};
Local: adt {
	n: int;
	get: fn(l: self ref Local): int;
};
Local.get(l: self ref Local): int
{
	return l.n;
}
init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;
	l := ref Local(1);
	sys->print("%d\n", sys->(l).get());	# error: 22
	sys->print("%d\n", sys->(l)());		# error: 23
}
