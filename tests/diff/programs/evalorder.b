# The order in which operands with side effects run, as Inferno's compiler
# chooses it: the operand needing more temporaries first, left first on a
# tie (right first for a comparison); an indexed element's array and index
# before the value stored in it.
implement Evalorder;
include "sys.m";
	sys: Sys;
include "draw.m";
Evalorder: module { init: fn(nil: ref Draw->Context, nil: list of string); };

log: string;

f(s: string, v: int): int
{
	log += s;
	return v;
}

init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;
	n := f("p", 2) * f("q", 3) + f("r", 4);
	sys->print("%d %s\n", n, log);
	log = "";
	n = f("p", 10) - f("q", 3) * f("r", 2);
	sys->print("%d %s\n", n, log);
	log = "";
	n = (f("p", 1) + f("q", 2)) * (f("r", 3) + f("s", 4));
	sys->print("%d %s\n", n, log);
	log = "";
	n = f("p", 5) - f("q", 1);
	sys->print("%d %s\n", n, log);
	log = "";
	if(f("p", 1) < f("q", 2))
		log += "<";
	if(f("p", 1) * f("q", 2) == f("r", 2))
		log += "=";
	if(f("p", 1) != f("q", 2) * f("r", 2))
		log += "!";
	sys->print("%s\n", log);
	log = "";
	a := array[3] of {* => 0};
	a[f("i", 2)] = f("v", 7) + f("w", 1);
	sys->print("%d %s\n", a[2], log);
}
