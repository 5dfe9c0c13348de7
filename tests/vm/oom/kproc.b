implement Kproc;

# A read that releases the interpreter starts a kernel process (the first
# in each VM) while host allocations fail in turn: a failure there must
# leave the read to run holding the interpreter, never end the process.

include "sys.m";
	sys: Sys;
include "draw.m";

Kproc: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};

init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;
	p := array[2] of ref Sys->FD;
	if(sys->pipe(p) < 0) {
		sys->print("pipe: %r\n");
		return;
	}
	b := array of byte "abc";
	sys->write(p[1], b, len b);
	buf := array[8] of byte;
	n := sys->read(p[0], buf, len buf);
	sys->print("%d %s\n", n, string buf[0:n]);
}
