# Cons declared in an adt, named through the adt, an imported adt name, or
# any value of the adt (Inferno's shell writes `ctxt.INTERACTIVE`).
implement AdtMemberCons;
include "sys.m";
	sys: Sys;
include "draw.m";
AdtMemberCons: module {
	init: fn(nil: ref Draw->Context, args: list of string);
	Context: adt {
		flags: int;
		INTERACTIVE, VERBOSE, EXECPRINT: con 1 << iota;
	};
};
init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;
	ctxt := ref Context(Context.VERBOSE | Context.EXECPRINT);
	v := Context(0);
	sys->print("%d %d %d\n", ctxt.INTERACTIVE, ctxt.VERBOSE, v.EXECPRINT);	# expect: 1 2 4
	sys->print("%d\n", ctxt.flags & ctxt.EXECPRINT);	# expect: 4
	case ctxt.flags & ctxt.VERBOSE {
	Context.VERBOSE =>
		sys->print("verbose\n");	# expect: verbose
	}
}
