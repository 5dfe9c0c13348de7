# raises clauses (limbo.txt 4.3): a function lists the exceptions its raise
# statements raise and it does not catch; a handler naming one (or `*`)
# around the raise catches it there; an adt function's
# definition lists what its declaration lists (json.b, ubfa.b, m4.b forms).
implement RaisesClauses;
include "sys.m";
	sys: Sys;
include "draw.m";
RaisesClauses: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};
Syntax, Badeval: exception;
Bad: exception(string);
Stack: adt {
	n: int;
	pop: fn(s: self ref Stack): int raises(Bad);
};
Stack.pop(s: self ref Stack): int raises(Bad)
{
	if(s.n == 0)
		raise Bad("empty");
	return s.n--;
}
# Listed in either order, nil among them.
eval(s: string): int raises (Badeval, nil, Syntax)
{
	if(s == "")
		raise Syntax;
	if(s == "0")
		raise Badeval;
	return len s;
}
# What a call passes on need not be listed: Inferno accepts m4.b's primary,
# which lists Syntax and calls expr, raising Badeval too.
quiet(s: string): int raises Syntax
{
	if(s == "-")
		raise Syntax;
	return eval(s);
}
# Caught here, by name and by `*`: nothing to list.
safe(s: string): string
{
	{
		return string eval(s);
	}exception{
	Syntax =>
		return "syntax";
	Badeval =>
		return "badeval";
	}
}
any(s: ref Stack): string
{
	{
		return string s.pop();
	}exception{
	* =>
		return "caught";
	}
}
init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;
	sys->print("%s %s %s %d\n", safe("abc"), safe(""), safe("0"), quiet("ab"));
	# expect: 3 syntax badeval 2
	s := ref Stack(1);
	sys->print("%s %s\n", any(s), any(s));
	# expect: 1 caught
	# A string raise needs no clause.
	{
		raise "plain string";
	}exception e{
	"plain*" =>
		sys->print("%s\n", e);
		# expect: plain string
	}
}
