implement Handovers;

# Two hundred reads that release the interpreter: each gives it to a
# kernel process and takes it back, queueing for it, while host
# allocations fail in turn. Taking it back must need no host memory: it
# happens however the read ends, where a failure could only end the process.

include "sys.m";
	sys: Sys;
include "draw.m";

Handovers: module {
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
	buf := array[8] of byte;
	total := 0;
	for(i := 0; i < 200; i++) {
		sys->write(p[1], b, len b);
		total += sys->read(p[0], buf, len buf);
	}
	sys->print("%d\n", total);
}
