implement Som;

# The suite's random number generator: a 16-bit linear congruential sequence
# from the seed 74755.

include "som.m";

Random.new(): ref Random
{
	return ref Random(74755);
}

Random.next(r: self ref Random): int
{
	r.seed = ((r.seed * 1309) + 13849) & 65535;
	return r.seed;
}
