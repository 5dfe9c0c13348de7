# `implement A, B;`: a function both modules declare must have the type of	# error: 1
# each declaration, and every function of each must be defined; data both
# declare must have one type.
implement TwoErr, Other;
include "sys.m";
include "draw.m";
TwoErr: module {
	init: fn(nil: ref Draw->Context, args: list of string);
	f: fn(x: int): int;
	count: int;
};
Other: module {		# error: 12
	count: string;
	f: fn(x: string): int;
	g: fn(): int;
};
f(x: int): int		# error: 17
{
	return x;
}
init(nil: ref Draw->Context, nil: list of string)
{
}
