# Adts: values copied on assignment, refs shared, member functions with
# self and ref self, cons, pick adts with tagof and pick statements.
implement Adts;
include "sys.m";
	sys: Sys;
include "draw.m";
Adts: module { init: fn(nil: ref Draw->Context, nil: list of string); };

Point: adt {
	x, y: int;
	Origin: con 0;
	add: fn(p: self Point, q: Point): Point;
	scale: fn(p: self ref Point, k: int);
	text: fn(p: self Point): string;
};

Shape: adt {
	name: string;
	pick {
	Circle =>
		r: real;
	Rect =>
		w, h: int;
	Empty =>
	}
};

Point.add(p: self Point, q: Point): Point
{
	return Point(p.x + q.x, p.y + q.y);
}

Point.scale(p: self ref Point, k: int)
{
	p.x *= k;
	p.y *= k;
}

Point.text(p: self Point): string
{
	return "(" + string p.x + "," + string p.y + ")";
}

describe(s: ref Shape): string
{
	pick v := s {
	Circle =>
		return v.name + " circle " + string v.r;
	Rect =>
		return v.name + " rect " + string (v.w * v.h);
	* =>
		return v.name + " other";
	}
}

init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;
	p := Point(1, 2);
	q := p;
	q.x = 10;
	sys->print("value %s %s\n", p.text(), q.text());
	r := ref p;
	r2 := r;
	r2.scale(3);
	sys->print("ref (%d,%d) %s %s\n", r.x, r.y, p.text(), p.add(Point(r.x, r.y)).text());
	sys->print("con %d\n", Point.Origin);
	shapes := array[] of {
		ref Shape.Circle("c", 0.5),
		ref Shape.Rect("r", 2, 3),
		ref Shape.Empty("e")
	};
	for(i := 0; i < len shapes; i++)
		sys->print("%d %s\n", tagof shapes[i], describe(shapes[i]));
	n: ref Point;
	{
		sys->print("%d\n", n.x);
	} exception e {
	"*" =>
		sys->print("nil ref: %s\n", e);
	}
}
