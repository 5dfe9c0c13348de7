# References to polymorphic functions with a `for` clause: each is to a
# wrapper the compiler makes once per function and binding, which passes
# the bound adt's functions as the hidden arguments that a call through a
# `ref fn` cannot pass. Up and Down order alike values oppositely, so a
# wrapper of the wrong binding prints the other order.
implement PolyForFnRefs;
include "sys.m";
	sys: Sys;
include "draw.m";
PolyForFnRefs: module {
	init: fn(nil: ref Draw->Context, nil: list of string);
};

Up: adt {
	v: int;
	cmp: fn(a: self ref Up, b: ref Up): int;
	text: fn(a: self ref Up): string;
};
Up.cmp(a: self ref Up, b: ref Up): int
{
	return a.v - b.v;
}
Up.text(a: self ref Up): string
{
	return "u" + string a.v;
}

Down: adt {
	v: int;
	cmp: fn(a: self ref Down, b: ref Down): int;
	text: fn(a: self ref Down): string;
};
Down.cmp(a: self ref Down, b: ref Down): int
{
	return b.v - a.v;
}
Down.text(a: self ref Down): string
{
	return "d" + string a.v;
}

# No result: sorts in place by T's cmp.
sort[T](a: array of T)
	for { T => cmp: fn(a: self T, b: T): int; }
{
	for(i := 1; i < len a; i++)
		for(j := i; j > 0 && a[j].cmp(a[j-1]) < 0; j--)
			(a[j], a[j-1]) = (a[j-1], a[j]);
}

# A result, two required functions.
best[T](a: array of T): string
	for { T => cmp: fn(a: self T, b: T): int; text: fn(a: self T): string; }
{
	m := a[0];
	for(i := 1; i < len a; i++)
		if(a[i].cmp(m) > 0)
			m = a[i];
	return m.text();
}

# Two parameters with for clauses, and one without.
join[K, V, S](k: K, v: V, sep: S): (S, string)
	for { K => text: fn(a: self K): string; V => text: fn(a: self V): string; }
{
	return (sep, k.text() + v.text());
}

show[T](a: array of T): string
	for { T => text: fn(a: self T): string; }
{
	s := "";
	for(i := 0; i < len a; i++)
		s += " " + a[i].text();
	return s;
}

ups(): array of ref Up
{
	return array[] of {ref Up(3), ref Up(1), ref Up(2)};
}

downs(): array of ref Down
{
	return array[] of {ref Down(3), ref Down(1), ref Down(2)};
}

# Takes the reference as an argument and calls it.
twice(f: ref fn(a: array of ref Up): string, a, b: array of ref Up): string
{
	return f(a) + f(b);
}

sortup(f: ref fn(a: array of ref Up), a: array of ref Up)
{
	f(a);
}

gdown: ref fn(a: array of ref Down);

init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;

	# Bound explicitly, no result.
	su := sort[ref Up];
	a := ups();
	su(a);
	sys->print("%s\n", show(a));
	# expect:  u1 u2 u3

	# Bound by the target of the assignment, a global; the same binding as
	# a second reference.
	gdown = sort;
	d := downs();
	gdown(d);
	sys->print("%s\n", show(d));
	# expect:  d3 d2 d1
	sd := sort[ref Down];
	d = array[] of {ref Down(5), ref Down(9), ref Down(7)};
	sd(d);
	sys->print("%s\n", show(d));
	# expect:  d9 d7 d5

	# A result, called several times through each of two bindings.
	bu := best[ref Up];
	bd: ref fn(a: array of ref Down): string;
	bd = best;
	for(i := 0; i < 2; i++)
		sys->print("%s %s\n", bu(ups()), bd(downs()));
	# expect: u3 d1
	# expect: u3 d1
	sys->print("%s %s\n", bu(array[] of {ref Up(-4)}), bd(array[] of {ref Down(8), ref Down(-8)}));
	# expect: u-4 d-8

	# Passed as arguments, bound by the parameters' types.
	sys->print("%s\n", twice(best, ups(), array[] of {ref Up(10), ref Up(20)}));
	# expect: u3u20
	a = ups();
	sortup(sort, a);
	sys->print("%s\n", show(a));
	# expect:  u1 u2 u3

	# Three type parameters, two with for clauses; a tuple result.
	j := join[ref Up, ref Down, string];
	(sep, s) := j(ref Up(1), ref Down(2), "-");
	sys->print("%s%s\n", sep, s);
	# expect: -u1d2
	k: ref fn(k: ref Down, v: ref Up, sep: list of string): (list of string, string);
	k = join;
	(l, t) := k(ref Down(4), ref Up(5), "x" :: nil);
	sys->print("%s %s\n", hd l, t);
	# expect: x d4u5
}
