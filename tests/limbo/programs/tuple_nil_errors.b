# A nil with nowhere to take a type from, or going where no pointer can.
implement TupleNilErrors;
include "sys.m";
include "draw.m";
TupleNilErrors: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};
init(nil: ref Draw->Context, nil: list of string)
{
	a := 1;
	b := "s";
	x := (nil, 1);	# error: 12
	(a, b) = (nil, nil);	# error: 13
	t: (int, string);
	t = (nil, "s");	# error: 15
}
f()
{
	s := "abc";
	n: int;
	(s[1:], n) = ("x", 1);	# error: 21
	a := array[2] of int;
	(a[0:], n) = (array[1] of string, 1);	# error: 23
}
