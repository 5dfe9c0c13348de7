# Type and import declarations inside functions: names for the block
# that declares them, as in Inferno's programs (`Iobuf: import bufio;`).
implement LocalDecls;
include "sys.m";
	sys: Sys;
include "draw.m";
	draw: Draw;
LocalDecls: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};
init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;
	Point, Rect: import draw;
	OTRUNC, OREAD: import Sys;
	Pair: type (int, string);
	Pt: type Point;
	p := Point(3, 4);
	r := Rect(p, Point(10, 20));
	q: Pt = (1, 2);
	pr: Pair = (7, "seven");
	sys->print("%d %d %d %d\n", p.x, r.max.y, q.x + q.y, OREAD + OTRUNC);	# expect: 3 20 3 16
	sys->print("%d %s\n", pr.t0, pr.t1);	# expect: 7 seven
	{
		FD: import sys;
		Pt: type int;
		fd: ref FD = sys->fildes(1);
		n: Pt = 5;
		sys->fprint(fd, "%d\n", n);	# expect: 5
	}
	x: Pt = (5, 6);
	sys->print("%d\n", x.y);	# expect: 6
	sys->print("%d\n", inner());	# expect: 42
}
inner(): int
{
	Q: type big;
	v: Q = big 41;
	return int (v + big 1);
}
