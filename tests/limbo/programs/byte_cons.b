# A con has its value's type: `K: con byte 16r31` is a byte, so `x := K`
# declares a byte, `array[] of {K}` is an array of byte, and byte cons mix
# with byte values (as in Inferno's compiler; limbo/gen.b, ecmascript.b).
implement ByteCons;
include "sys.m";
	sys: Sys;
include "draw.m";
ByteCons: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};
Aimm, Amp, Afp: con byte iota;
Mlow, Mup, Mdig: con byte 1 << iota;
K: con byte 16r31;
W: con byte 300;
modes := array[3] of { Afp, Amp, Aimm };
sum(a: array of byte): int
{
	n := 0;
	for(i := 0; i < len a; i++)
		n += int a[i];
	return n;
}
init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;
	b: byte;
	b = modes[0];
	x := K;
	x++;
	sys->print("%d %d %d\n", int b, int x, int W);	# expect: 2 50 44
	m := array[4] of byte;
	m[0] = Mdig | Mlow;
	if((m[0] & Mdig) != byte 0)
		sys->print("digit %d\n", int m[0]);	# expect: digit 5
	sys->print("%d\n", sum(array[] of {K, Mup, Afp}));	# expect: 53
	t := array[] of {Mdig};
	t[0] += t[0];
	sys->print("%d %d\n", len t, int t[0]);	# expect: 1 8
}
