implement Benchmark;

# Are-We-Fast-Yet: Permute. Generates the permutations of six elements by
# recursive swapping and counts the calls (8660). The suite's benchmark
# object's fields (count, v) are this module's data.

include "benchmark.m";

count: int;
v: array of int;

inner_benchmark_loop(inner: int): int
{
	for(i := 0; i < inner; i++)
		if(!verify_result(benchmark()))
			return 0;
	return 1;
}

benchmark(): int
{
	count = 0;
	v = array[6] of {* => 0};
	permute(6);
	return count;
}

verify_result(result: int): int
{
	return result == 8660;
}

permute(n: int)
{
	count++;
	if(n != 0) {
		n1 := n - 1;
		permute(n1);
		for(i := n1; i >= 0; i--) {
			swap(n1, i);
			permute(n1);
			swap(n1, i);
		}
	}
}

swap(i, j: int)
{
	tmp := v[i];
	v[i] = v[j];
	v[j] = tmp;
}
