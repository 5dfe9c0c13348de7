# Adt-valued cons of the program itself (`ZR: con Rect((0, 0), (0, 0))`):
# built where used, their fields folded as constants; byte constants fold
# in 8 bits; `len` of a constant string is a constant.
implement AdtCons;
include "sys.m";
	sys: Sys;
include "draw.m";
AdtCons: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};
Point: adt {
	x, y: int;
};
Rect: adt {
	min, max: Point;
};
Minsize: con Point(100, 42);
ZR: con Rect((0, 0), (3, 4));
FTEXT: con byte 1 << 3;
WRAP: con byte 16rF0 + byte 16r20;
MAGIC: con "!<arch>\n";
MAGLEN: con len MAGIC;
origin := Minsize;
iota: string;	# a variable may bear the name: in a con declaration iota is the counter
sizes := array[] of {Minsize, (1, 2)};
init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;
	sys->print("%d %d\n", Minsize.x, Minsize.y);	# expect: 100 42
	r := ZR;
	sys->print("%d %d %d\n", r.min.x, r.max.x, r.max.y);	# expect: 0 3 4
	p := ref Point(Minsize.x * 2, 0);
	sys->print("%d\n", p.x);	# expect: 200
	sys->print("%d %d\n", origin.y, sizes[0].x + sizes[1].y);	# expect: 42 102
	sys->print("%d %d %d\n", int FTEXT, int WRAP, MAGLEN);	# expect: 8 16 8
	Lo, Mid, Hi: con iota;
	sys->print("%d %d %d\n", Lo, Mid, Hi);	# expect: 0 1 2
	Local: con Point(7, 8);
	q := Local;
	sys->print("%d %d\n", q.x, Local.y);	# expect: 7 8
	show(Minsize);	# expect: 100,42
}
show(p: Point)
{
	sys->print("%d,%d\n", p.x, p.y);
}
