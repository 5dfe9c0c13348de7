# Module data needs a module value, and only variables are data.
implement ModuleDataErrors;
include "sys.m";
	sys: Sys;
include "draw.m";
ModuleDataErrors: module {
	init: fn(nil: ref Draw->Context, args: list of string);
	count: int;
};
init(nil: ref Draw->Context, nil: list of string)
{
	x := ModuleDataErrors->count;	# error: 12
	n := 3;
	y := n->count;	# error: 14
	me := load ModuleDataErrors SELF;
	z := me->nosuch;	# error: 16
	me->count = "s";	# error: 17
}
