# `<-` takes a channel or an array of channels; an array of channels of
# real or big is refused (the VM stores the value one word after the index,
# as Inferno's does, where the tuple (int, real) keeps it at 8).
implement ChanArrayErrors;
include "sys.m";
include "draw.m";
ChanArrayErrors: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};
init(nil: ref Draw->Context, nil: list of string)
{
	r := array[2] of chan of real;
	(i, x) := <-r;		# error: 13
	n := array[2] of int;
	(j, y) := <-n;		# error: 15
	alt {
	(k, b) := <-array[1] of chan of big =>	# error: 17
		;
	}
}
