# Tuples and adt values built in place (in a declared name, a temporary, a
# member of one being built) still read the old values they are made from.
implement S;
include "sys.m";
	sys: Sys;
include "draw.m";
S: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};
P: adt { x, y: int; s: string; };
init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;
	a := "a"; b := "b";
	(a, b) = (b, a);
	p := P(1, 2, "p");
	p = P(p.y, p.x, p.s + a);
	q := (p, P(p.x, 9, b));
	(p, nil) = (q.t1, q.t0);
	sys->print("%s %s %d %d %s %d\n", a, b, p.x, p.y, p.s, q.t0.y);
}
# expect: b a 2 9 a 1
