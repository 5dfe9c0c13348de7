implement Sieve;

# Sieve of Eratosthenes over a byte array.

include "sys.m";
	sys: Sys;
include "draw.m";

Sieve: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};

N: con 10000;

init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;
	composite := array[N + 1] of {* => byte 0};
	count := 0;
	last := 0;
	for(i := 2; i <= N; i++) {
		if(composite[i] != byte 0)
			continue;
		count++;
		last = i;
		for(j := i * i; j <= N; j += i)
			composite[j] = byte 1;
	}
	sys->print("%d primes up to %d, the last %d\n", count, N, last);
}
