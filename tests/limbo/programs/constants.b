# con with iota, radix and character constants, reals, raw strings.
implement Constants;
include "sys.m";
	sys: Sys;
include "draw.m";
Constants: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};
A, B, C: con iota;
P, Q, R: con 1 << iota;
HEX: con 16rFF;
BIN: con 2r1011;
NL: con '\n';
init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;
	sys->print("%d %d %d / %d %d %d\n", A, B, C, P, Q, R);	# expect: 0 1 2 / 1 2 4
	sys->print("%d %d %d %d\n", HEX, BIN, NL, 'A');	# expect: 255 11 10 65
	sys->print("%s|\n", `raw\n`);	# expect: raw\n|
	sys->print("%g %g\n", 2.5e2, .25);	# expect: 250 .25
	sys->print("%g %g\n", 1.e-3, 2.E+2);	# expect: .001 200
	sys->print("%c%c\n", ''', '\'');	# expect: ''
	sys->print("%d %d\n", 2**10, -3**2);	# expect: 1024 9
	x := 7;
	x **= 2;
	sys->print("%d\n", x);	# expect: 49
	f();	# expect: s6
}
f()
{
	i, j: int = 3;
	s: string = "s" + string (i + j);
	sys->print("%s\n", s);
}
