# nil in a tuple takes its type from where the tuple goes: a tuple or adt
# variable, a function's result, the variables a tuple is unpacked into,
# the element of the list it heads.
implement TupleNil;
include "sys.m";
	sys: Sys;
include "draw.m";
TupleNil: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};
Set: adt {
	n: int;
	a: array of int;
};
Globp: type (string, int);
Redirs: adt {
	r: list of (string, string, int);
};
globp: Globp;
name := "x";
args: list of string;
cur: string;
init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;
	globp = (nil, 1);
	sys->print("%d %d\n", globp.t0 == nil, globp.t1);	# expect: 1 1
	s := mkset(0);
	sys->print("%d %d\n", s.n, s.a == nil);	# expect: 0 1
	s = mkset(3);
	sys->print("%d %d\n", s.n, len s.a);	# expect: 3 3
	cur = "c";
	args = "a" :: nil;
	(cur, args, name) = (nil, nil, nil);
	sys->print("%d %d %d\n", cur == nil, args == nil, name == nil);	# expect: 1 1 1
	(l, r) := three();
	sys->print("%d %d\n", l == nil, r);	# expect: 1 0
	m: list of (string, list of string);
	m = (nil, "v" :: nil) :: nil;
	(k, v) := hd m;
	sys->print("%d %s\n", k == nil, hd v);	# expect: 1 v
	rl := ref Redirs(("f", nil, 2) :: nil);
	(f, g, h) := hd rl.r;
	sys->print("%s %d %d\n", f, g == nil, h);	# expect: f 1 2
}
mkset(n: int): Set
{
	if(n == 0)
		return (0, nil);
	return (n, array[n] of int);
}
three(): (list of int, int)
{
	return (nil, 0);
}
