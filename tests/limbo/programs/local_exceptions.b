# Exceptions declared inside functions (limbo.txt 6.7 and 9: a declaration
# among a block's statements), named for the rest of their block: values of
# any types, raised and caught as module-level ones are; a local one hides
# the module's of the same name; each is distinct from the same name
# declared elsewhere, also once it leaves its function as a string.
implement LocalExceptions;
include "sys.m";
	sys: Sys;
include "draw.m";
LocalExceptions: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};
Pt: adt {
	x, y: int;
};
Oops: exception(string);
f(n: int): string
{
	Oops: exception(big, real, list of string, ref Pt);
	Plain, Other: exception;
	{
		case n {
		0 => raise Oops(big 1 << 40, 2.5, "a" :: "b" :: nil, ref Pt(3, 4));
		1 => raise Plain;
		2 => raise Other;
		3 => modoops();
		}
	} exception e {
	Oops =>
		(b, r, l, p) := e;
		return sys->sprint("oops %bd %g %s %d", b, r, hd tl l, p.x + p.y);
	Plain =>
		return "plain";
	Other =>
		return "other";
	* =>
		return "not local";
	}
	return "none";
}
modoops()
{
	raise Oops("module");
}
g(n: int)
{
	if(n > 0){
		Bad: exception(int);
		{
			raise Bad(n);
		} exception e {
		Bad =>
			if(e > 1)
				raise;
		}
	}
	Bad: exception;
	raise Bad;
}
h()
{
	Bad: exception;
	raise Bad;
}
init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;
	for(n := 0; n < 5; n++)
		sys->print("%s\n", f(n));
	# expect: oops 1099511627776 2.5 b 7
	# expect: plain
	# expect: other
	# expect: not local
	# expect: none
	for(n = 0; n < 3; n++){
		{
			g(n);
		} exception e {
		"*" =>
			sys->print("%d %s\n", n, e);
		}
	}
	# expect: 0 LocalExceptions.4.Bad
	# expect: 1 LocalExceptions.4.Bad
	# expect: 2 LocalExceptions.3.Bad
	{
		h();
	} exception e {
	"*" =>
		sys->print("%s\n", e);	# expect: LocalExceptions.5.Bad
	}
	{
		raise Oops("at last");
	} exception e {
	Oops =>
		sys->print("%s\n", e);	# expect: at last
	}
}
