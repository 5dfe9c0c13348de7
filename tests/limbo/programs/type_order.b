# Top-level type aliases may be used by adts and modules declared before
# them, and may name types imported at top level.
implement TypeOrder;
include "sys.m";
	sys: Sys;
include "draw.m";
	draw: Draw;
TypeOrder: module {
	init: fn(nil: ref Draw->Context, args: list of string);
	Count: type int;	# the implemented module's type names reach the program's adts
};
Node: adt {
	ok: bool;
	kids: list of Edge;
	at: Where;
	n: Count;
};
bool: type int;
Edge: type (string, ref Node);
Point: import draw;
Where: type (Point, bool);
init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;
	leaf := ref Node(1, nil, ((1, 2), 0), 6);
	root := ref Node(0, ("a", leaf) :: nil, ((3, 4), 1), 7);
	(name, kid) := hd root.kids;
	sys->print("%s %d %d %d %d\n", name, kid.ok, root.at.t0.y, root.at.t1, kid.n);	# expect: a 1 4 1 6
	b := array of byte nil;	# a typed nil
	sys->print("%d\n", len b);	# expect: 0
}
