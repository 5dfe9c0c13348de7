# Global initializers must be constants (the language's rule): a call, a
# variable, a list, or a value of the wrong type are refused.
implement GlobalErrors;
include "sys.m";
	sys: Sys;
include "draw.m";
GlobalErrors: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};
Point: adt {
	x, y: int;
};
f(): int
{
	return 1;
}
n := 3;
a := f();	# error: 18
b := n;	# error: 19
c := array[] of {1, n};	# error: 20
d := 1 :: nil;	# error: 21
e: Point = (1, "two");	# error: 22
g := array[n] of int;	# error: 23
init(nil: ref Draw->Context, nil: list of string)
{
}
