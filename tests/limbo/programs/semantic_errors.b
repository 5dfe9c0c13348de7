# Every error of one run is reported, each on its line.
implement E;
include "sys.m";
	sys: Sys;
include "draw.m";
E: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};
K: con 5;
P: adt { x, y: int; };
f(a: int): int
{
	return;		# error: 13
}
init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;
	x := 1;
	s := "a";
	x = s;		# error: 20
	y = 3;		# error: 21
	K = 4;		# error: 22
	f(1, 2);	# error: 23
	z := x + s;	# error: 24
	g(1);		# error: 25
	for(i := 0; i < 3; i++) { q := i; q += "x"; }	# error: 26
	break;		# error: 27
	sys->print("%d\n", undefinedname);	# error: 28
	p: P = (1, 2, 3);	# error: 29
	pp: P = (1, "two");	# error: 30
}
