# The suite's shared library (SOM's) as far as more than one port uses it:
# the deterministic random number generator of Bounce, Storage and CD.
# The collections (Vector, Dictionary, Set) would be polymorphic adts here;
# our compiler does not support polymorphism yet, so each port declares the
# typed collections it needs (see its header).
Som: module
{
	PATH:	con "som.dis";

	Random: adt
	{
		seed:	int;

		new:	fn(): ref Random;
		next:	fn(r: self ref Random): int;
	};
};
