# An exception declared in a block is known from its declaration to the
# end of that block only.
implement LocalExcErr;
include "sys.m";
include "draw.m";
LocalExcErr: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};
init(nil: ref Draw->Context, nil: list of string)
{
	{
		E: exception(int);
		raise E(1);
	}
	raise E(2);	# error: 15
	{
		raise E2;	# error: 17
		E2: exception;
	}
}
