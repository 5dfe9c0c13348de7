# `implement A, B;`: one module implements both declarations. Its links are
# the union of their functions (a function both declare once), its adts and
# cons are visible by bare names, and it is named "TwoModules+Counter" (as
# Inferno names it, attrhash.b); `load Counter SELF` reaches it as a Counter.
implement TwoModules, Counter;
include "sys.m";
	sys: Sys;
include "draw.m";
TwoModules: module {
	init: fn(nil: ref Draw->Context, args: list of string);
	counter: fn(): Counter;
};
Counter: module {
	STEP: con 5;
	Tally: adt {
		n: int;
		bump: fn(t: self ref Tally): int;
	};
	init: fn(nil: ref Draw->Context, args: list of string);
	total: fn(t: ref Tally): int;
};
Tally.bump(t: self ref Tally): int
{
	t.n += STEP;
	return t.n;
}
total(t: ref Tally): int
{
	return t.n * 10;
}
counter(): Counter
{
	return load Counter SELF;
}
init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;
	t := ref Tally(1);
	t.bump();
	sys->print("%d %d\n", t.n, total(t));	# expect: 6 60
	c := counter();
	if(c == nil)
		sys->print("no self\n");
	else
		sys->print("%d\n", c->total(ref Counter->Tally(3)));	# expect: 30
}
