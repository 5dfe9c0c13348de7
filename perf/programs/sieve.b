implement Sieve;

# Sieve of Eratosthenes over an array of int, repeated: array stores,
# loads and bounds checks.
# Usage: sieve [repetitions]   (each sieves the numbers up to 100000)

include "sys.m";
	sys: Sys;
include "draw.m";

Sieve: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};

LIMIT: con 100000;

sieve(flags: array of int, n: int): int
{
	for(i := 2; i <= n; i++)
		flags[i] = 1;
	count := 0;
	for(i = 2; i <= n; i++) {
		if(flags[i] != 0) {
			count++;
			for(k := i + i; k <= n; k += i)
				flags[k] = 0;
		}
	}
	return count;
}

init(nil: ref Draw->Context, args: list of string)
{
	sys = load Sys Sys->PATH;

	reps := 365;	# default size
	if(args != nil && tl args != nil)
		reps = int hd tl args;
	flags := array[LIMIT + 1] of int;
	total := 0;
	for(r := 0; r < reps; r++)
		total += sieve(flags, LIMIT);
	sys->print("sieve %d: %d\n", reps, total);
}
