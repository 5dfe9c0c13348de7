# What limbo.txt makes an error is refused with its rule cited.
implement LanguageErrors;
include "sys.m";
include "draw.m";
LanguageErrors: module {
	init: fn(nil: ref Draw->Context, nil: list of string);
};
Point: adt {
	x, y: int;
};
Shape: adt {
	pick {
	Circle =>
		r: int;
	}
};
init(nil: ref Draw->Context, nil: list of string)
{
	p := Point(1, 2);
	q := Point(1, 2);
	if(p == q)	# error: 21: cannot compare Point values: only arithmetic, string and reference ones (limbo.txt 8.3.5)
		;
	if((1, "a") != (1, "a"))	# error: 23
		;
	a := array[4] of int;
	b := array[2] of int;
	a[0:2] = b;	# error: 27: only a slice without an upper bound (a[i:]) can be assigned to (limbo.txt 8.4.1)
	a[2:] = b;
	s := Shape(1);	# error: 29: a pick adt can only be used as a ref adt (limbo.txt 6.3.1): ref Shape(...)
	m := self;	# error: 30: self is not an expression: only an argument's type says it (limbo.txt 4.3)
}
