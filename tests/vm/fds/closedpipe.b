implement ClosedPipe;

# Writes into a pipe whose other end every holder has let go. As Inferno:
# the write raises "write on closed pipe" in the writing thread (Inferno's
# sh and echo catch it by that name); uncaught, it ends that thread only, and
# the VM and its other threads go on. Dis pipes are host socket pairs, so no
# SIGPIPE may reach (and end) the process.

include "sys.m";
	sys: Sys;
include "draw.m";

ClosedPipe: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};

# One write, after the reader has gone; the line after it must not run, the
# handler must.
writer(fd: ref Sys->FD, pids: chan of int)
{
	pids <-= sys->pctl(0, nil);
	{
		b := array of byte "hello\n";
		sys->write(fd, b, len b);
		sys->print("writer: write returned, %r\n");
	} exception e {
	"*" =>
		sys->print("writer: handler ran for %s\n", e);
	}
}

# Writes until the pipe fills and the write waits; the reader's end goes
# meanwhile.
flooder(fd: ref Sys->FD, pids: chan of int)
{
	pids <-= sys->pctl(0, nil);
	b := array[8192] of byte;
	for(;;)
		sys->write(fd, b, len b);
}

# Reads a little, then lets its end go by ending.
reader(fd: ref Sys->FD, pids: chan of int)
{
	pids <-= sys->pctl(0, nil);
	buf := array[10] of byte;
	sys->read(fd, buf, len buf);
}

# stream() into the pipe: the same kill.
streamer(src, dst: ref Sys->FD, pids: chan of int)
{
	pids <-= sys->pctl(0, nil);
	sys->stream(src, dst, 8192);
	sys->print("streamer: stream returned\n");
}

# The next exit line on the wait file, its pid named.
waited(w: ref Sys->FD, names: list of (int, string)): string
{
	buf := array[256] of byte;
	n := sys->read(w, buf, len buf);
	if(n <= 0)
		return sys->sprint("wait read %d: %r", n);
	(nil, f) := sys->tokenize(string buf[0:n], " ");
	pid := int hd f;
	for(; names != nil; names = tl names)
		if((hd names).t0 == pid)
			return (hd names).t1 + " " + string buf[len hd f + 1:n];
	return "unknown " + string buf[0:n];
}

init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;
	me := sys->pctl(0, nil);
	w := sys->open("/prog/" + string me + "/wait", Sys->OREAD);
	pids := chan of int;

	p := array[2] of ref Sys->FD;
	sys->pipe(p);
	p[0] = nil;
	spawn writer(p[1], pids);
	p = nil;
	a := <-pids;
	sys->print("%s\n", waited(w, (a, "writer") :: nil));

	p = array[2] of ref Sys->FD;
	sys->pipe(p);
	spawn flooder(p[1], pids);
	a = <-pids;
	spawn reader(p[0], pids);
	b := <-pids;
	p = nil;
	names := (a, "flooder") :: (b, "reader") :: nil;
	s1 := waited(w, names);
	s2 := waited(w, names);
	if(s1 > s2)
		(s1, s2) = (s2, s1);
	sys->print("%s\n%s\n", s1, s2);

	p = array[2] of ref Sys->FD;
	sys->pipe(p);
	q := array[2] of ref Sys->FD;
	sys->pipe(q);
	q[0] = nil;
	spawn streamer(p[0], q[1], pids);
	a = <-pids;
	q = nil;
	msg := array of byte "through stream\n";
	sys->write(p[1], msg, len msg);
	sys->print("%s\n", waited(w, (a, "streamer") :: nil));

	sys->print("main: still running\n");
}
