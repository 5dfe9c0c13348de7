# References to polymorphic functions: the type arguments given
# (`rev[string]`) or taken from the reference the value is stored in; the
# code is the one function every instance shares, reached through "$self".
implement PolyFnRefs;
include "sys.m";
	sys: Sys;
include "draw.m";
PolyFnRefs: module {
	init: fn(nil: ref Draw->Context, nil: list of string);
};
rev[T](l: list of T): list of T
{
	r: list of T;
	for(; l != nil; l = tl l)
		r = hd l :: r;
	return r;
}
pair[T, U](a: T, b: U): (U, T)
{
	return (b, a);
}
Box: adt {
	v: int;
};
show(l: list of string): string
{
	s := "";
	for(; l != nil; l = tl l)
		s += hd l;
	return s;
}
init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;
	f := rev[string];
	sys->print("%s\n", show(f("a" :: "b" :: "c" :: nil)));
	# expect: cba
	g: ref fn(l: list of ref Box): list of ref Box;
	g = rev;
	bs := g(ref Box(1) :: ref Box(2) :: nil);
	sys->print("%d %d\n", (hd bs).v, (hd tl bs).v);
	# expect: 2 1
	p := pair[string, ref Box];
	(b, s) := p("x", ref Box(7));
	sys->print("%d %s\n", b.v, s);
	# expect: 7 x
}
