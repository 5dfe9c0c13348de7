implement BenchGcSched;

# GCSCHED's load: threads that allocate while the collector runs one step
# at the end of each scheduler quantum (the bench tool times the steps
# through the VM's collector observer; this program prints nothing).
# Usage: gcsched NITER NTHREADS
# Each thread runs NITER iterations of about one quantum of work, building
# lists (freed by reference counting) and rings of adts (cyclic garbage
# only the collector can free), over a live heap of a few thousand blocks.

include "sys.m";
	sys: Sys;
include "draw.m";

BenchGcSched: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};

Node: adt {
	v: int;
	next: cyclic ref Node;
	data: array of int;
};

live: list of array of int;

worker(niter: int, done: chan of int)
{
	keep: list of ref Node;
	for(it := 0; it < niter; it++) {
		l: list of int;
		for(i := 0; i < 40; i++)
			l = i :: l;
		a := ref Node(it, nil, array[8] of int);
		b := ref Node(it, a, nil);
		a.next = b;	# a two-node ring: garbage once dropped
		if((it & 15) == 0)
			keep = a :: keep;
		if((it & 255) == 255)
			keep = nil;
	}
	done <-= len keep;
}

init(nil: ref Draw->Context, args: list of string)
{
	sys = load Sys Sys->PATH;
	args = tl args;
	niter := int hd args;
	nthreads := int hd tl args;
	for(i := 0; i < 2000; i++)
		live = array[4] of int :: live;
	done := chan of int;
	for(i = 0; i < nthreads; i++)
		spawn worker(niter, done);
	for(i = 0; i < nthreads; i++)
		<-done;
}
