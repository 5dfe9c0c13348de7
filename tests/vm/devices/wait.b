implement Wait;

# /prog/N/wait: the exits of the threads this one spawns, one line a read,
# "PID \"MODULE\":STATUS", the status empty or the exception that ended it.

include "sys.m";
	sys: Sys;
include "draw.m";

Wait: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};

child(pids: chan of int, fail: int)
{
	pids <-= sys->pctl(0, nil);
	if(fail)
		raise "fail:oops";
}

init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;
	me := sys->pctl(0, nil);
	sys->print("no such thread: %d\n", sys->open("/prog/999/wait", Sys->OREAD) == nil);
	w := sys->open("/prog/" + string me + "/wait", Sys->OREAD);
	sys->print("fd2path: %d\n", sys->fd2path(w) == "/prog/" + string me + "/wait");
	pids := chan of int;
	spawn child(pids, 0);
	a := <-pids;
	buf := array[256] of byte;
	n := sys->read(w, buf, len buf);
	sys->print("%d\n", string buf[0:n] == string a + " \"Wait\":");
	spawn child(pids, 1);
	b := <-pids;
	n = sys->read(w, buf, len buf);
	sys->print("%d\n", string buf[0:n] == string b + " \"Wait\":fail:oops");
	sys->print("%d\n", a != b && a != me);
}
