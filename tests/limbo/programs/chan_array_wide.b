# Receiving a big, a real or a tuple starting with one from an array of
# channels: the VM stores the value one word after the index, as Inferno's
# does, so the alt entry names the tuple's padding word and the index is
# copied down once received; by value, into a declared tuple, a tuple
# variable, an alt arm's names, and from a channel that blocks first
# (each alt has one channel ready, so the order is fixed).
implement ChanArrayWide;
include "sys.m";
	sys: Sys;
include "draw.m";
ChanArrayWide: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};
Pair: type (real, string);
sendlater(c: chan of big, v: big)
{
	c <-= v;
}
init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;
	r := array[3] of chan of real;
	r[2] = chan[1] of real;
	r[2] <-= 2.5;
	(i, x) := <-r;
	sys->print("%d %g\n", i, x);	# expect: 2 2.5
	b := array[2] of chan of big;
	b[1] = chan[1] of big;
	b[1] <-= big 1 << 40;
	t := <-b;
	sys->print("%d %bd\n", t.t0, t.t1);	# expect: 1 1099511627776
	p := array[2] of chan of Pair;
	p[0] = chan[1] of Pair;
	p[0] <-= (-0.25, "pair");
	u: (int, Pair);
	u = <-p;
	(k, q) := u;
	(pr, ps) := q;
	sys->print("%d %g %s\n", k, pr, ps);	# expect: 0 -.25 pair
	b[0] = chan of big;
	b[1] = nil;
	r[2] <-= 0.125;
	for(n := 0; n < 2; n++) alt {
	(j, v) := <-b =>
		sys->print("big %d %bd\n", j, v);
	(j, v) := <-r =>
		sys->print("real %d %g\n", j, v);
		spawn sendlater(b[0], big -7);
	}
	# expect: real 2 .125
	# expect: big 0 -7
}
