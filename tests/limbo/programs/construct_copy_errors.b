# Keys must be constants, `*` needs a size, and a copy needs the same adt.
implement ConstructCopyErrors;
include "sys.m";
include "draw.m";
ConstructCopyErrors: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};
A: adt {
	x, y: int;
};
B: adt {
	x, y: int;
	z: string;
};
init(nil: ref Draw->Context, nil: list of string)
{
	n := 2;
	a := array[] of {n => 1};	# error: 18
	b := array[] of {* => 1};	# error: 19
	v := B(1, 2, "s");
	w := A(v);	# error: 21
}
