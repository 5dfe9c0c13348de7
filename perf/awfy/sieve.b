implement Benchmark;

# Are-We-Fast-Yet: Sieve. The sieve of Eratosthenes over 5000 flags, which
# finds 669 primes. The flags are an array of int (Limbo's truth values).

include "benchmark.m";

inner_benchmark_loop(inner: int): int
{
	for(i := 0; i < inner; i++)
		if(!verify_result(benchmark()))
			return 0;
	return 1;
}

benchmark(): int
{
	flags := array[5000] of {* => 1};
	return sieve(flags, 5000);
}

sieve(flags: array of int, size: int): int
{
	prime_count := 0;
	for(i := 2; i <= size; i++) {
		if(flags[i - 1]) {
			prime_count++;
			for(k := i + i; k <= size; k += i)
				flags[k - 1] = 0;
		}
	}
	return prime_count;
}

verify_result(result: int): int
{
	return result == 669;
}
