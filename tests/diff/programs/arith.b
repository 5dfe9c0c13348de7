# Integer, big, byte and real arithmetic: wrapping, division signs, shifts,
# exponentiation, conversions with their rounding (limbo.txt 8.2.13, 8.3).
implement Arith;
include "sys.m";
	sys: Sys;
include "draw.m";
Arith: module { init: fn(nil: ref Draw->Context, nil: list of string); };

init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;
	i := 16r7fffffff;
	i++;
	sys->print("wrap %d\n", i);
	sys->print("div %d %d %d %d\n", 7/2, -7/2, 7%3, -7%3);
	b := byte 250;
	b += byte 10;
	sys->print("byte %d %d\n", int b, int byte -1);
	n := -16;
	sys->print("shift %d %d %bd\n", 1<<4, n>>2, big 1<<40);
	x := big 16r7fffffffffffffff;
	x++;
	sys->print("bigwrap %bd\n", x);
	sys->print("pow %d %bd %g %d\n", 3**4, big 2**40, 2.0**-2, 2**3**2);
	r := 7.0/2.0;
	sys->print("real %g %g %g\n", r, -r, 1.0/3.0);
	h := array[] of {2.5, -2.5, 1.4, -1.6};
	sys->print("round %d %d %d %d\n", int h[0], int h[1], int h[2], int h[3]);
	sys->print("cvt %g %bd %d\n", real 3, big -5, int (big 16r100000001));
	sys->print("hex %x %X %o %bx\n", 255, 255, 8, big -1);
	sys->print("bits %d %d %d %d\n", 6&3, 6|3, 6^3, ~6);
	q := big 1000000007;
	sys->print("big %bd %bd\n", q*q, q*q % big 998244353);
}
