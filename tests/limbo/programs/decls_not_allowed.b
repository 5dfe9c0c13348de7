# Declarations the language does not allow where they are written: module
# and adt declarations are top-declarations only (limbo.txt 5, 9), and a
# module declaration's members are functions, data, adts, cons and types
# (6), so no exception.
implement NotAllowed;
include "draw.m";
NotAllowed: module {
	init: fn(nil: ref Draw->Context, args: list of string);
	Bad: exception(string);	# error: 9
};
init(nil: ref Draw->Context, nil: list of string)
{
	P: adt {	# error: 13
		x: int;
	};
	M: module {	# error: 16
		f: fn();
	};
	E: exception(int);
}
