# Polymorphic functions and adts: type parameters bound at each call,
# functions required by `for` clauses passed along and called.
implement Poly;
include "sys.m";
	sys: Sys;
include "draw.m";
Poly: module {
	init: fn(nil: ref Draw->Context, nil: list of string);
};

Stack: adt[T] {
	items: list of T;
	n: int;
	new: fn(): ref Stack[T];
	push: fn(s: self ref Stack[T], x: T);
	pop: fn(s: self ref Stack[T]): T;
};
Strstack: type Stack[string];

Num: adt {
	v: int;
	name: string;
	gt: fn(a: self ref Num, b: ref Num): int;
	text: fn(a: self ref Num): string;
};

# An adt whose parameter must provide text: its functions receive it hidden.
Shown: adt[T]
	for { T => text: fn(x: self T): string; }
{
	v: T;
	say: fn(s: self ref Shown[T]): string;
	twice: fn(s: self ref Shown[T]): string;
};

Pair: adt[A, B] {
	a: A;
	b: B;
};

Stack[T].new(): ref Stack[T]
{
	return ref Stack[T](nil, 0);
}

Stack[T].push(s: self ref Stack[T], x: T)
{
	s.items = x :: s.items;
	s.n++;
}

Stack[T].pop(s: self ref Stack[T]): T
{
	x := hd s.items;
	s.items = tl s.items;
	s.n--;
	return x;
}

Num.gt(a: self ref Num, b: ref Num): int
{
	return a.v > b.v;
}

Num.text(a: self ref Num): string
{
	return a.name + "=" + string a.v;
}

Shown[T].say(s: self ref Shown[T]): string
{
	return "<" + s.v.text() + ">";
}

Shown[T].twice(s: self ref Shown[T]): string
{
	return s.say() + s.say();
}

isnil[T](x: T): int
{
	return x == nil;
}

report[T](x: T, c: chan of string)
	for { T => text: fn(x: self T): string; }
{
	c <-= "spawned " + x.text();
}

rev[T](l: list of T): list of T
{
	r: list of T;
	for(; l != nil; l = tl l)
		r = hd l :: r;
	return r;
}

swap[A, B](p: ref Pair[A, B]): ref Pair[B, A]
{
	return ref Pair[B, A](p.b, p.a);
}

max[T](a: array of T): T
	for { T => gt: fn(x: self T, y: T): int; }
{
	m := a[0];
	for(i := 1; i < len a; i++)
		if(a[i].gt(m))
			m = a[i];
	return m;
}

# Passes its own T's gt along to max.
max2[T](a, b: array of T): T
	for { T => gt: fn(x: self T, y: T): int; }
{
	x := max(a);
	y := max(b);
	if(y.gt(x))
		return y;
	return x;
}

show[T](l: list of T): string
	for { T => text: fn(x: self T): string; }
{
	s := "";
	for(; l != nil; l = tl l)
		s += " " + T.text(hd l);
	return s;
}

init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;
	l := rev("a" :: "b" :: "c" :: nil);
	for(; l != nil; l = tl l)
		sys->print("%s", hd l);
	sys->print("\n");
	# expect: cba
	s := Stack[string].new();
	s.push("x");
	s.push("yy");
	top := s.pop();
	sys->print("%s %d", top, s.n);
	sys->print(" %s %d\n", s.pop(), s.n);
	# expect: yy 1 x 0
	ss: ref Strstack = ref Strstack(nil, 0);
	ss.push("alias");
	sys->print("%s\n", ss.pop());
	# expect: alias
	ns := Stack[ref Num].new();
	ns.push(ref Num(3, "three"));
	sys->print("%s\n", ns.pop().text());
	# expect: three=3
	a := array[] of {ref Num(2, "b"), ref Num(7, "g"), ref Num(5, "e")};
	sys->print("%s\n", max(a).name);
	# expect: g
	b := array[] of {ref Num(9, "i"), ref Num(1, "a")};
	sys->print("%s\n", max2(a, b).text());
	# expect: i=9
	sys->print("%s\n", max2(a[0:1], b[1:]).text());
	# expect: b=2
	sys->print("%s\n", show(ref Num(1, "one") :: ref Num(2, "two") :: nil));
	# expect:  one=1 two=2
	p := swap(ref Pair[string, ref Num]("left", ref Num(4, "four")));
	sys->print("%s %s\n", p.a.text(), p.b);
	# expect: four=4 left
	e := rev[string](nil);
	sys->print("%d\n", len e);
	# expect: 0
	sh := ref Shown[ref Num](ref Num(8, "eight"));
	sys->print("%s\n", sh.twice());
	# expect: <eight=8><eight=8>
	c := chan of string;
	spawn report(ref Num(6, "six"), c);
	sys->print("%s\n", <-c);
	# expect: spawned six=6
	sys->print("%d %d\n", isnil(sys), isnil(ref Num(0, nil)));
	# expect: 0 0
	nosys: Sys;
	sys->print("%d\n", isnil(nosys));
	# expect: 1
}
