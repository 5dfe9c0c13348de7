# `ref Adt(...)` with nil values: the compiler stores nothing for them
# (`new` sets every pointer to H), and each still reads as nil; a pointer
# given a value gets it, in a pick variant too. Pointers compare with nil
# either way round (H as an immediate); a string's nil is still "".
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
