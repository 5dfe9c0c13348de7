implement Soak;

# Several threads allocate and drop structures for a while: rings of adts
# (cyclic: only the collector frees them), lists, arrays of refs and
# strings (acyclic: reference counts free them). Each round's garbage is
# dropped whole, so the live heap stays about the same: perf/soak/run.py
# watches the RSS stay within a bound.
#   soak.b SECONDS [THREADS]

include "sys.m";
	sys: Sys;
include "draw.m";

Soak: module {
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

acyclic(n: int): int
{
	l: list of string;
	a := array[n] of ref Node;
	for(i := 0; i < n; i++){
		l = ("s" + string i) :: l;
		a[i] = ref Node(i, hd l, nil, nil);
	}
	return len l + len a;
}

worker(id, seconds: int, done: chan of int)
{
	end := sys->millisec() + 1000 * seconds;
	rounds := 0;
	keep: ref Node;
	while(sys->millisec() < end){
		r := ring(200 + id * 50);
		if(rounds % 10 == 0)
			keep = r;	# one ring lives a while, then goes too
		r = nil;
		acyclic(300);
		rounds++;
	}
	keep = nil;
	done <-= rounds;
}

init(nil: ref Draw->Context, args: list of string)
{
	sys = load Sys Sys->PATH;
	seconds := 10;
	threads := 4;
	if(tl args != nil){
		seconds = int hd tl args;
		if(tl tl args != nil)
			threads = int hd tl tl args;
	}
	done := chan of int;
	for(i := 0; i < threads; i++)
		spawn worker(i, seconds, done);
	total := 0;
	for(i = 0; i < threads; i++)
		total += <-done;
	sys->print("soak: %d threads, %d rounds\n", threads, total);
}
