# raises clauses (limbo.txt 4.3): "The type of a function includes
# user-defined exceptions that it raises, which must be listed in a
# corresponding raises clause." Inferno accepts an unlisted raise, so only
# the clause itself is checked here.
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
Box.get(b: self ref Box)	# error: 16: function Box.get defined raising () but declared raising (Oops)
{
}
exported() raises (Oops, Other)	# error: 19: function exported defined raising (Oops, Other) but declared raising (Oops)
{
}
raiser() raises Oops
{
	raise Oops;
}
unlisted()
{
	raise Oops;	# accepted: Inferno's compiler takes an unlisted raise
}
# A handler's arms are outside what it catches.
rearmed() raises Other
{
	{
		raiser();
	}exception{
	Oops =>
		raise Oops;	# accepted: Inferno's compiler takes an unlisted raise
	}
}
notexc() raises (Oops, sys)	# error: 40: raises sys: not an exception
{
	{
		raiser();
		raise Other;	# accepted: Inferno's compiler takes an unlisted raise
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
