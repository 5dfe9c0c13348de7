# Globals initialised with constants of every shape, kept in the data
# section as Inferno's compiler keeps them: tuples, adts (by constructor,
# `(Adt)(...)`, a module's adt con), arrays of them, arrays of arrays, keys
# and values folded from `tagof`, `len` and `string` of constants.
implement GlobalData;
include "sys.m";
	sys: Sys;
include "draw.m";
GlobalData: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};
Point: adt {
	x, y: int;
};
Rect: adt {
	min, max: Point;
};
Op: adt {
	name: string;
	kind: int;
	args: array of int;
};
Msg: adt {
	pick {
	Ping => n: int;
	Data => s: string;
	Close =>
	}
};
NAME: con "global";
WIDTH: con 12;
origin := Point(0, 0);
screen := Rect((0, 0), (640, 480));
zr := ((1, 2), (3, "four"));
allwrite := Sys->nulldir;
named := len NAME;
tag := tagof Msg.Close;
label := "width " + string WIDTH + " of " + NAME;
moves := array[] of {Point(1, 0), (0, 1), (-1, 1)};
ops := array[] of {
	Op("swap", 1, array[] of {1, 2}),
	("dup", 2, nil),
	(Op)("drop", 3, array[2] of int),
};
kinds: array of Op = array[] of {("a", 1, nil), ("b", 2, nil)};
cells := array[] of {array[] of {(0, 1), (1, 1)}, array[] of {(0, 0)}};
bytes := array[] of {array[] of {byte 0, byte 16r7f}, array[] of {byte 255}};
names := array[tagof Msg.Close + 1] of {
	tagof Msg.Ping => "ping",
	tagof Msg.Data => "data",
	tagof Msg.Close => "close",
};
big1 := big 1 << 40;
init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;
	sys->print("%d %d %d %d\n", origin.x, origin.y, screen.max.x, screen.max.y);	# expect: 0 0 640 480
	(a, b) := zr;
	sys->print("%d %d %d %s\n", a.t0, a.t1, b.t0, b.t1);	# expect: 1 2 3 four
	sys->print("%d %bd %d\n", allwrite.mode, allwrite.length, allwrite.name == nil);	# expect: -1 -1 1
	sys->print("%d %d %s\n", named, tag, label);	# expect: 6 2 width 12 of global
	for(i := 0; i < len moves; i++)
		sys->print("(%d,%d)", moves[i].x, moves[i].y);
	sys->print("\n");	# expect: (1,0)(0,1)(-1,1)
	for(i = 0; i < len ops; i++) {
		o := ops[i];
		sys->print("%s %d %d|", o.name, o.kind, len o.args);
	}
	sys->print("\n");	# expect: swap 1 2|dup 2 0|drop 3 2|
	sys->print("%d %d %d\n", ops[0].args[1], ops[2].args[0], ops[2].args[1]);	# expect: 2 0 0
	sys->print("%s %d %s\n", kinds[0].name, kinds[1].kind, kinds[1].name);	# expect: a 2 b
	sys->print("%d %d %d %d\n", len cells, len cells[0], cells[0][1].t0, cells[1][0].t1);	# expect: 2 2 1 0
	sys->print("%d %d %d\n", int bytes[0][1], int bytes[1][0], len bytes[1]);	# expect: 127 255 1
	sys->print("%s %s %s\n", names[0], names[1], names[2]);	# expect: ping data close
	sys->print("%bd\n", big1);	# expect: 1099511627776
	# the data is the module's own: changing it changes what later reads see
	moves[0].x = 7;
	cells[1][0] = (5, 6);
	sys->print("%d %d\n", moves[0].x, cells[1][0].t0);	# expect: 7 5
}
