# Tuples: construction, unpacking with nil placeholders, tuples returned
# from functions, tuple members, tuples holding pointers.
implement Tuples;
include "sys.m";
	sys: Sys;
include "draw.m";
Tuples: module { init: fn(nil: ref Draw->Context, nil: list of string); };

divmod(a, b: int): (int, int)
{
	return (a/b, a%b);
}

swap(t: (string, real)): (real, string)
{
	(s, r) := t;
	return (r, s);
}

init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;
	(q, r) := divmod(17, 5);
	sys->print("divmod %d %d\n", q, r);
	(nil, r2) := divmod(-17, 5);
	sys->print("rem %d\n", r2);
	t := ("pi", 3.25);
	(x, s) := swap(t);
	sys->print("swap %g %s\n", x, s);
	u := (big 7, array[] of {byte 1, byte 2}, "z");
	sys->print("members %bd %d %s\n", u.t0, len u.t1, u.t2);
	a, b: int;
	(a, b) = (1, 2);
	(a, b) = (b, a);
	sys->print("exchange %d %d\n", a, b);
	nested := (1, (2, "three"));
	(one, (two, three)) := nested;
	sys->print("nested %d %d %s\n", one, two, three);
}
