implement ConsBarrier;

# Lists grown by cons into module data and into a heap record while the
# incremental collector runs: the new cell takes over the destination's
# reference to the old list, so the old list must be marked through it.
# Prints the list lengths and element sums, which must equal what was added.

include "sys.m";
	sys: Sys;
include "draw.m";

ConsBarrier: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};

Holder: adt {
	l: list of array of int;
};

live: list of array of int;

init(nil: ref Draw->Context, args: list of string)
{
	sys = load Sys Sys->PATH;
	n := 3000;
	if(args != nil && tl args != nil)
		n = int hd tl args;
	h := ref Holder(nil);
	for(i := 0; i < n; i++){
		a := array[2] of int;
		a[0] = i;
		live = a :: live;
		b := array[3] of int;
		b[1] = 2*i;
		h.l = b :: h.l;
		junk := array[16] of int;	# garbage, to keep the collector busy
		junk[0] = i;
	}
	s1 := 0;
	for(l := live; l != nil; l = tl l)
		s1 += (hd l)[0];
	s2 := 0;
	for(l = h.l; l != nil; l = tl l)
		s2 += (hd l)[1];
	sys->print("%d %d %d %d\n", len live, s1, len h.l, s2);
}
