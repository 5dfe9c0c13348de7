# case on big: single values, or, ranges, a constant beyond 32 bits, default.
implement CB;
include "sys.m";
	sys: Sys;
include "draw.m";
CB: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};
init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;
	for(b := big -2; b < big 8; b++)
		case b {
		big -1 or 0 => sys->print("low %bd\n", b);
		2 to 4 => sys->print("mid %bd\n", b);
		16r100000000 => sys->print("huge\n");
		* => sys->print("other %bd\n", b);
		}
}
# expect: other -2
# expect: low -1
# expect: low 0
# expect: other 1
# expect: mid 2
# expect: mid 3
# expect: mid 4
# expect: other 5
# expect: other 6
# expect: other 7
