implement BrokenInMcall;

# Threads that end inside a function called through a module value ($self,
# a for clause's function) give back their own module's reference, not the
# callee's: three threads die of an exception in Num.text (called by mcall)
# and three exit there, then another calls it the same way, through the
# same $self the module data holds.
# Usage: broken_in_mcall

include "sys.m";
	sys: Sys;
include "draw.m";

BrokenInMcall: module {
	init: fn(nil: ref Draw->Context, nil: list of string);
};

Num: adt {
	v: int;
	text: fn(n: self ref Num): string;
};

Num.text(n: self ref Num): string
{
	if(n.v < 0)
		raise "negative";
	if(n.v == 0)
		exit;
	return string n.v;
}

report[T](x: T, c: chan of int)
	for { T => text: fn(x: self T): string; }
{
	c <-= len x.text();
}

init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;
	c := chan of int;
	for(i := 0; i < 3; i++) {
		spawn report(ref Num(-1), c);
		spawn report(ref Num(0), c);
	}
	spawn report(ref Num(12345), c);
	sys->print("%d\n", <-c);
}
