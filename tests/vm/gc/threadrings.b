implement ThreadRings;

# Several threads build and drop rings of adts, a fixed number of rounds
# each: under --gc=ms every block is garbage for the collector alone, made
# by four threads at once, so the heap stays bounded only if the collector's
# pace follows the allocation rate.
#   threadrings.b [ROUNDS [THREADS]]

include "sys.m";
	sys: Sys;
include "draw.m";

ThreadRings: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};

Node: adt {
	id: int;
	name: string;
	prev, next: cyclic ref Node;
};

ring(n: int): ref Node
{
	first := ref Node(0, "r0", nil, nil);
	last := first;
	for(i := 1; i < n; i++){
		x := ref Node(i, "r" + string i, last, nil);
		last.next = x;
		last = x;
	}
	last.next = first;
	first.prev = last;
	return first;
}

worker(id, rounds: int, done: chan of int)
{
	sum := 0;
	keep: ref Node;
	for(r := 0; r < rounds; r++){
		x := ring(200 + id * 50);
		sum += x.prev.id;
		if(r % 10 == 0)
			keep = x;	# one ring lives a while
	}
	keep = nil;
	done <-= sum;
}

init(nil: ref Draw->Context, args: list of string)
{
	sys = load Sys Sys->PATH;
	rounds := 100;
	threads := 4;
	if(tl args != nil){
		rounds = int hd tl args;
		if(tl tl args != nil)
			threads = int hd tl tl args;
	}
	done := chan of int;
	for(i := 0; i < threads; i++)
		spawn worker(i, rounds, done);
	total := 0;
	for(i = 0; i < threads; i++)
		total += <-done;
	sys->print("total %d\n", total);
}
