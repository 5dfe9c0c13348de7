# Declared exceptions: raise E(values) is caught by the arm naming E in the
# function that raises it or its caller, never by a string pattern; a
# wildcard takes it; further up it is the string "Module.0.E" (limbo.txt,
# exceptions; Inferno's emulator). In an arm naming one exception, the
# handler's name holds that exception's values.
implement Excdecl;
include "sys.m";
	sys: Sys;
include "draw.m";
Excdecl: module { init: fn(nil: ref Draw->Context, nil: list of string); };

Bad: exception(int, string);
Worse: exception;

choose(n: int): string
{
	{
		case n {
		0 => raise Bad(1, "one");
		1 => raise Worse;
		2 => raise "plain";
		}
		return "none";
	} exception {
	Bad => return "Bad";
	Worse => return "Worse";
	"*" => return "string";
	}
}

wild()
{
	{
		raise Bad(2, "two");
	} exception {
	"Bad*" or "Excdecl*" => sys->print("pattern\n");
	* => sys->print("wildcard\n");
	}
}

Note: exception(string);

# In an arm naming one exception, the handler's name holds its values.
values(n: int): string
{
	{
		if(n)
			raise Note("noted");
		raise Bad(n, "bad");
	} exception e {
	Bad =>
		(i, s) := e;
		return sys->sprint("Bad(%d, %s)", i, s);
	Note =>
		return "Note " + e;
	}
}

thrower() { raise Worse; }
middle() { raise Bad(3, "three"); }
outer() { middle(); }

init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;
	for(i := 0; i < 4; i++)
		sys->print("%d %s\n", i, choose(i));
	wild();
	sys->print("%s %s\n", values(0), values(1));
	{
		thrower();
	} exception {
	Worse => sys->print("caller caught Worse\n");
	}
	{
		outer();
	} exception e {
	Bad => sys->print("not reached: a string now\n");
	"Excdecl.*" => sys->print("string %s\n", e);
	}
}
