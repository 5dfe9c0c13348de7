# Declarations inside functions name only what exists, and only for their block.
implement LocalDeclErrors;
include "sys.m";
	sys: Sys;
include "draw.m";
LocalDeclErrors: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};
init(nil: ref Draw->Context, nil: list of string)
{
	n := 3;
	{
		T: type int;
		FD: import sys;
		Nosuch: import sys;	# error: 15
		x: T = 1;
	}
	y: T = 2;	# error: 18
	f: ref FD;	# error: 19
	U: import n;	# error: 20
	V: type nosuch;	# error: 21
}
