implement Bigheap;

# A live heap of about 100 MB: binary trees kept alive plus one array of a
# million pointers, while the program keeps allocating short-lived trees
# (so the collector keeps stepping over the big heap). perf/gc/run.sh
# measures the GC step times of this program.

include "sys.m";
	sys: Sys;
include "draw.m";

Bigheap: module {
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

init(nil: ref Draw->Context, args: list of string)
{
	sys = load Sys Sys->PATH;
	ntrees := 22;	# 22 trees of depth 16: 2.9M blocks of 24 bytes = 69 MB
	if(tl args != nil)
		ntrees = int hd tl args;
	forest := array[ntrees] of ref Tree;
	for(i := 0; i < ntrees; i++)
		forest[i] = make(16);
	ptrs := array[1000000] of ref Tree;	# 4 MB of pointers, a million leaves
	for(i = 0; i < len ptrs; i++)
		ptrs[i] = ref Tree(nil, nil);
	c := 0;
	for(r := 0; r < 400; r++)
		c += check(make(10));
	for(i = 0; i < ntrees; i++)
		c += check(forest[i]);
	for(i = 0; i < len ptrs; i += 1000)
		c += check(ptrs[i]);
	sys->print("check %d\n", c);
}
