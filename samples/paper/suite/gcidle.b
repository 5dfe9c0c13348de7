implement BenchGcIdle;

# GCIDLE as samples/bench-suite/gcidle.b (same arguments), over the same
# live heap of LIVE blocks as samples/paper/suite/base.b, so that an idle
# episode walks the heap whose walking delays BASE. run.sh sets LIVE.
# Usage: gcidle NEPISODES SLEEPMS

include "sys.m";
	sys: Sys;
include "draw.m";

BenchGcIdle: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};

LIVE: con 100000;

Node: adt {
	v: int;
	next: cyclic ref Node;
};

heap: array of array of int;

init(nil: ref Draw->Context, args: list of string)
{
	sys = load Sys Sys->PATH;
	args = tl args;
	n := int hd args;
	ms := int hd tl args;
	# An array of arrays, not a global list built by consing: see README.
	heap = array[LIVE] of array of int;
	for(i := 0; i < LIVE; i++)
		heap[i] = array[2] of int;
	for(e := 0; e < n; e++) {
		for(i = 0; i < 100; i++) {
			a := ref Node(i, nil);
			a.next = ref Node(i, a);
		}
		sys->sleep(ms);
	}
}
