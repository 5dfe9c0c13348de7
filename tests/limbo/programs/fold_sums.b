# Sums folded as Inferno's compiler folds them: x + 0 and 0 + x are x,
# (x + c1) + c2 is x + (c1 + c2); the values are unchanged.
implement FS;
include "sys.m";
	sys: Sys;
include "draw.m";
FS: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};
B: con 16r100;
init(nil: ref Draw->Context, args: list of string)
{
	sys = load Sys Sys->PATH;
	x := len args + 5;
	a := array[] of {1, 2, 3};
	sys->print("%d %d %d\n", x + 0, 0 + x, a[x - 4 - 0]);
	sys->print("%d %d\n", (x * 4 + B + 512 - 1) / 512, x + 100 + 23);
}
# expect: 6 6 3
# expect: 1 129
