# A tuple assignment or declaration used as a value is the tuple, unpacked
# on the way (Inferno's fs filters loop on `((d, r) := <-c).t0 != nil`);
# a tuple literal sent or passed as an adt takes the adt's member types, so
# its nils are typed; so does a module's tuple-valued con, and a tuple of
# nils assigned to names takes their types.
implement T;
include "sys.m";
	sys: Sys;
include "draw.m";
Data: adt {
	name: string;
	bytes: array of byte;
};
M: module {
	Nothing: con (("none", nil), nil, 0);
};
Nothing: import M;
T: module {
	init: fn(nil: ref Draw->Context, nil: list of string);
};
init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;
	c := chan[3] of (string, int);
	c <-= ("a", 1);
	c <-= ("b", 2);
	c <-= (nil, 3);
	n := 0;
	while(((s, k) := <-c).t0 != nil)
		n += k;
	sys->print("%d %d %s\n", n, k, s);
	# expect: 3 3 
	x: string;
	y: int;
	if(((x, y) = hd (("q", 7) :: nil)).t1 == 7)
		sys->print("%s %d\n", x, y);
	# expect: q 7
	dc := chan[1] of (Data, int);
	dc <-= (("d", nil), 5);
	(dd, five) := <-dc;
	sys->print("%s %d %d\n", dd.name, len dd.bytes, five);
	# expect: d 0 5
	tc := chan[2] of (Data, array of byte, int);
	tc <-= Nothing;
	tc <-= M->Nothing;
	(n0, b0, z0) := <-tc;
	(n1, nil, nil) := <-tc;
	sys->print("%s %d %d %s\n", n0.name, len b0, z0, n1.name);
	# expect: none 0 0 none
	sa := "x";
	la := "y" :: nil;
	(sa, la) = (nil, nil);
	sys->print("%d %d\n", len sa, la == nil);
	# expect: 0 1
}
