implement BenchMod;

# The loaded module whose function the MCALL microbenchmark calls.

BenchMod: module {
	inc: fn(x: int): int;
};

inc(x: int): int
{
	return x + 1;
}
