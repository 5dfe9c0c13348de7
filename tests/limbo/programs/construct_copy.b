# `Adt(v)` and `ref Adt(v)` of an Adt value v copy it (the parenthesized
# value is the whole tuple of values); an array literal with keys and no
# size takes one past the largest index.
implement ConstructCopy;
include "sys.m";
	sys: Sys;
include "draw.m";
ConstructCopy: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};
Addr: adt {
	a: array of byte;
};
Merc: adt {
	name: string;
	k: real;
	n: int;
};
init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;
	x := Addr(array[] of {0 to 3 => byte 7});
	y := Addr(x);
	sys->print("%d %d\n", len y.a, int y.a[3]);	# expect: 4 7
	tab := array[] of {Merc("a", 0.5, 1), Merc("b", 1.5, 2)};
	m := ref Merc(tab[1]);
	tab[1].n = 9;
	sys->print("%s %g %d %d\n", m.name, m.k, m.n, tab[1].n);	# expect: b 1.5 2 9
	k := array[] of {0 => byte '9'};
	sys->print("%d %c\n", len k, int k[0]);	# expect: 1 9
	r := array[] of {2 => "two", "three", 0 => "zero"};
	sys->print("%d %s %d %s\n", len r, r[0], r[1] == nil, r[3]);	# expect: 4 zero 1 three
}
