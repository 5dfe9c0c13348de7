# Adt functions called through a module value: `m->Adt.f(...)` (no import
# needed) and `m->v.f(...)` with v a value in scope (Inferno's programs
# write `bufio->f.gets('\n')` and `g.bufio->g.bout.flush()`).
implement ModuleAdtCalls;
include "sys.m";
	sys: Sys;
include "draw.m";
ModuleAdtCalls: module {
	init: fn(nil: ref Draw->Context, args: list of string);
	Counter: adt {
		n: int;
		new: fn(n: int): ref Counter;
		bump: fn(c: self ref Counter, by: int): int;
	};
};
Counter.new(n: int): ref Counter
{
	return ref Counter(n);
}
Counter.bump(c: self ref Counter, by: int): int
{
	c.n += by;
	return c.n;
}
Holder: adt {
	m: ModuleAdtCalls;
	c: ref Counter;
};
init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;
	me := load ModuleAdtCalls SELF;
	c := me->Counter.new(5);
	sys->print("%d\n", c.n);	# expect: 5
	sys->print("%d\n", me->c.bump(2));	# expect: 7
	sys->print("%d %d\n", me->c.bump(3), c.n);	# expect: 10 10
	sys->print("%d\n", Counter.new(1).bump(1));	# expect: 2
	# `h.m->h.c.bump()`: the selection after -> is read in the caller's scope
	h := ref Holder(me, c);
	sys->print("%d\n", h.m->h.c.bump(5));	# expect: 15
}
