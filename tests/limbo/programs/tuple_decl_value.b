# A tuple declaration has a value, the tuple unpacked (Inferno's fcp loops
# `while(((src, dst) := <-c).t0 != nil)`).
implement TupleDeclValue;
include "sys.m";
	sys: Sys;
include "draw.m";
TupleDeclValue: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};
init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;
	c := chan[3] of (string, int);
	c <-= ("a", 1);
	c <-= ("b", 2);
	c <-= (nil, 0);
	total := 0;
	while(((name, n) := <-c).t0 != nil) {
		sys->print("%s%d ", name, n);
		total += n;
	}
	sys->print("%d %d\n", total, name == nil);	# expect: a1 b2 3 1
	(x, y) := (4, "four");
	sys->print("%d %s\n", x, y);	# expect: 4 four
}
