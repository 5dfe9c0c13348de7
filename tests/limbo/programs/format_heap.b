# %H, Inferno's debugging verb, prints a pointer's block as "ref.type": its
# reference count and type (Inferno: the type descriptor's address; this VM:
# the type's index); nil is -1.00000000. The format check takes any pointer.
implement FormatHeap;
include "sys.m";
	sys: Sys;
include "draw.m";
FormatHeap: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};
Node: adt {
	v: int;
};
init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;
	n: ref Node;
	a: array of int;
	sys->print("%H %H\n", n, a);	# expect: -1.00000000 -1.00000000
	n = ref Node(1);
	m := n;
	s := sys->sprint("%H", n);
	(nil, f) := sys->tokenize(s, ".");
	# n, m and the print's argument hold it (and any temporary the code uses).
	sys->print("%d %d\n", int hd f >= 3, len hd tl f);	# expect: 1 8
	m = nil;
}
