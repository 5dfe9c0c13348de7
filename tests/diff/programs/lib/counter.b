# A module the modules program loads: module data of its own per load, a
# function returning a tuple, an adt shared through the interface.
implement Counter;
include "counter.m";

count := 0;
name := "counter";

next(step: int): int
{
	count += step;
	return count;
}

describe(): (string, int)
{
	return (name, count);
}

Pair.sum(p: self ref Pair): int
{
	return p.a + p.b;
}
