# Runtime edges where Inferno's behaviour is the definition: both ends of a
# pipe read and write; alt refuses nil channels and a channel both sent and
# received on; the UTF-8 builtins at the ends of their buffers; nil strings
# and arrays; strings to numbers out of range or without digits.
implement Edges;
include "sys.m";
	sys: Sys;
include "draw.m";
Edges: module { init: fn(nil: ref Draw->Context, nil: list of string); };

init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;
	p := array[2] of ref Sys->FD;
	sys->pipe(p);
	buf := array[8] of byte;
	sys->write(p[1], array of byte "to0", 3);
	sys->write(p[0], array of byte "to1", 3);
	n0 := sys->read(p[0], buf, len buf);
	s0 := string buf[0:n0];
	n1 := sys->read(p[1], buf, len buf);
	sys->print("pipe %s %s\n", s0, string buf[0:n1]);

	c := chan[1] of int;
	z: chan of int;
	{
		alt { c <-= 1 => sys->print("sent\n"); v := <-z => sys->print("got %d\n", v); }
	} exception e { "*" => sys->print("alt nil: %s\n", e); }
	{
		alt { v := <-c => sys->print("got %d\n", v); c <-= 2 => sys->print("sent\n"); }
	} exception e { "*" => sys->print("alt same: %s\n", e); }

	(nt, nil) := sys->tokenize("a b", "");
	sys->print("tokens %d\n", nt);
	b := array[] of {byte 16rc3, byte 16ra9, byte 16rc3};
	(ch, w, ok) := sys->byte2char(b, 0);
	sys->print("whole %x %d %d\n", ch, w, ok);
	(ch, w, ok) = sys->byte2char(b, 2);
	sys->print("short %x %d %d\n", ch, w, ok);
	sys->print("utfbytes %d %d\n", sys->utfbytes(b, 3), sys->utfbytes(b, 2));
	sys->print("char2byte %d\n", sys->char2byte(-5, buf, 0));
	{ sys->utfbytes(b, 4); } exception e { "*" => sys->print("utfbytes past: %s\n", e); }
	{ sys->char2byte('a', buf, len buf); } exception e { "*" => sys->print("char2byte past: %s\n", e); }

	ns: string;
	{ sys->print("%d\n", ns[0]); } exception e { "*" => sys->print("nil string: %s\n", e); }
	na: array of int;
	na[0:] = nil;
	{ na[0:] = array[] of {1}; } exception e { "*" => sys->print("nil array: %s\n", e); }
	sys->print("big %bd\n", big ("1" + "8446744073709551621"));
	sys->print("real %g %g\n", real ("-" + "x"), real ("in" + "f"));
}
