# Function references: a heap pair (module value, link index) made from a
# function of this module or of a loaded one, called through by mframe/mcall;
# stored in adts and arrays, passed to polymorphic functions.
implement F;
include "sys.m";
	sys: Sys;
include "draw.m";
F: module {
	init: fn(nil: ref Draw->Context, nil: list of string);
};
Op: adt {
	name: string;
	f: ref fn(a, b: int): int;
};
add(a, b: int): int { return a + b; }
mul(a, b: int): int { return a * b; }
apply(f: ref fn(a, b: int): int, x, y: int): int
{
	return f(x, y);
}
map[T](f: ref fn(x: T): T, l: list of T): list of T
{
	if(l == nil)
		return nil;
	return f(hd l) :: map(f, tl l);
}
shout(s: string): string { return s + "!"; }
init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;
	g: ref fn(a, b: int): int;
	g = add;
	sys->print("%d %d\n", g(2, 3), apply(mul, 4, 5));
	# expect: 5 20
	ops := array[] of {Op("add", add), Op("mul", mul)};
	for(i := 0; i < len ops; i++)
		sys->print("%s %d\n", ops[i].name, ops[i].f(6, 7));
	# expect: add 13
	# expect: mul 42
	for(l := map(shout, "a" :: "b" :: nil); l != nil; l = tl l)
		sys->print("%s", hd l);
	sys->print("\n");
	# expect: a!b!
	h := sys->fildes;
	sys->fprint(h(1), "%d\n", 42);
	# expect: 42
	cmds: array of Op;
	cmds = array[] of {("plus", add), ("times", mul)};
	sys->print("%s %d\n", cmds[1].name, cmds[1].f(3, 3));
	# expect: times 9
	g = nil;
	if(g == nil)
		sys->print("nil\n");
	# expect: nil
}
