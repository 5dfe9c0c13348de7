# References to polymorphic functions that cannot be made.
implement PolyFnRefErrors;
include "sys.m";
include "draw.m";
PolyFnRefErrors: module {
	init: fn(nil: ref Draw->Context, nil: list of string);
};
Num: adt {
	v: int;
	gt: fn(a: self ref Num, b: ref Num): int;
};
Num.gt(a: self ref Num, b: ref Num): int
{
	return a.v > b.v;
}
id[T](x: T): T
{
	return x;
}
max[T](a, b: T): T
	for { T => gt: fn(x: self T, y: T): int; }
{
	if(a.gt(b))
		return a;
	return b;
}
plain(x: int): int
{
	return x;
}
init(nil: ref Draw->Context, nil: list of string)
{
	f := id;	# error: 33: cannot tell T here: give it in [...]
	g := id[int];	# error: 34: type parameter instantiated with int, not a reference type
	h := max;	# error: 35: cannot tell T here: give it in [...]
	k := plain[string];	# error: 36
	m := id[string, string];	# error: 37: too many type arguments: 2 given, 1 expected
}
Plain: adt {
	v: int;
};
wrap[U](a, b: U): U
	for { U => gt: fn(x: self U, y: U): int; }
{
	f := max[U];	# error: 45: a reference to max cannot bind T, which has a for clause, to U: its functions are known only when called
	return a;
}
other()
{
	p := max[ref Plain];	# error: 50: ref Plain has no function gt required by T
	q: ref fn(a, b: string): string;
	q = max;	# error: 52: string has no function gt required by T
}
