# Threads: spawn with arguments, a shared result through a channel, thread
# ids, and a spawned thread that dies while init ends normally (Inferno
# reports the dead thread and the program still succeeds).
implement Threads;
include "sys.m";
	sys: Sys;
include "draw.m";
Threads: module { init: fn(nil: ref Draw->Context, nil: list of string); };

square(n: int, out: chan of (int, int))
{
	out <-= (n, n * n);
}

doomed(ready: chan of int)
{
	a := array[2] of int;
	i := 2;
	ready <-= sys->pctl(0, nil) > 0;
	a[i] = 1;
}

init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;
	out := chan of (int, int);
	for(i := 1; i <= 3; i++)
		spawn square(i, out);
	total := 0;
	for(i = 0; i < 3; i++){
		(nil, sq) := <-out;
		total += sq;
	}
	sys->print("squares %d\n", total);
	ready := chan of int;
	spawn doomed(ready);
	sys->print("doomed has pid %d\n", <-ready);
	sys->sleep(20);
	sys->print("init returns\n");
}
