# Imported functions, module cons, spawn of a local function, a labelled block.
implement Imp;
include "sys.m";
	sys: Sys;
	print, sprint: import sys;
include "draw.m";
Imp: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};
T: adt { a: int; get: fn(t: self ref T): int; };
T.get(t: self ref T): int { return t.a; }
init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;
	print("%s %d\n", sprint("<%d>", 5), Sys->OREAD);	# expect: <5> 0
	t := ref T(3);
	c := chan of int;
	spawn g(t, c);
	print("got %d\n", <-c);	# expect: got 6
l:	{
		print("in\n");	# expect: in
		if(t.a == 3)
			break l;
		print("not reached\n");
	}
	print("out\n");	# expect: out
}
g(t: ref T, c: chan of int)
{
	c <-= t.get() * 2;
}
