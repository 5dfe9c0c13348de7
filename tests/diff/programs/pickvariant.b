# A variable made from `ref Adt.Tag(...)` has the variant's type and reaches
# its fields; it is still a ref Adt where one is wanted (limbo.txt, pick adts).
implement Pickvariant;
include "sys.m";
	sys: Sys;
include "draw.m";
Pickvariant: module { init: fn(nil: ref Draw->Context, nil: list of string); };

Shape: adt {
	name: string;
	pick {
	Circle =>
		r: int;
	Rect =>
		w, h: int;
	}
};

area(s: ref Shape): int
{
	pick p := s {
	Circle =>
		return 3 * p.r * p.r;
	Rect =>
		return p.w * p.h;
	}
	return -1;
}

init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;
	c := ref Shape.Circle("c", 2);
	c.r++;
	c.r += 2;
	c.name += "!";
	sys->print("%s %d %d %d\n", c.name, c.r, area(c), tagof c);
	c = ref Shape.Circle("d", 1);
	sys->print("%s %d\n", c.name, area(c));
	r: ref Shape.Rect = ref Shape.Rect("r", 2, 5);
	r.w *= 3;
	sys->print("%s %d %d\n", r.name, r.w, area(r));
	all := array[3] of ref Shape;
	all[0] = ref Shape.Rect("a", 1, 2);
	all[1] = ref Shape.Circle("b", 1);
	all[2] = c;
	for(i := 0; i < len all; i++)
		sys->print("%s=%d ", all[i].name, area(all[i]));
	sys->print("\n");
	l: list of ref Shape;
	l = r :: c :: l;
	sys->print("%d %s\n", len l, (hd tl l).name);
}
