# raises clauses (limbo.txt 4.3): "The type of a function includes
# user-defined exceptions that it raises, which must be listed in a
# corresponding raises clause."
implement RaisesErrors;
include "sys.m";
include "draw.m";
RaisesErrors: module {
	init: fn(nil: ref Draw->Context, args: list of string);
	exported: fn() raises Oops;
};
Oops, Other: exception;
Box: adt {
	get: fn(b: self ref Box) raises Oops;
};
Box.get(b: self ref Box)	# error: 15: function Box.get defined raising () but declared raising (Oops)
{
}
exported() raises (Oops, Other)	# error: 18: function exported defined raising (Oops, Other) but declared raising (Oops)
{
}
raiser() raises Oops
{
	raise Oops;
}
unlisted()
{
	raise Oops;	# error: 27: function unlisted raises Oops, not listed in its raises clause
}
# A handler's arms are outside what it catches.
rearmed() raises Other
{
	{
		raiser();
	}exception{
	Oops =>
		raise Oops;	# error: 36: function rearmed raises Oops, not listed in its raises clause
	}
}
notexc() raises (Oops, sys)	# error: 39: raises sys: not an exception
{
	{
		raiser();
		raise Other;	# error: 43: function notexc raises Other, not listed in its raises clause
	}exception{
	Oops =>
		raise Oops;
	"x*" =>
		;
	}
}
init(nil: ref Draw->Context, nil: list of string)
{
}
