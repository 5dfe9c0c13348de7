implement Calls;

# Function calls of every kind: local, adt member, and module (mcall).

include "sys.m";
	sys: Sys;
include "draw.m";

Calls: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};

Acc: adt {
	total: int;
	add: fn(a: self ref Acc, v: int);
};

Acc.add(a: self ref Acc, v: int)
{
	a.total += v;
}

twice(x: int): int
{
	return x + x;
}

# One return of an expression: Inferno's compiler (and ours) inlines twice;
# pair has two statements, so it stays a call.
pair(x: int): (int, string)
{
	t := x * 3;
	return (t, "p" + string x);
}

init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;
	a := ref Acc(0);
	for(i := 0; i < 1000; i++)
		a.add(twice(i));
	(n, s) := pair(a.total);
	sys->print("total %d tripled %d %s\n", a.total, n, s);
	t0 := sys->millisec();
	t1 := sys->millisec();
	sys->print("clock ok %d\n", t1 >= t0);
}
