# Module data: the variables a module declaration lists. The implementing
# module keeps them first in its data and exports them as `.mp`; `m->x`
# reaches them through a module value (here the running instance, loaded
# as SELF, sharing its data), and an imported data member by its name.
# `Sys->Qid(...)` builds an adt named through its module.
implement ModuleData;
include "sys.m";
	sys: Sys;
include "draw.m";
ModuleData: module {
	init: fn(nil: ref Draw->Context, args: list of string);
	Point: adt {
		x, y: int;
	};
	count: int;
	name: string;
	origin: Point;
	big1: big;
	table: array of int;
	greeting: string;
	primes: array of int;
	K: con 5;
	corner: con Point(K << 1, (K | 2) + 1);
};
Other: module {
	J: con 3;
	Spot: adt {
		a, b: int;
	};
	spot: con Spot(J << 2, J | 8);
};
far := ModuleData->corner;
greeting = "hello";
primes = array[] of {2, 3, 5, 7};
farspot := Other->spot;
init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;
	me := load ModuleData SELF;
	count = 3;
	name = "data";
	table = array[] of {10, 20, 30};
	sys->print("%d %s %d\n", me->count, me->name, me->table[2]);	# expect: 3 data 30
	# top-level assignments gave module data its first values
	sys->print("%s %d %d\n", me->greeting, len primes, me->primes[3]);	# expect: hello 4 7
	me->count += 4;
	me->origin = Point(5, 6);
	me->big1 = big 1 << 40;
	me->table[0] = 11;
	sys->print("%d %d %d %bd %d\n", count, origin.x, origin.y, big1, table[0]);	# expect: 7 5 6 1099511627776 11
	sys->print("%d %d\n", me->origin.y, len me->table);	# expect: 6 3
	(n, nil) := (me->name, 0);
	sys->print("%s\n", n);	# expect: data
	# an adt of another module, built through its module's name
	q := Sys->Qid(big 7, 2, Sys->QTDIR);
	sys->print("%bd %d %d\n", q.path, q.vers, q.qtype);	# expect: 7 2 128
	# an adt con of a module: its values are read in the module's scope
	c := ModuleData->corner;
	sys->print("%d %d %d\n", c.x, c.y, far.x + far.y);	# expect: 10 8 18
	case 12 {
	(Other->spot).a =>	# a field of a module's adt con is a constant
		sys->print("case %d\n", Other->spot.b);	# expect: case 11
	}
	s := Other->spot;
	sys->print("%d %d %d\n", s.a, s.b, farspot.b);	# expect: 12 11 11
	show(me);
}
show(m: ModuleData)
{
	count, origin: import m;
	count++;
	sys->print("%d %d\n", count, origin.x);	# expect: 8 5
	sys->print("%d\n", m->count);	# expect: 8
}
