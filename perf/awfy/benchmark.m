# The Are-We-Fast-Yet Benchmark protocol as a Limbo module type: the harness
# loads each benchmark's module (NAME.dis, NAME the benchmark's name in lower
# case) and calls inner_benchmark_loop(inner). It runs the benchmark inner
# times, verifies each result and returns 1 when all were right, 0 otherwise.
# Limbo modules have no inheritance: each benchmark writes its own loop (the
# suite's default runs benchmark() then verify_result() inner times).
Benchmark: module
{
	inner_benchmark_loop:	fn(inner: int): int;
};
