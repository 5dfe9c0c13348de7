# Module data needs a module value, and only variables are data.
implement ModuleDataErrors;
include "sys.m";
	sys: Sys;
include "draw.m";
ModuleDataErrors: module {
	init: fn(nil: ref Draw->Context, args: list of string);
	count: int;
};
nosuch = 1;	# error: 10
count = len "abc" + n;	# error: 11
n := 2;
init(nil: ref Draw->Context, nil: list of string)
{
	x := ModuleDataErrors->count;	# error: 15
	k := 3;
	y := k->count;	# error: 17
	me := load ModuleDataErrors SELF;
	z := me->nosuch;	# error: 19
	me->count = "s";	# error: 20
}
