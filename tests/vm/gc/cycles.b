implement Cycles;

# Builds a doubly linked ring of adts and drops it, many times: only the
# collector can reclaim the rings, so memory stays bounded only if it does.

include "sys.m";
	sys: Sys;
include "draw.m";

Cycles: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};

Node: adt {
	id: int;
	name: string;
	prev, next: cyclic ref Node;
};

ring(n: int): ref Node
{
	first := ref Node(0, "n0", nil, nil);
	last := first;
	for(i := 1; i < n; i++){
		x := ref Node(i, "n" + string i, last, nil);
		last.next = x;
		last = x;
	}
	last.next = first;
	first.prev = last;
	return first;
}

init(nil: ref Draw->Context, args: list of string)
{
	sys = load Sys Sys->PATH;
	rounds := 400;
	if(tl args != nil)
		rounds = int hd tl args;
	total := 0;
	for(round := 0; round < rounds; round++){
		r := ring(50);
		# walk it both ways
		s := 0;
		p := r;
		do {
			s += p.id;
			p = p.next;
		} while(p != r);
		p = r.prev;
		while(p != r){
			s -= p.id;
			p = p.prev;
		}
		total += s + len r.next.name;
	}
	sys->print("total %d\n", total);
}
