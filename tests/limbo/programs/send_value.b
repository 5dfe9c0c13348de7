# A send `c <-= v` is an expression whose value is v (`case reply <-= r {`,
# Inferno's fslib.b); a con may be a tuple of constants and nils, its nils
# typed where it is used (dns.b's `Sync: con (nil, 0)`), also one of the
# implemented module named bare (fslib.b's Nilentry); two variants of a pick
# adt joined by :: make a list of the adt (dns.b).
implement SendValue;
include "sys.m";
	sys: Sys;
include "draw.m";
SendValue: module {
	init: fn(nil: ref Draw->Context, args: list of string);
	Empty: con (nil, 0, "e");
};
Sync: con (nil, 7);
Shape: adt {
	name: string;
	pick {
	Circle =>
		r: int;
	Square =>
		side: int;
	}
};
init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;
	c := chan[2] of int;
	case c <-= 2 {
	1 =>
		sys->print("one\n");
	2 =>
		sys->print("two\n");	# expect: two
	}
	x := (c <-= 40) + 1;
	sys->print("%d %d %d\n", x, <-c, <-c);	# expect: 41 2 40
	lc := chan[1] of (list of string, int);
	lc <-= Sync;
	(l, n) := <-lc;
	sys->print("%d %d\n", len l, n);	# expect: 0 7
	ec := chan[1] of (array of int, int, string);
	ec <-= Empty;
	(a, k, s) := <-ec;
	sys->print("%d %d %s\n", a == nil, k, s);	# expect: 1 0 e
	sq := ref Shape.Square("sq", 3);
	shapes := ref Shape.Circle("c", 1) :: sq :: nil;
	out := "";
	for(; shapes != nil; shapes = tl shapes)
		out += sys->sprint("/%s %d", (hd shapes).name, tagof hd shapes);
	sys->print("%s\n", out);	# expect: /c 0/sq 1
}
