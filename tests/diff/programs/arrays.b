# Arrays: initialisers, slices sharing storage, slice assignment, arrays of
# arrays, bounds errors, copies by slice, lengths of nil.
implement Arrays;
include "sys.m";
	sys: Sys;
include "draw.m";
Arrays: module { init: fn(nil: ref Draw->Context, nil: list of string); };

show(a: array of int): string
{
	s := "";
	for(i := 0; i < len a; i++)
		s += " " + string a[i];
	return "[" + s + " ]";
}

init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;
	a := array[] of {1, 2, 3, 4, 5};
	b := a[1:4];
	b[0] = 20;
	sys->print("share %s %s %d\n", show(a), show(b), len b);
	c := array[8] of {* => 7, 2 => 9, 5 to 6 => 1};
	sys->print("init %s\n", show(c));
	c[2:] = a[0:3];
	sys->print("copy %s\n", show(c));
	m := array[3] of array of int;
	for(i := 0; i < 3; i++){
		m[i] = array[i+1] of int;
		m[i][i] = i*i;
	}
	sys->print("nested %s %s %s\n", show(m[0]), show(m[1]), show(m[2]));
	n: array of int;
	sys->print("nil %d %s\n", len n, show(n[0:0]));
	{
		sys->print("%d\n", a[5]);
	} exception e {
	"*" =>
		sys->print("caught %s\n", e);
	}
	{
		x := a[3:2];
		sys->print("%d\n", len x);
	} exception e {
	"array bounds*" =>
		sys->print("caught %s\n", e);
	}
	bs := array of byte "hello";
	bs[0] = byte 'j';
	sys->print("bytes %s %d\n", string bs[0:4], len bs[5:]);
	r := array[2] of {1.5, 2.5};
	sys->print("real %g\n", r[0] + r[1]);
	s := array[3] of string;
	s[1] = "mid";
	sys->print("strings [%s] [%s] %d\n", s[0], s[1], s[2] == nil);
}
