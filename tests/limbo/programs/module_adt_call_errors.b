# What a module value's adt call needs: a function the adt has, a value
# with an adt, a module value.
implement ModuleAdtCallErrors;
include "sys.m";
include "draw.m";
ModuleAdtCallErrors: module {
	init: fn(nil: ref Draw->Context, args: list of string);
	Counter: adt {
		n: int;
		new: fn(n: int): ref Counter;
	};
};
Counter.new(n: int): ref Counter
{
	return ref Counter(n);
}
init(nil: ref Draw->Context, nil: list of string)
{
	me := load ModuleAdtCallErrors SELF;
	c := me->Counter.nosuch(5);	# error: 20
	k := 3;
	me->k.new(1);	# error: 22
	x := 4;
	x->Counter.new(1);	# error: 24
}
