implement ByteSieve;

# Sieve of Eratosthenes over an array of byte, repeated: byte stores,
# loads and bounds checks (the same algorithm as sieve.b, on bytes).
# Usage: bytesieve [repetitions]   (each sieves the numbers up to 100000)

include "sys.m";
	sys: Sys;
include "draw.m";

ByteSieve: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};

LIMIT: con 100000;

sieve(flags: array of byte, n: int): int
{
	for(i := 2; i <= n; i++)
		flags[i] = byte 1;
	count := 0;
	for(i = 2; i <= n; i++) {
		if(flags[i] != byte 0) {
			count++;
			for(k := i + i; k <= n; k += i)
				flags[k] = byte 0;
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
	flags := array[LIMIT + 1] of byte;
	total := 0;
	for(r := 0; r < reps; r++)
		total += sieve(flags, LIMIT);
	sys->print("bytesieve %d: %d\n", reps, total);
}
