implement Benchmark;

# Are-We-Fast-Yet: Storage. Builds a tree of arrays, four wide and seven
# deep, whose leaves are int arrays of random length; counts the arrays
# (5461). A node is a pick adt: the suite's untyped arrays hold either
# subtrees or ints.

include "benchmark.m";
include "som.m";
	som: Som;
	Random: import som;

Tree: adt
{
	pick {
	Leaf =>
		a:	array of int;
	Node =>
		kids:	array of ref Tree;
	}
};

count: int;

inner_benchmark_loop(inner: int): int
{
	if(som == nil)
		som = load Som Som->PATH;
	for(i := 0; i < inner; i++)
		if(!verify_result(benchmark()))
			return 0;
	return 1;
}

benchmark(): int
{
	random := Random.new();
	count = 0;
	build_tree_depth(7, random);
	return count;
}

verify_result(result: int): int
{
	return result == 5461;
}

build_tree_depth(depth: int, random: ref Random): ref Tree
{
	count++;
	if(depth == 1)
		return ref Tree.Leaf(array[random.next() % 10 + 1] of int);
	kids := array[4] of ref Tree;
	for(i := 0; i < 4; i++)
		kids[i] = build_tree_depth(depth - 1, random);
	return ref Tree.Node(kids);
}
