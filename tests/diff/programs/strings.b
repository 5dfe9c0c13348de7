# Strings and UTF-8: lengths in characters, indexing, slicing, element
# assignment growing a string, comparison, conversions to and from bytes.
implement Strings;
include "sys.m";
	sys: Sys;
include "draw.m";
Strings: module { init: fn(nil: ref Draw->Context, nil: list of string); };

init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;
	s := "héllo, 世界";
	sys->print("len %d bytes %d\n", len s, len array of byte s);
	sys->print("index %c %x %x\n", s[1], s[1], s[7]);
	sys->print("slice [%s] [%s]\n", s[0:5], s[7:]);
	t := "ab";
	t[len t] = 'c';
	t[0] = 'A';
	t[2] = 16r263a;
	sys->print("grow %s %d\n", t, len t);
	sys->print("cmp %d %d %d %d\n", "abc" < "abd", "b" > "abc", "x" == "x", "" == nil);
	empty: string;
	sys->print("concat [%s]\n", "α" + "β" + empty + "γ");
	b := array of byte "€1";
	sys->print("bytes %d %x %x %x %c\n", len b, int b[0], int b[1], int b[2], int b[3]);
	sys->print("back %s\n", string b);
	bad := array[] of {byte 'x', byte 16rff, byte 'y', byte 'z', byte 'w'};
	u := string bad;
	sys->print("bad %d %x\n", len u, u[1]);
	cut := array[] of {byte 'a', byte 16re2, byte 16r82};
	sys->print("tail %d\n", len string cut);
	sys->print("int %d %d %d %bd\n", int "42", int " -17xyz", int "abc", big "123456789012");
	sys->print("real %g %g\n", real "2.5e3", real "1e-2");
	sys->print("tostr %s %s %s\n", string 12, string big -3, string 0.125);
	r := "";
	for(i := 0; i < 5; i++)
		r += string i;
	sys->print("build %s\n", r);
}
