# Receiving from an array of channels (limbo.txt 8.2.9): `<-a` waits for any
# of a's channels and gives (index, value); nil elements are not listened
# to; in an alt arm the same (Inferno's sh/tk.b, lockfs.b, plumber.b).
implement ChanArrays;
include "sys.m";
	sys: Sys;
include "draw.m";
ChanArrays: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};
Msg: adt {
	s: string;
};
sender(c: chan of ref Msg, s: string)
{
	c <-= ref Msg(s);
}
init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;
	a := array[3] of chan of string;
	a[0] = chan[1] of string;
	a[2] = chan[1] of string;
	a[2] <-= "two";
	(i, s) := <-a;
	sys->print("%d %s\n", i, s);	# expect: 2 two
	a[0] <-= "zero";
	t := <-a;
	sys->print("%d %s\n", t.t0, t.t1);	# expect: 0 zero
	m := array[2] of chan of ref Msg;
	m[1] = chan of ref Msg;
	spawn sender(m[1], "blocked");
	k := array[1] of chan of int;
	k[0] = chan[1] of int;
	out := chan[1] of int;
	# First only out is ready; then the alt waits on m[1] and k[0] until
	# the sender runs.
	for(n := 0; n < 2; n++) alt {
	out <-= 7 =>
		sys->print("sent\n");	# expect: sent
	(j, msg) := <-m =>
		sys->print("msg %d %s\n", j, msg.s);	# expect: msg 1 blocked
	(j, v) := <-k =>
		sys->print("int %d %d\n", j, v);
	}
	k[0] <-= <-out;
	(j, v) := <-k;
	sys->print("%d %d\n", j, v);	# expect: 0 7
}
