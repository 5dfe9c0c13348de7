# Forms Inferno's own programs use: `c <- = v`, alt guards joined by `or`,
# `ref T` with no values, type names imported at top level (also from a
# module type name) and used in declarations, a module's type alias used
# before it is declared, integer literals kept whole until typed, global
# arrays of constants (kept in the data section), `return f()` of a
# function with no value, tuples received in alt arms, `.t0` members, adt-valued cons of a module (`Sys->nulldir`),
# and cons in adts counting with iota.
implement Forms;
include "sys.m";
	sys: Sys;
include "draw.m";
Lib: module {
	K: con 42;
	Name: con "lib";
	Pair: adt { a, b: int; s: string; };
	zero: con Pair(~0, 16r10, "zero");
};
K, Name, Pair: import Lib;
Holder: adt { p: ref Pair; n: int; ONE, TWO, FOUR: con 1 << iota; };
Shape: adt {
	pick {
	Circle => r: int;
	Box => w, h: int;
	}
};
Forms: module {
	init: fn(nil: ref Draw->Context, args: list of string);
	depth: fn(t: ref Tree): int;
	Tree: type Node;
	Node: adt { v: int; next: ref Node; };
};
smon := array[] of {"Jan", "Feb", "Mar"};
sq := array[5] of {0 => 10, 2 to 3 => 7, * => 1};
pairs := array[] of {("a", 1), ("b", 2)};
bits := array[] of {byte 1, byte 2, byte 128};
reals := array[] of {1.5, 2.25};
empty := array[4] of list of string;
nothing: string = nil;
say(s: string)
{
	sys->print("%s\n", s);
}
saythen(s: string)
{
	return say(s);
}
depth(t: ref Tree): int
{
	n := 0;
	for(; t != nil; t = t.next)
		n++;
	return n;
}
init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;
	c := chan[2] of int;
	c <- = 5;
	c <-= 6;
	x := <-c;
	sys->print("send %d %d\n", x, <-c);	# expect: send 5 6
	a := chan[1] of string;
	b := chan[1] of string;
	b <- = "from b";
	for(i := 0; i < 3; i++) {
		if(i == 1)
			a <- = "from a";
		alt {
		s := <-a or
		s = <-b =>
			sys->print("got %s\n", s);	# expect: got from b
			# expect: got from a
		* =>
			sys->print("none\n");	# expect: none
		}
	}
	out := chan[1] of int;
	alt {
	out <- = 7 or
	v := <-c =>
		sys->print("arm %d\n", <-out);	# expect: arm 7
	}
	tc := chan[1] of (int, string, int);
	tc <-= (3, "tuple", 4);
	alt {
	(tn, nil, tm) := <-tc =>
		sys->print("alt tuple %d %d\n", tn, tm);	# expect: alt tuple 3 4
	}
	tc <-= (5, "again", 6);
	ts: string;
	alt {
	(nil, ts, nil) = <-tc =>
		sys->print("alt assign %s\n", ts);	# expect: alt assign again
	}
	p := ref Pair;
	sys->print("ref %d %d %d\n", p.a, p.b, p.s == nil);	# expect: ref 0 0 1
	q := ref Pair(1, 2, "q");
	h := Holder(q, K);
	sys->print("import %d %d %s %s\n", h.p.b, h.n, h.p.s, Name);	# expect: import 2 42 q lib
	sh := ref Shape.Box;
	pick r := sh {
	Box =>
		sys->print("box %d %d\n", r.w, r.h);	# expect: box 0 0
	Circle =>
		sys->print("circle\n");
	}
	t := ref Node(1, ref Node(2, nil));
	t.next.next = ref Tree;
	sys->print("depth %d\n", depth(t));	# expect: depth 3
	z := big 16rffffffff;
	z++;
	y: big = 16rffffffff;
	w := big -16rffffffff;
	sys->print("big %bd %bd %bd\n", z, y, w);	# expect: big 4294967296 4294967295 -4294967295
	sys->print("t0 %s %d\n", pairs[1].t0, pairs[0].t1);	# expect: t0 b 1
	(qs, qn) := pairs[1];
	sys->print("%s %d|%d %d %d %d %d|%s %d|%d|%g %g\n", smon[2], len smon, sq[0], sq[1], sq[2], sq[3], sq[4], qs, qn, int bits[2], reals[0], reals[1]);	# expect: Mar 3|10 1 7 7 1|b 2|128|1.5 2.25
	(ps, pn) := pairs[0];
	sys->print("%s%d %d %d %d\n", ps, pn, len empty, empty[3] == nil, nothing == nil);	# expect: a1 4 1 1
	sq[4] = 9;
	sys->print("%d\n", sq[4]);	# expect: 9
	sys->print("adt iota %d %d %d\n", Holder.ONE, Holder.TWO, Holder.FOUR);	# expect: adt iota 1 2 4
	z0 := Lib->zero;
	sys->print("adt con %d %d %s\n", z0.a, z0.b, z0.s);	# expect: adt con -1 16 zero
	saythen("void return");	# expect: void return
	m := 16rffffffff;
	sys->print("int %d\n", m);	# expect: int -1
}
