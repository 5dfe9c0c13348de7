# `m->(e)` (limbo.txt 8.1.4): e names an adt of module m or is a value of
# one, and the adt function after it is called through the module value m:
# `lin->(Linear->Vector).make(a)`, `spki->(k.mk()).text()` (infauth.b) and
# `draw->(img.origin)(p, q)` (miniterm.b).
implement ModuleParenCalls;
include "sys.m";
	sys: Sys;
include "draw.m";
ModuleParenCalls: module {
	init: fn(nil: ref Draw->Context, args: list of string);
	Vec: adt {
		x, y: int;
		make: fn(x: int): ref Vec;
		add: fn(v: self ref Vec, d: int): int;
		text: fn(v: self ref Vec): string;
	};
};
Vec.make(x: int): ref Vec
{
	return ref Vec(x, 2 * x);
}
Vec.add(v: self ref Vec, d: int): int
{
	v.x += d;
	return v.x;
}
Vec.text(v: self ref Vec): string
{
	return sys->sprint("(%d,%d)", v.x, v.y);
}
init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;
	m := load ModuleParenCalls SELF;
	v := m->(ModuleParenCalls->Vec).make(3);
	sys->print("%s\n", v.text());	# expect: (3,6)
	sys->print("%s\n", m->(Vec.make(4)).text());	# expect: (4,8)
	sys->print("%d\n", m->(v.add)(10));	# expect: 13
	sys->print("%s\n", m->(v).text());	# expect: (13,6)
}
