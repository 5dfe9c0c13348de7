# References to adts' functions that cannot be made: one whose first
# argument is self (its type would keep the self, which no ref fn type may
# say: writing one is refused too), a name the adt lacks, one of a
# polymorphic adt its use does not bind.
implement AdtFnRefErrors;
include "sys.m";
include "draw.m";
AdtFnRefErrors: module {
	init: fn(nil: ref Draw->Context, nil: list of string);
};
P: adt {
	x: int;
	get: fn(p: self ref P): int;
	twice: fn(a: int): int;
};
Stack: adt[T] {
	items: list of T;
	one: fn(x: T): ref Stack[T];
};
P.get(p: self ref P): int { return p.x; }
P.twice(a: int): int { return 2*a; }
Stack[T].one(x: T): ref Stack[T] { return ref Stack[T](x :: nil); }
init(nil: ref Draw->Context, nil: list of string)
{
	f: ref fn(p: ref P): int;
	f = P.get;	# error: 26: a reference to P.get cannot be made: its type keeps the self of its first argument (self ref P), which no ref fn type may declare (limbo.txt 4.3), and does not convert to ref fn(ref P): int; refer to a function that calls it
	g := P.thrice;	# error: 27: adt P has no member thrice
	h: ref fn(a: string): int;
	h = P.twice;	# error: 29: type mismatch in assignment: ref fn(string): int and ref fn(int): int
	k := Stack.one;	# error: 30: cannot tell T here: give it in [...]
	m := P.x;	# error: 31: P.x is not a value
	s: ref fn(p: self ref P): int;	# error: 32: self marks only the first argument of a function declared in an adt (limbo.txt 4.3), not an argument of a ref fn type
}
