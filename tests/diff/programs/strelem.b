# A string's character changed in place by ++, --, and op= (limbo.txt: a
# string element is an lvalue of type int).
implement Strelem;
include "sys.m";
	sys: Sys;
include "draw.m";
Strelem: module { init: fn(nil: ref Draw->Context, nil: list of string); };

init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;
	s := "abcd";
	s[0]++;
	++s[1];
	s[2]--;
	--s[3];
	sys->print("%s\n", s);
	s[0] += 3;
	s[1] -= 1;
	s[2] *= 1;
	s[3] |= 16r20;
	sys->print("%s\n", s);
	i := 0;
	old := s[i++]++;
	sys->print("%c %d %s\n", old, i, s);
	new := ++s[i];
	sys->print("%c %s\n", new, s);
	t := "x";
	t[0] += 16r3b1 - 'x';
	sys->print("%s %d\n", t, len t);
}
