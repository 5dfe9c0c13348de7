# An adt-valued con must be built of constants and has no fields but its own.
implement AdtConErrors;
include "sys.m";
include "draw.m";
AdtConErrors: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};
Point: adt {
	x, y: int;
};
P: con Point(1, 2);
init(nil: ref Draw->Context, nil: list of string)
{
	n := 3;
	Q: con Point(n, 1);	# error: 15
	z := P.z;	# error: 16
	P = Point(3, 4);	# error: 17
	q := P;
	W: con 1 + n;	# error: 19
}
