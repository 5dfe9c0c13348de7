# Every error of one run is reported, each on its line.
implement E;
include "sys.m";
	sys: Sys;
include "draw.m";
E: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};
K: con 5;
f(a: int): int
{
	return;		# error: 12
}
init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;
	x := 1;
	s := "a";
	x = s;		# error: 19
	y = 3;		# error: 20
	K = 4;		# error: 21
	f(1, 2);	# error: 22
	z := x + s;	# error: 23
	g(1);		# error: 24
	for(i := 0; i < 3; i++) { q := i; q += "x"; }	# error: 25
	break;		# error: 26
	sys->print("%d\n", undefinedname);	# error: 27
}
