# Lists: cons, hd, tl, len, sharing of tails, lists of strings, tuples and
# adts, reversal, and hd of nil.
implement Lists;
include "sys.m";
	sys: Sys;
include "draw.m";
Lists: module { init: fn(nil: ref Draw->Context, nil: list of string); };

P: adt { x: int; name: string; };


init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;
	l := 1 :: 2 :: 3 :: nil;
	m := 0 :: l;
	sys->print("len %d %d hd %d %d\n", len l, len m, hd l, hd tl tl m);
	s := "c" :: "b" :: "a" :: nil;
	out := "";
	for(t := s; t != nil; t = tl t)
		out += hd t;
	sys->print("strings %s\n", out);
	ps := P(1, "one") :: P(2, "two") :: nil;
	sys->print("adts %s %d\n", (hd tl ps).name, (hd ps).x);
	tu := (1, "x") :: (2, "y") :: nil;
	(n, name) := hd tl tu;
	sys->print("tuples %d %s\n", n, name);
	bl := big 5 :: big 6 :: nil;
	sys->print("bigs %bd\n", hd bl + hd tl bl);
	rl := 1.5 :: nil;
	sys->print("reals %g %d\n", hd rl, tl rl == nil);
	e: list of int;
	{
		sys->print("%d\n", hd e);
	} exception x {
	"*" =>
		sys->print("hd nil: %s\n", x);
	}
}
