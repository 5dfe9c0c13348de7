# `load M SELF` (the running instance, sharing its module data); locals of a
# handled block are released when its handler catches.
implement Selfish;
include "sys.m";
	sys: Sys;
include "draw.m";
Selfish: module {
	init: fn(nil: ref Draw->Context, args: list of string);
	bump: fn(n: int): int;
};
count := 0;
bump(n: int): int
{
	count += n;
	return count;
}
T: adt { v: string; };
init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;
	me := load Selfish SELF;
	if(me == nil)
		sys->print("no self\n");
	me->bump(3);
	sys->print("%d %d\n", me->bump(4), count);	# expect: 7 7
	for(i := 0; i < 3; i++) {
		{
			t := ref T("held");
			a := array[4] of string;
			a[0] = t.v;
			if(i != 1)
				raise "fail:drop";
			sys->print("kept %s\n", a[0]);
		} exception e {
		"fail:*" =>
			sys->print("caught %s %d\n", e, i);
		}
	}
	# expect: caught fail:drop 0
	# expect: kept held
	# expect: caught fail:drop 2
}
