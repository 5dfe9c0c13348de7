# Fixed-point types (the 2005 addendum to the Limbo reference): types with
# and without a maximum, type names, cons, conversions from and to real,
# int, big, byte, string and other fixed types, + - * / and comparisons,
# negative values, lists, arrays, channels and adts of fixed values.
# Each value was worked out by hand from the stored int x (value x*unit)
# and checked against the addendum's accuracy law: a result z is within 1
# of the exact ratio*x*y. The units: fpt 2^-16; tenth 0.1; fifth 0.2/2^15
# (its maximum leaves 15 bits spare); third 0.3; eighth 2^-18.
implement FixedPoint;
include "sys.m";
	sys: Sys;
include "draw.m";
FixedPoint: module {
	init: fn(nil: ref Draw->Context, args: list of string);
	half: fn(v: fixed(2.0**-16)): fixed(2.0**-16);
};
fpt: type fixed(2.0**-16);
tenth: type fixed(0.1);
fifth: type fixed(0.2, 12345.0);
third: type fixed(0.3);
eighth: type fixed(0.125, 4096.0);
oct: type fixed(0.125);
Units: module {
	quarter: type fixed(0.25);
};
zero: con fpt(0);
minus: con -fpt(2.5);
gx := fpt(1.25);
Pair: adt { a: fpt; b: tenth; };

half(v: fpt): fpt
{
	return v / fpt(2.0);
}

pf(s: string, v: fpt)
{
	sys->print("%s %.9f\n", s, real v);
}

init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;
	x, y, z: fpt;
	x = fpt(3.21);	# 3.21*65536 = 210370.56: x = 210371
	y = fpt(4.678);	# 306577.408: y = 306577
	z = fpt(16r1234.5678);	# exactly 16r12345678 / 65536
	pf("radix", z);	# expect: radix 4660.337768555
	pf("x", x);	# expect: x 3.210006714
	pf("y", y);	# expect: y 4.677993774
	pf("neg", -x);	# expect: neg -3.210006714
	pf("sum", x + y);	# expect: sum 7.888000488
	pf("diff", x - y);	# expect: diff -1.467987061
	# x*y/65536 = 984114.228: floor 984114
	pf("prod", x * y);	# expect: prod 15.016387939
	# x*65536/y = 44970.96: truncated 44970
	pf("quot", x / y);	# expect: quot 0.686187744
	# -984114.228: floor -984115 (the shift rounds down)
	pf("negprod", -x * y);	# expect: negprod -15.016403198
	pf("negquot", x / -y);	# expect: negquot -0.686187744
	# 210371*65536/131072 = 105185.5: 105185
	pf("half", half(x));	# expect: half 1.604995728
	pf("con", zero + minus);	# expect: con -2.500000000
	pf("global", gx);	# expect: global 1.250000000
	z = x;
	z += y;
	z -= fpt(0.5);
	pf("opassign", z);	# expect: opassign 7.388000488
	z = x;
	z *= y;
	pf("mulassign", z);	# expect: mulassign 15.016387939
	# 984114*65536/131072 = 492057
	z /= fpt(2.0);
	pf("divassign", z);	# expect: divassign 7.508193970
	# a = 25, b = 3 tenths: a*b 7.5 -> 7 (-7.5 -> -7), a/b 83.3 -> 83, b/-a -1.2 -> -1
	a := tenth(2.5);
	b := tenth(0.3);
	sys->print("tenth %f %f %f %f\n", real (a * b), real (a / b), real (-a * b), real (b / -a));	# expect: tenth 0.700000 8.300000 -0.700000 -0.100000
	# f = 491520, g = 98304: f*g 294912 and f/g 819200 exactly; int f 3
	f := fifth(3.0);
	g := fifth(0.6);
	sys->print("fifth %f %f %d %d\n", real (f * g), real (f / g), int f, int -f);	# expect: fifth 1.800000 5.000000 3 -3
	# t = round(3.33) = 3 (0.9), u = round(6.67) = 7 (2.1): t*u 6.3 -> 6,
	# t/u 1.43 -> 1, u/t 7.78 -> 8 (through reals, to nearest)
	t := third(1.0);
	u := third(2.0);
	sys->print("third %f %f %f %f\n", real t, real (t * u), real (t / u), real (u / t));	# expect: third 0.900000 1.800000 0.300000 2.400000
	t *= u;
	sys->print("third *= %f\n", real t);	# expect: third *= 1.800000
	# 2^18/3 = 87381.33: 87381; 3.5*-1.25 = -4.375 exactly
	sys->print("eighth %.9f %.9f\n", real eighth(1.0/3.0), real (eighth(3.5) * eighth(-1.25)));	# expect: eighth 0.333332062 -4.375000000
	# third(7): 7/0.3 = 23.3 -> 23 (6.9)
	i := 7;
	sys->print("from int %f %f %f %f\n", real fpt(i), real tenth(i), real third(i), real fifth(-i));	# expect: from int 7.000000 7.000000 6.900000 -7.000000
	# fixed to int is within 1 too: 3.21 -> 3, -3.21 -> -4, 2.7 -> 2, 2.1 -> 2
	sys->print("to int %d %d %d %d\n", int x, int -x, int tenth(2.7), int third(2.0));	# expect: to int 3 -4 2 2
	# tenth(x): 32.1 -> 32; fpt(b): 3*6553.6 = 19660.8 -> 19660;
	# third(a): 25/3 = 8.33 -> 8; fifth(x): 2.5*210371 = 525927.5 -> 525927
	sys->print("between %f %f %f %f\n", real tenth(x), real fpt(b), real third(a), real fifth(x));	# expect: between 3.200000 0.299988 2.400000 3.210004
	s := "2.75";
	sys->print("string %f %s %s\n", real fpt(s), string tenth(2.5), string fpt(-0.5));	# expect: string 2.750000 2.5 -.5
	sys->print("big %f %bd\n", real fpt(big 12), big fpt(-7.0));	# expect: big 12.000000 -7
	sys->print("byte %f %d\n", real tenth(byte 200), int byte tenth(25.0));	# expect: byte 200.000000 25
	# 2x = 6.4200134: 420742; -1.25 is -12.5 tenths: -13 (halves away from 0)
	sys->print("real %f %f\n", real fpt(real x * 2.0), real tenth(-1.25));	# expect: real 6.420013 -1.300000
	if(x < y && y > x && x <= x && x >= x && x == fpt(3.21) && x != y && -x < zero)
		sys->print("compare ok\n");	# expect: compare ok
	if(tenth(0.3) == b && third(0.9) > third(0.6) && !(fpt(-1.0) > fpt(-0.5)))
		sys->print("compare2 ok\n");	# expect: compare2 ok
	l := fpt(1.5) :: fpt(-0.25) :: nil;
	sum := zero;
	for(; l != nil; l = tl l)
		sum += hd l;
	pf("list", sum);	# expect: list 1.250000000
	# 11, 22, 33 tenths times 20: 22 + 44 + 66
	arr := array[] of {tenth(1.1), tenth(2.2), tenth(3.3)};
	acc := tenth(0);
	for(k := 0; k < len arr; k++)
		acc = acc + arr[k] * tenth(2);
	sys->print("array %f\n", real acc);	# expect: array 13.200000
	# 22*5/2/5 = 11 tenths
	arr[1] *= tenth(0.5);
	sys->print("element %f\n", real arr[1]);	# expect: element 1.100000
	# no maximum is the default maximum: the same type
	ee: fixed(0.125, 2147483647.0 * 0.125) = oct(1.5);
	sys->print("same %f\n", real ee);	# expect: same 1.500000
	# another module's type name, also imported: 10.4 -> 10, -0.8 -> -1
	q := Units->quarter(2.6);
	quarter: import Units;
	sys->print("module %f %f\n", real q, real quarter(-0.2));	# expect: module 2.500000 -0.250000
	c := chan[2] of fifth;
	c <-= fifth(1.5);
	c <-= fifth(-2.5);
	r1 := <-c;
	r2 := <-c;
	sys->print("chan %f\n", real (r1 * r2));	# expect: chan -3.750000
	pr := Pair(x, tenth(0.7));
	sys->print("adt %f %f\n", real pr.a, real pr.b);	# expect: adt 3.210007 0.700000
}
