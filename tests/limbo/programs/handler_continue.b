# A handler arm that only continues its loop: the arm is reached by the raise,
# so its jump is kept (it was once dropped as unreachable code).
implement HB;
include "sys.m";
	sys: Sys;
include "draw.m";
HB: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};
init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;
	for(i := 0; i < 3; i++) {
		{
			if(i == 1)
				raise "x";
			sys->print("body %d\n", i);
		} exception {
		"x" =>
			continue;
		}
		sys->print("after %d\n", i);
	}
}
# expect: body 0
# expect: after 0
# expect: body 2
# expect: after 2
