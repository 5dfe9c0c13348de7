# `<-` takes a channel or an array of channels, nothing else.
implement ChanArrayErrors;
include "sys.m";
include "draw.m";
ChanArrayErrors: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};
init(nil: ref Draw->Context, nil: list of string)
{
	r := array[2] of chan of real;
	(i, x) := <-r;
	n := array[2] of int;
	(j, y) := <-n;		# error: 13
	alt {
	(k, b) := <-array[1] of list of big =>	# error: 15
		;
	}
}
