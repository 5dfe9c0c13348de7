implement Reload;

# Loads itself three times: each instance gets its own module data and
# module object, so failing each cage allocation in turn (DIS_FAULT_CAGE)
# fails a load between the two (tests/vm/oom_test.cpp).

include "sys.m";
	sys: Sys;
include "draw.m";

Reload: module
{
	init: fn(nil: ref Draw->Context, args: list of string);
	bump: fn(n: int): int;
};

count := 7;

bump(n: int): int
{
	count += n;
	return count;
}

init(nil: ref Draw->Context, args: list of string)
{
	sys = load Sys Sys->PATH;
	for(i := 1; i <= 3; i++) {
		m := load Reload hd args;
		if(m == nil) {
			sys->print("cannot load: %r\n");
			continue;
		}
		sys->print("%d\n", m->bump(i));
	}
}
