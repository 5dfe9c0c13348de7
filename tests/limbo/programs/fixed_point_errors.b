# Fixed-point types refused as the 2005 addendum to the Limbo reference
# rules: a static, positive, real scale and maximum within 31 bits; two
# fixed types mix only through a conversion; no ~ ! & | ^ % (nor shifts,
# ++ and --) on them; no implicit conversion from int.
implement FixedErrors;
include "sys.m";
	sys: Sys;
include "draw.m";
FixedErrors: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};
fpt1: type fixed(0.12345);
fpt2: type fixed(0.1234);
fpt3: type fixed(0.123);
scale := 0.5;
bad1: type fixed(scale);	# error: 16: fixed-point scale must be a constant
bad2: type fixed(-0.5);	# error: 17: fixed-point scale must be positive and finite
bad3: type fixed(0.0);	# error: 18: fixed-point scale must be positive and finite
bad4: type fixed(1);	# error: 19: fixed-point scale must be real, not int
bad5: type fixed(0.5, 2e10);	# error: 20: fixed-point maximum 2e+10 needs more than 31 bits at scale 0.5
bad6: type fixed(0.5, -1.0);	# error: 21: fixed-point maximum must be positive and finite
init(nil: ref Draw->Context, nil: list of string)
{
	x: fpt1;
	y: fpt2;
	z: fpt3;
	z = x*y;	# error: 27: type mismatch: fixed(0.12345) * fixed(0.1234)
	z = fpt3(x)*fpt3(y);
	w: fixed(0.123, 1000.0) = z;	# error: 29: type mismatch in assignment: fixed(0.123, 1000) and fixed(0.123)
	z = z % z;	# error: 30: operator % not defined on fixed(0.123)
	z = z & z;	# error: 31: operator & not defined on fixed(0.123)
	z = z | z;	# error: 32: operator | not defined on fixed(0.123)
	z = z ^ z;	# error: 33: operator ^ not defined on fixed(0.123)
	z = ~z;	# error: 34: ~ on fixed(0.123)
	if(!z) ;	# error: 35: condition must be int, not fixed(0.123)
	z++;	# error: 36: ++/-- needs an arithmetic operand, not fixed(0.123)
	z = 3;	# error: 37: type mismatch in assignment: fixed(0.123) and int
	z = z << 1;	# error: 38: operator << not defined on fixed(0.123)
	z %= z;	# error: 39: operator %= not defined on fixed(0.123)
	if(z < 0) ;	# error: 40
	c := fpt3(1, 2);	# error: 41: conversion to fixed(0.123) takes one value, not 2
	d := fpt3(1e12);	# error: 42: constant out of range of fixed(0.123)
	sys->print("%f\n", z);	# error: 43: format '%f' incompatible with argument of type fixed(0.123)
}
