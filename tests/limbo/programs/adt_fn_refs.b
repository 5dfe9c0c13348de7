# References to adts' functions without self (`Adt.f`, a pick adt's,
# `m->Adt.f` through a module value, an imported adt of a built-in module,
# `kr->IPint.f` through its module value, a polymorphic adt's bound by its type
# arguments or by the reference it is stored in): values of their `ref fn`
# type, called through, passed, returned and compared with nil.
implement AdtFnRefs;
include "sys.m";
	sys: Sys;
include "draw.m";
include "keyring.m";
	kr: Keyring;
	IPint: import kr;
AdtFnRefs: module {
	init: fn(nil: ref Draw->Context, nil: list of string);
	Counter: adt {
		n: int;
		new: fn(n: int): ref Counter;
	};
};
P: adt {
	x: int;
	twice: fn(a: int): int;
	neg: fn(a: int): int;
};
Shape: adt {
	pick {
	Sq =>
		side: int;
	Rect =>
		w, h: int;
	}
	area: fn(s: ref Shape): int;
};
Stack: adt[T] {
	items: list of T;
	one: fn(x: T): ref Stack[T];
};
Shown: adt[T]
	for { T => text: fn(x: self T): string; }
{
	v: T;
	show: fn(v: T): string;
};
Word: adt {
	s: string;
	text: fn(w: self ref Word): string;
};
P.twice(a: int): int { return 2*a; }
P.neg(a: int): int { return -a; }
Shape.area(s: ref Shape): int
{
	pick t := s {
	Sq => return t.side*t.side;
	Rect => return t.w*t.h;
	}
	return 0;
}
Counter.new(n: int): ref Counter { return ref Counter(n); }
Stack[T].one(x: T): ref Stack[T] { return ref Stack[T](x :: nil); }
Shown[T].show(v: T): string { return "<" + v.text() + ">"; }
Word.text(w: self ref Word): string { return w.s; }
apply(f: ref fn(a: int): int, x: int): int
{
	return f(x);
}
choose(i: int): ref fn(a: int): int
{
	if(i)
		return P.neg;
	return P.twice;
}
init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;
	f: ref fn(a: int): int;
	if(f == nil)
		sys->print("nil\n");
	# expect: nil
	f = P.twice;
	if(f != nil)
		sys->print("%d %d\n", f(4), apply(P.neg, 5));
	# expect: 8 -5
	sys->print("%d %d\n", choose(0)(7), choose(1)(7));
	# expect: 14 -7
	g := P.neg;
	sys->print("%d\n", g(g(3)));
	# expect: 3
	a := Shape.area;
	sys->print("%d %d\n", a(ref Shape.Sq(3)), a(ref Shape.Rect(2, 5)));
	# expect: 9 10
	me := load AdtFnRefs SELF;
	mk := me->Counter.new;
	mine := Counter.new;
	sys->print("%d %d\n", mk(6).n, mine(7).n);
	# expect: 6 7
	kr = load Keyring Keyring->PATH;
	ip := IPint.inttoip;
	ip2: ref fn(i: int): ref Keyring->IPint = kr->IPint.inttoip;
	sys->print("%d %d\n", ip(42).iptoint(), ip2(-3).iptoint());
	# expect: 42 -3
	s := Stack[string].one;
	sys->print("%s\n", hd s("x").items);
	# expect: x
	t: ref fn(x: ref P): ref Stack[ref P];
	t = Stack.one;
	sys->print("%d\n", (hd t(ref P(11)).items).x);
	# expect: 11
	w := Shown[ref Word].show;
	sys->print("%s\n", w(ref Word("hi")));
	# expect: <hi>
	f = nil;
	if(f == nil)
		sys->print("nil again\n");
	# expect: nil again
}
