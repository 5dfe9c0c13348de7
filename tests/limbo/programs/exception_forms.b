# Exceptions: several declared at once (`A, B: exception(string);`, m4.b,
# infauth.b), each its own; `break` in a handler leaves the exception
# statement (infauth.b); handler tables list exceptions by name.
implement ExceptionForms;
include "sys.m";
	sys: Sys;
include "draw.m";
ExceptionForms: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};
Syntax, Badeval: exception;
Error0, Error1: exception(string);
try(n: int): string
{
	r := "none";
	for(i := 0; i < 2; i++){
		{
			case n {
			0 => raise Syntax;
			1 => raise Badeval;
			2 => raise Error0("zero");
			3 => raise Error1("one");
			}
		}exception e{
		Badeval =>
			r = "badeval";
		Syntax =>
			r = "syntax";
			if(n == 0)
				break;
			r = "not left";
		Error0 =>
			r = "error0 " + e;
		Error1 =>
			return "error1 " + e;
		}
		r += " looped";
	}
	return r;
}
init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;
	for(n := 0; n < 5; n++)
		sys->print("%s\n", try(n));
	# expect: syntax looped
	# expect: badeval looped
	# expect: error0 zero looped
	# expect: error1 one
	# expect: none looped looped
}
