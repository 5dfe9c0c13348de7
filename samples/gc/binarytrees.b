implement Binarytrees;

# The classic binary-trees benchmark: a stretch tree, a long-lived tree, and
# many short-lived trees of growing depth. Argument: the maximum depth (16).

include "sys.m";
	sys: Sys;
include "draw.m";

Binarytrees: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};

Tree: adt {
	left, right: cyclic ref Tree;
};

make(d: int): ref Tree
{
	if(d == 0)
		return ref Tree(nil, nil);
	return ref Tree(make(d - 1), make(d - 1));
}

check(t: ref Tree): int
{
	if(t.left == nil)
		return 1;
	return 1 + check(t.left) + check(t.right);
}

# Short-lived trees are made in their own frame, so that no temporary of the
# caller keeps the previous tree alive while the next one is built.
once(d: int): int
{
	return check(make(d));
}

init(nil: ref Draw->Context, args: list of string)
{
	sys = load Sys Sys->PATH;
	n := 16;
	if(tl args != nil)
		n = int hd tl args;
	maxd := n;
	if(maxd < 6)
		maxd = 6;
	sys->print("stretch tree of depth %d\t check: %d\n", maxd + 1, once(maxd + 1));
	long := make(maxd);
	for(d := 4; d <= maxd; d += 2){
		iters := 1 << (maxd - d + 4);
		c := 0;
		for(i := 0; i < iters; i++)
			c += once(d);
		sys->print("%d\t trees of depth %d\t check: %d\n", iters, d, c);
	}
	sys->print("long lived tree of depth %d\t check: %d\n", maxd, check(long));
}
