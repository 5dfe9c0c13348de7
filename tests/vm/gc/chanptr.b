implement Chanptr;

# Channels carrying pointers between threads: lists, adts and strings pass
# through buffered and unbuffered channels.

include "sys.m";
	sys: Sys;
include "draw.m";

Chanptr: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};

Msg: adt {
	n: int;
	body: list of string;
	me: cyclic ref Msg;
};

producer(c: chan of ref Msg, n: int)
{
	for(i := 0; i < n; i++){
		m := ref Msg(i, "a" :: "b" + string i :: nil, nil);
		if(i % 2 == 0)
			m.me = m;	# a one-element cycle
		c <-= m;
	}
	c <-= nil;
}

relay(in: chan of ref Msg, out: chan of string)
{
	for(;;){
		m := <-in;
		if(m == nil){
			out <-= nil;
			return;
		}
		out <-= hd tl m.body;
	}
}

init(nil: ref Draw->Context, args: list of string)
{
	sys = load Sys Sys->PATH;
	n := 3000;
	if(tl args != nil)
		n = int hd tl args;
	c := chan of ref Msg;
	out := chan[10] of string;
	spawn producer(c, n);
	spawn relay(c, out);
	count := 0;
	chars := 0;
	for(;;){
		s := <-out;
		if(s == nil)
			break;
		count++;
		chars += len s;
	}
	sys->print("count %d chars %d\n", count, chars);
}
