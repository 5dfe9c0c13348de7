# A dense int case is a jump table (goto) as Inferno's compiler makes it:
# from zero, from a nonzero and a negative low label, through a field (an
# indirect operand), on a byte, with holes and without a default arm; a
# sparse one stays a case table.
implement CJ;
include "sys.m";
	sys: Sys;
include "draw.m";
CJ: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};
Box: adt {
	pad: int;
	v: int;
};
init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;
	s := "";
	for(i := -1; i < 5; i++)
		case i {
		0 => s += "a";
		1 => s += "b";
		2 or 3 => s += "c";
		* => s += "-";
		}
	sys->print("%s\n", s);
	s = "";
	for(c := 'a'; c <= 'h'; c++)
		case c {
		'b' => s += "B";
		'c' to 'e' => s += "M";
		'g' => s += "G";
		}
	sys->print("%s\n", s);
	b := ref Box(0, 0);
	s = "";
	for(b.v = -4; b.v < 2; b.v++)
		case b.v {
		-3 => s += "x";
		-2 => s += "y";
		-1 => s += "z";
		* => s += ".";
		}
	sys->print("%s\n", s);
	s = "";
	for(by := byte 0; by < byte 5; by++)
		case by {
		1 => s += "1";
		2 => s += "2";
		4 => s += "4";
		* => s += "_";
		}
	sys->print("%s\n", s);
	s = "";
	for(i = 0; i < 1001; i += 250)
		case i {
		0 => s += "0";
		500 => s += "5";
		1000 => s += "k";
		* => s += "?";
		}
	sys->print("%s\n", s);
}
# expect: -abcc-
# expect: BMMMG
# expect: .xyz..
# expect: _12_4
# expect: 0?5?k
