implement Dropbig;

# A large structure of small blocks (a complete binary tree and a long list)
# built, checked and dropped; afterwards only a little is allocated. The
# heap's free top must go back to the system (its extent falls well below
# the peak). Usage: dropbig [depth [listlen]]

include "sys.m";
	sys: Sys;
include "draw.m";

Dropbig: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};

Tree: adt {
	left, right: cyclic ref Tree;
	v: int;
};

build(depth, v: int): ref Tree
{
	if(depth <= 0)
		return ref Tree(nil, nil, v);
	return ref Tree(build(depth - 1, 2 * v), build(depth - 1, 2 * v + 1), v);
}

sum(t: ref Tree): int
{
	if(t == nil)
		return 0;
	return (t.v & 16rFF) + sum(t.left) + sum(t.right);
}

init(nil: ref Draw->Context, args: list of string)
{
	sys = load Sys Sys->PATH;
	depth := 18;
	n := 500000;
	args = tl args;
	if(args != nil){
		depth = int hd args;
		args = tl args;
	}
	if(args != nil)
		n = int hd args;
	t := build(depth, 1);
	l: list of int;
	for(i := 0; i < n; i++)
		l = i :: l;
	s := sum(t);
	k := 0;
	for(p := l; p != nil; p = tl p)
		k += hd p & 16rF;
	t = nil;
	l = nil;
	p = nil;
	small: list of string;
	for(i = 0; i < 100; i++)
		small = string i :: small;
	sys->print("tree %d list %d small %d\n", s, k, len small);
}
