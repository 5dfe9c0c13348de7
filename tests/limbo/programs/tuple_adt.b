# A tuple assigned to an adt whose data members correspond in number and
# type (limbo.txt 8.2), recursively; passed as an argument and returned.
implement TupleAdt;
include "sys.m";
	sys: Sys;
include "draw.m";
TupleAdt: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};
Qid: adt { path: big; vers: int; qtype: int; };
Pt: adt { x, y: int; };
Rc: adt { min, max: Pt; };
Hv: adt { i: int; r: real; s: string; };
area(r: Rc): int { return (r.max.x - r.min.x) * (r.max.y - r.min.y); }
corner(): Pt { return (7, 8); }
init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;
	q: Qid = (big 16r100000000, 2, 3);
	sys->print("%bd %d %d\n", q.path, q.vers, q.qtype);	# expect: 4294967296 2 3
	q = (big 5, 6, 7);
	sys->print("%bd %d %d\n", q.path, q.vers, q.qtype);	# expect: 5 6 7
	r: Rc;
	r = ((1, 2), (4, 6));
	sys->print("%d\n", area(r));	# expect: 12
	sys->print("%d\n", area(((0, 0), (2, 5))));	# expect: 10
	p := corner();
	sys->print("%d %d\n", p.x, p.y);	# expect: 7 8
	h: Hv = (1, 2.5, "three");
	sys->print("%d %g %s\n", h.i, h.r, h.s);	# expect: 1 2.5 three
	a := array[2] of Pt;
	a[1] = (9, 10);
	sys->print("%d %d\n", a[1].x, a[1].y);	# expect: 9 10
}
