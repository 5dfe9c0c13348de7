implement Bintrees;

# Binary trees (the classic allocation benchmark): build complete trees of
# ref adts, walk them, drop them; one long-lived tree stays alive meanwhile.
# The checksum is the number of nodes walked.
# Usage: bintrees [maxdepth]   (maxdepth at most 22 so the count fits an int)

include "sys.m";
	sys: Sys;
include "draw.m";

Bintrees: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};

Tree: adt {
	left, right: cyclic ref Tree;
	check: fn(t: self ref Tree): int;
};

MINDEPTH: con 4;

Tree.check(t: self ref Tree): int
{
	if(t.left == nil)
		return 1;
	return 1 + t.left.check() + t.right.check();
}

bottomup(depth: int): ref Tree
{
	if(depth <= 0)
		return ref Tree(nil, nil);
	return ref Tree(bottomup(depth - 1), bottomup(depth - 1));
}

init(nil: ref Draw->Context, args: list of string)
{
	sys = load Sys Sys->PATH;

	maxdepth := 15;	# default size
	if(args != nil && tl args != nil)
		maxdepth = int hd tl args;
	if(maxdepth < MINDEPTH + 2)
		maxdepth = MINDEPTH + 2;

	total := bottomup(maxdepth + 1).check();
	longlived := bottomup(maxdepth);
	for(depth := MINDEPTH; depth <= maxdepth; depth += 2) {
		iters := 1;
		for(k := 0; k < maxdepth - depth + MINDEPTH; k++)
			iters *= 2;
		for(i := 0; i < iters; i++)
			total += bottomup(depth).check();
	}
	total += longlived.check();
	sys->print("bintrees %d: %d\n", maxdepth, total);
}
