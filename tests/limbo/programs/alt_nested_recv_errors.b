# An alt guard holds one channel operation; a send inside an expression is
# not supported, and a guard with none is refused.
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
	x = <-c + <-c =>	# error: 14
		;
	}
	alt {
	x = (c <-= 1) + 1 =>	# error: 18
		;
	}
	alt {
	x = 3 =>	# error: 22
		;
	}
}
