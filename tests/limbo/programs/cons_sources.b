# cons takes its head as it is: a constant word or byte, a field (as Inferno's
# compiler writes consw $2 and consw 0(x)); the lists read back right.
implement C;
include "sys.m";
	sys: Sys;
include "draw.m";
C: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};
P: adt { x: int; s: string; b: byte; };
init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;
	p := ref P(7, "s", byte 3);
	l := 2 :: 1 :: nil;
	l = p.x :: l;
	sl := p.s :: nil;
	bl := p.b :: byte 9 :: nil;
	sys->print("%d %d %d %s %d %d\n", hd l, hd tl l, hd tl tl l, hd sl, int hd bl, int hd tl bl);
}
# expect: 7 2 1 s 3 9
