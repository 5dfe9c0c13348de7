# Channels and alt: unbuffered hand-off between threads, buffered channels
# in order, alt choosing the ready arm, the default arm, a tuple channel.
implement Channels;
include "sys.m";
	sys: Sys;
include "draw.m";
Channels: module { init: fn(nil: ref Draw->Context, nil: list of string); };

producer(c: chan of int, n: int, done: chan of string)
{
	for(i := 1; i <= n; i++)
		c <-= i * i;
	done <-= "producer done";
}

init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;
	c := chan of int;
	done := chan of string;
	spawn producer(c, 4, done);
	sum := 0;
	for(i := 0; i < 4; i++)
		sum += <-c;
	sys->print("sum %d %s\n", sum, <-done);

	b := chan[3] of string;
	b <-= "x";
	b <-= "y";
	b <-= "z";
	sys->print("buffered %s%s%s\n", <-b, <-b, <-b);

	e := chan of int;
	r := chan[1] of int;
	r <-= 5;
	alt {
	v := <-e =>
		sys->print("wrong %d\n", v);
	v := <-r =>
		sys->print("alt recv %d\n", v);
	}
	alt {
	v := <-e =>
		sys->print("wrong %d\n", v);
	* =>
		sys->print("alt default\n");
	}
	s := chan[1] of int;
	alt {
	s <-= 7 =>
		sys->print("alt sent %d\n", <-s);
	v := <-e =>
		sys->print("wrong %d\n", v);
	}
	tc := chan[1] of (int, string);
	tc <-= (3, "three");
	(n, name) := <-tc;
	sys->print("tuple %d %s\n", n, name);
}
