implement Benchmark;

# Are-We-Fast-Yet: List. Builds linked lists of 15, 10 and 6 elements and
# runs the recursive tail function (Takeuchi's function on list lengths);
# the result's length is 10.

include "benchmark.m";

Element: adt
{
	val:	int;
	next:	cyclic ref Element;

	length:	fn(e: self ref Element): int;
};

Element.length(e: self ref Element): int
{
	if(e.next == nil)
		return 1;
	return 1 + e.next.length();
}

inner_benchmark_loop(inner: int): int
{
	for(i := 0; i < inner; i++)
		if(!verify_result(benchmark()))
			return 0;
	return 1;
}

benchmark(): int
{
	result := tail(make_list(15), make_list(10), make_list(6));
	return result.length();
}

make_list(length: int): ref Element
{
	if(length == 0)
		return nil;
	e := ref Element(length, nil);
	e.next = make_list(length - 1);
	return e;
}

is_shorter_than(x, y: ref Element): int
{
	x_tail := x;
	y_tail := y;
	while(y_tail != nil) {
		if(x_tail == nil)
			return 1;
		x_tail = x_tail.next;
		y_tail = y_tail.next;
	}
	return 0;
}

tail(x, y, z: ref Element): ref Element
{
	if(is_shorter_than(y, x))
		return tail(tail(x.next, y, z), tail(y.next, z, x), tail(z.next, x, y));
	return z;
}

verify_result(result: int): int
{
	return result == 10;
}
