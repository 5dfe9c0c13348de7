implement Threadring;

# The benchmarks game's thread-ring: 503 threads in a ring pass a token
# that counts down from N; the thread holding it at zero prints its number.

include "sys.m";
	sys: Sys;
include "draw.m";

Threadring: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};

Ring: con 503;

link(id: int, in, out: chan of int, done: chan of int)
{
	for(;;){
		t := <-in;
		if(t == 0){
			done <-= id;
			return;
		}
		out <-= t - 1;
	}
}

init(nil: ref Draw->Context, args: list of string)
{
	sys = load Sys Sys->PATH;
	n := 1000;
	if(tl args != nil)
		n = int hd tl args;
	chans := array[Ring] of chan of int;
	for(i := 0; i < Ring; i++)
		chans[i] = chan of int;
	done := chan of int;
	for(i = 0; i < Ring; i++)
		spawn link(i + 1, chans[i], chans[(i + 1) % Ring], done);
	chans[0] <-= n;
	sys->print("%d\n", <-done);
}
