implement Refill;

# Each round makes a cycle holding a 256 KiB array, fills part of it and
# drops it: only the collector can free it. The collector's quantum-end
# steps count blocks, not bytes, so under a 1 MiB heap a round's array soon
# fits only once the earlier rounds' cycles are collected. An allocation
# that would pass the limit is tried again after a full collection (which
# keeps what the current quantum made: a round is long enough that a
# quantum makes two arrays), so all the rounds run; before, one raised
# "out of memory: heap".
#   refill.b [ROUNDS]

include "sys.m";
	sys: Sys;
include "draw.m";

Refill: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};

Node: adt {
	data: array of byte;
	next: cyclic ref Node;
};

init(nil: ref Draw->Context, args: list of string)
{
	sys = load Sys Sys->PATH;
	rounds := 40;
	if(tl args != nil)
		rounds = int hd tl args;
	sum := 0;
	for(i := 0; i < rounds; i++){
		n := ref Node(array[256 * 1024] of byte, nil);
		n.next = n;
		for(j := 0; j < 200; j++)
			n.data[j * 1024] = byte (i + j);
		sum += int n.next.data[i * 1024];
	}
	sys->print("rounds %d sum %d\n", rounds, sum);
}
