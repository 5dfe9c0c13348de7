# Polymorphism errors: type parameters take only reference types, bind
# consistently, and provide what their for clauses require.
implement PE;
include "sys.m";
include "draw.m";
PE: module {
	init: fn(nil: ref Draw->Context, nil: list of string);
};
Tab: adt[T] {
	v: T;
};
Num: adt {
	v: int;
	gt: fn(a: self ref Num, b: ref Num): int;
};
Plain: adt {
	v: int;
};
Num.gt(a: self ref Num, b: ref Num): int
{
	return a.v > b.v;
}
id[T](x: T): T
{
	return x;
}
same[T](a, b: T): int
{
	return a == b;
}
plain(x: int): int
{
	return x;
}
max[T](a: array of T): T
	for { T => gt: fn(x: self T, y: T): int; }
{
	if(a[0].gt(a[1]))
		return a[0];
	a[0].lt(a[1]);	# error: 40
	return a[1];
}
bad[T](x: T)
	for { U => f: fn(); }	# error: 44
{
}
init(nil: ref Draw->Context, nil: list of string)
{
	t: ref Tab[int];	# error: 49
	u: ref Tab[string, string];	# error: 50
	n := id(3);	# error: 51
	same("a", ref Num(1));	# error: 52
	max(array[] of {ref Plain(1), ref Plain(2)});	# error: 53
	plain[string](1);	# error: 54
	m := max(array[] of {ref Num(1), ref Num(2)});
	m = id("x");	# error: 56
	p: ref Plain;
	q: ref Tab[ref Plain] = ref Tab[ref Plain](p);
	q.v = "s";	# error: 59
	r: ref Tab[string] = q;	# error: 60
	w := id(nil);	# error: 61
	w2 := id[string](nil);
}
