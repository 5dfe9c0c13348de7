# Conversions and real arithmetic the compiler folds: a string constant read
# as Inferno's compiler reads it (the decimal prefix; an int wraps to 32 bits
# where the run-time conversion clamps), a NaN that prints as NaN, and a name
# declared from a literal beyond the int range, which is a big.
implement Constfold;
include "sys.m";
	sys: Sys;
include "draw.m";
Constfold: module { init: fn(nil: ref Draw->Context, nil: list of string); };

Nan: con 0.0 / 0.0;

init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;
	sys->print("%g %g %g\n", Nan, 1.0 / 0.0, Nan * 2.0);
	sys->print("%g %g %g %g\n", real "1.5e3x", real ".5", real "1e", real "abc");
	sys->print("%g %g %g\n", real "inf", real " -nan", real "+7");
	sys->print("%d %d %d %d\n", int " 42abc", int "-7", int "4294967297", int "x");
	sys->print("%d %d\n", int "2147483648", int "-2147483649");
	sys->print("%bd %bd\n", big "9223372036854775808", big "-12");
	w := 2147483649;
	sys->print("%bd %bd\n", w + big 1, w);
	s := "2147483648";
	sys->print("%d\n", int s);
}
