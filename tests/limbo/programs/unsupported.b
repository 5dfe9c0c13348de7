# Constructs left out are refused with "not supported", never miscompiled.
implement U;
include "sys.m";
	sys: Sys;
include "draw.m";
U: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};
P: adt { a: int; };
init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;
	f := id;		# error: 13
	a := array[4] of int;
	a[1:2] = a[0:1];	# error: 15
	p := P(1);
	q := P(2);
	z := p == q;		# error: 18
	s := self;		# error: 19
}
id[T](x: T): T
{
	return x;
}
