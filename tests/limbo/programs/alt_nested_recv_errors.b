# An alt guard with no channel operation is refused.
implement AltNestedErr;
include "sys.m";
include "draw.m";
AltNestedErr: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};
init(nil: ref Draw->Context, nil: list of string)
{
	c := chan of int;
	x := 0;
	alt {
	x = <-c + 1 =>
		;
	x = 3 =>	# error: 15
		;
	}
}
