implement Catch;

# Runs out of memory on purpose in several ways, catches each
# "out of memory: heap" and goes on: the memory held when the exception
# was raised is released with the frames it unwinds, so the next round
# can allocate again.

include "sys.m";
	sys: Sys;
include "draw.m";

Catch: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};

spawned: int;	# threads the last spawner made

Node: adt {
	v: int;
	next: ref Node;
};

w(c: chan of int, v: int)
{
	c <-= v;
}

# A list of adts that grows until the heap is full.
nodes(): int
{
	l: ref Node;
	n := 0;
	for(;;){
		l = ref Node(n, l);
		n++;
	}
	return n;
}

# A string that doubles until the heap is full.
grow(): int
{
	s := "x";
	for(;;)
		s += s;
	return len s;
}

# Threads that block until the heap is full.
spawner(c: chan of int): int
{
	for(;;){
		spawn w(c, spawned);
		spawned++;
	}
	return spawned;
}

# Appends to a string one character at a time (string growth in place).
append(): int
{
	s := "";
	for(i := 0; ; i++)
		s[len s] = 'a' + i % 26;
	return len s;
}

# An array that doubles, copying the old one each time.
arrays(): int
{
	a := array[1] of int;
	for(;;){
		b := array[2 * len a] of int;
		b[0:] = a;
		a = b;
	}
	return len a;
}

# A builtin allocating its result: sprint of a long string.
builtin(): int
{
	s := "0123456789abcdef";
	for(;;)
		s = sys->sprint("%s%s", s, s);
	return len s;
}

try(name: string, f: int)
{
	{
		case f {
		0 => nodes();
		1 => grow();
		2 => append();
		3 => arrays();
		4 => builtin();
		}
		sys->print("%s: no exception\n", name);
	} exception e {
	"out of memory: heap" =>
		sys->print("%s: caught %s\n", name, e);
	}
}

init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;
	for(round := 0; round < 2; round++){
		try("adts", 0);
		try("string growth", 1);
		try("string append", 2);
		try("array growth", 3);
		try("builtin", 4);
	}
	c := chan of int;
	{
		spawner(c);
	} exception e {
	"out of memory: heap" =>
		sys->print("spawn: caught %s\n", e);
	}
	# The threads made before the failure all run to their end.
	s := 0;
	for(i := 0; i < spawned; i++)
		s += <-c;
	if(spawned > 100 && s == spawned * (spawned - 1) / 2)
		sys->print("released every thread\n");
	sys->print("still running\n");
}
