implement BenchGcIdle;

# GCIDLE's load: the program sleeps so that the VM goes idle and its idle
# collector runs (up to three epochs, as Inferno's execatidle does). The
# bench tool times each idle episode through the collector observer.
# Usage: gcidle NEPISODES SLEEPMS
# Before each sleep the program drops some cyclic garbage, so each episode
# has marking and sweeping to do over a live heap of a few thousand blocks.

include "sys.m";
	sys: Sys;
include "draw.m";

BenchGcIdle: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};

Node: adt {
	v: int;
	next: cyclic ref Node;
};

live: list of array of int;

init(nil: ref Draw->Context, args: list of string)
{
	sys = load Sys Sys->PATH;
	args = tl args;
	n := int hd args;
	ms := int hd tl args;
	for(i := 0; i < 2000; i++)
		live = array[4] of int :: live;
	for(e := 0; e < n; e++) {
		for(i = 0; i < 100; i++) {
			a := ref Node(i, nil);
			a.next = ref Node(i, a);
		}
		sys->sleep(ms);
	}
}
