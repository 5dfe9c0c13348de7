# Braces do open a scope: what a braced body declares ends with it.
implement BraceScopeErrors;
include "sys.m";
include "draw.m";
BraceScopeErrors: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};
init(nil: ref Draw->Context, nil: list of string)
{
	if(1 > 0) {
		x := 1;
	}
	x = 2;	# error: 13
	case 3 {
	3 =>
		y := 4;
	}
	y++;	# error: 18
}
