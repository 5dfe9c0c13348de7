# Syntax errors are reported with recovery at the next statement.
implement S;
include "sys.m";
	sys: Sys;
include "draw.m";
S: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};
init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;
	x := 1 +;		# error: 12
	y := (2;		# error: 13
	sys->print("%d\n", x)
	z := 3;			# error: 15
}
