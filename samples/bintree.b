implement BinTree;

# Binary trees: allocation, recursion and reference counting.

include "sys.m";
	sys: Sys;
include "draw.m";

BinTree: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};

Tree: adt {
	left, right: cyclic ref Tree;
	check: fn(t: self ref Tree): int;
};

make(depth: int): ref Tree
{
	if(depth == 0)
		return ref Tree(nil, nil);
	return ref Tree(make(depth - 1), make(depth - 1));
}

Tree.check(t: self ref Tree): int
{
	if(t.left == nil)
		return 1;
	return 1 + t.left.check() + t.right.check();
}

init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;
	long := make(10);
	for(d := 4; d <= 10; d += 2) {
		n := 1 << (10 - d);
		total := 0;
		for(i := 0; i < n; i++)
			total += make(d).check();
		sys->print("%d trees of depth %d check %d\n", n, d, total);
	}
	sys->print("long lived tree check %d\n", long.check());
}
