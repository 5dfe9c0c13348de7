implement Longlist;

# A list of a million elements built and dropped: destruction must not
# recurse once per cell.

include "sys.m";
	sys: Sys;
include "draw.m";

Longlist: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};

Item: adt {
	v: int;
};

init(nil: ref Draw->Context, args: list of string)
{
	sys = load Sys Sys->PATH;
	n := 1000000;
	if(tl args != nil)
		n = int hd tl args;
	l: list of ref Item;
	for(i := 0; i < n; i++)
		l = ref Item(i) :: l;
	s := 0;
	for(p := l; p != nil; p = tl p)
		s += (hd p).v & 16rFF;
	sys->print("len %d sum %d\n", len l, s);
	l = nil;
	ints: list of int;
	for(i = 0; i < n; i++)
		ints = i :: ints;
	sys->print("ints %d\n", len ints);
}
