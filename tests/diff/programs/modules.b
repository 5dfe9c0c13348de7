# Module loading: two loads of one module have separate data, a module's
# adt functions, a failed load gives nil, and a builtin module loads.
implement Modules;
include "sys.m";
	sys: Sys;
include "draw.m";
include "math.m";
include "lib/counter.m";
Modules: module { init: fn(nil: ref Draw->Context, nil: list of string); };

c1: Counter;
Pair: import c1;

init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;
	c1 = load Counter Counter->PATH;
	c2 := load Counter Counter->PATH;
	c1->next(5);
	c1->next(2);
	c2->next(1);
	(name, n1) := c1->describe();
	(nil, n2) := c2->describe();
	sys->print("%s %d %d\n", name, n1, n2);
	p := ref Pair(3, 4);
	sys->print("pair %d\n", p.sum());
	none := load Counter "nonexistent.dis";
	sys->print("missing %d\n", none == nil);
	wrong := load Math "counter.dis";
	sys->print("wrong type %d\n", wrong == nil);
	m := load Math Math->PATH;
	sys->print("math %g\n", m->fabs(-0.5));
}
