# Variants with different fields are different types, and an array of
# ref A.X is not an array of ref A (Inferno's tcompat inside arrays).
implement PickCompatErr;
include "sys.m";
include "draw.m";
PickCompatErr: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};
Key: adt {
	alg: string;
	pick {
	PK =>
	Named =>
		name: string;
	}
};
init(nil: ref Draw->Context, nil: list of string)
{
	k := ref Key.PK("rsa");
	k = ref Key.Named("x", "y");		# error: 20
	a := array[1] of ref Key.PK;
	b: array of ref Key;
	b = a;				# error: 23
}
