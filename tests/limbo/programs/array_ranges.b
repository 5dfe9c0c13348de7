# Array initialisers with a long range compile to a loop, not to one store per element.
implement AR;
include "sys.m";
	sys: Sys;
include "draw.m";
AR: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};
init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;
	a := array[300000] of {0 => 5, 1 to 299998 => 7, * => 9};
	s := 0;
	for(i := 0; i < len a; i++)
		s += a[i];
	sys->print("%d %d %d %d\n", a[0], a[1], a[299999], s);	# expect: 5 7 9 2100000
}
