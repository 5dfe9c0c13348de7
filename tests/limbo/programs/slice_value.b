# A slice assignment used as a value (Inferno's idiom for growing an array:
# `a = (array[2*n] of T)[0:] = a`), and a slice among the targets of a
# tuple assignment.
implement SliceValue;
include "sys.m";
	sys: Sys;
include "draw.m";
SliceValue: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};
init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;
	a := array[] of {1, 2, 3};
	a = (array[len a * 2] of int)[0:] = a;
	sys->print("%d %d %d %d\n", len a, a[0], a[2], a[5]);	# expect: 6 1 3 0
	t := array[] of {(1, "one")};
	t = (array[4] of (int, string))[0:] = t;
	sys->print("%d %s %d\n", len t, t[0].t1, t[3].t1 == nil);	# expect: 4 one 1
	b := array[5] of {* => 9};
	c := (b[2:] = array[] of {7, 8});
	sys->print("%d %d %d %d %d\n", len c, c[0], c[1], c[2], b[3]);	# expect: 3 7 8 9 8
	buf := array[4] of byte;
	n: int;
	(buf[1:], n) = reply();
	sys->print("%d %d %d %d\n", int buf[0], int buf[1], int buf[2], n);	# expect: 0 65 66 2
}
reply(): (array of byte, int)
{
	return (array of byte "AB", 2);
}
