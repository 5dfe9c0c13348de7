implement StrBuild;

# String building: appending in place, slicing, conversions.

include "sys.m";
	sys: Sys;
include "draw.m";

StrBuild: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};

init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;
	s := "";
	for(i := 0; i < 1000; i++)
		s += string (i % 10);
	sys->print("len %d head %s tail %s\n", len s, s[0:12], s[len s - 5:]);
	words := "";
	for(l := "gamma" :: "beta" :: "alpha" :: nil; l != nil; l = tl l)
		words = hd l + " " + words;
	sys->print("[%s]\n", words);
	r := "";
	for(i = len words - 1; i >= 0; i--)
		r[len r] = words[i];
	sys->print("[%s] %d\n", r, r < words);
}
