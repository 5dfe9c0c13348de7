# Code the compiler shortens, run: `ref Adt(...)` stores nothing for a nil
# (`new` sets every pointer to H) and each still reads as nil, a pointer
# given a value gets it, in a pick variant too; pointers compare with nil
# either way round (H as an immediate) while a string's nil is still "";
# commutative operations take a field as their source.
implement RefNil;
include "sys.m";
	sys: Sys;
include "draw.m";
RefNil: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};
Node: adt {
	left, right: cyclic ref Node;
	name: string;
	n: int;
	kids: list of int;
	a: array of int;
};
F: adt { n: int; r: real; b: big; };
Shape: adt {
	pick {
	Box =>
		label: string;
		next: cyclic ref Shape;
	}
};
nilcount(t: ref Node): int
{
	c := 0;
	if(t.left == nil) c++;
	if(t.right == nil) c++;
	if(t.name == nil) c++;
	if(t.kids == nil) c++;
	if(t.a == nil) c++;
	return c;
}
init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;
	leaf := ref Node(nil, nil, nil, 7, nil, nil);
	sys->print("leaf %d nil %d\n", leaf.n, nilcount(leaf));	# expect: leaf 7 nil 5
	mid := ref Node(leaf, nil, "m", 8, 1 :: nil, array[2] of int);
	sys->print("mid %d nil %d %s %d %d\n", mid.n, nilcount(mid), mid.name, hd mid.kids, len mid.a);	# expect: mid 8 nil 1 m 1 2
	top := ref Node(nil, mid, nil, 9, nil, nil);
	sys->print("top nil %d right %d left-of-right %d\n", nilcount(top), top.right.n, top.right.left.n);	# expect: top nil 4 right 8 left-of-right 7
	c: chan of int;
	e := "";
	n := 0;
	if(nil == leaf.left) n++;
	if(mid.left != nil) n++;
	if(nil != mid.kids) n++;
	if(c == nil) n++;
	if(mid.a != nil) n++;
	if(e == nil) n++;
	if(nil != e) n--;
	sys->print("compares %d\n", n);	# expect: compares 6
	# Commutative operations on fields, their operands swapped.
	v := 5;
	f := ref F(3, 1.5, big 7);
	sys->print("fields %d %g %bd %d %d\n", f.n * v + f.n, f.r * 2.0 + f.r, f.b * big 3 + f.b, (f.n & 6) | (f.n ^ v), f.n - v);	# expect: fields 18 4.5 28 6 -2
	s := ref Shape.Box(nil, nil);
	t := ref Shape.Box("t", s);
	pick b := t {
	Box =>
		pick c := b.next {
		Box =>
			if(c.label == nil && c.next == nil)
				sys->print("box %s next nil fields\n", b.label);	# expect: box t next nil fields
		}
	}
}
