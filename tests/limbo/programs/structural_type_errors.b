# Members must agree in number and type.
implement StructuralTypeErrors;
include "sys.m";
include "draw.m";
StructuralTypeErrors: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};
A: adt {
	x, y: int;
};
init(nil: ref Draw->Context, nil: list of string)
{
	a: array of A;
	c: array of (int, int);
	a = c;
	t: array of (int, string);
	t = a;	# error: 17
	u: (int, int, int);
	u = A(1, 2);	# error: 19
}
