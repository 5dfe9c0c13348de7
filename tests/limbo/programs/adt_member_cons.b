# Cons declared in an adt, named through the adt, an imported adt name, or
# any value of the adt (Inferno's shell writes `ctxt.INTERACTIVE`); and a
# pick variant's list, built with `ref Msg.Flush(t) :: l`.
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
Msg: adt {
	pick {
	Flush => tag: int;
	Data => s: string;
	}
};
init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;
	ctxt := ref Context(Context.VERBOSE | Context.EXECPRINT);
	v := Context(0);
	sys->print("%d %d %d\n", ctxt.INTERACTIVE, ctxt.VERBOSE, v.EXECPRINT);	# expect: 1 2 4
	sys->print("%d\n", ctxt.flags & ctxt.EXECPRINT);	# expect: 4
	# a variant built onto a list of that variant
	flushes: list of ref Msg.Flush;
	flushes = ref Msg.Flush(3) :: flushes;
	flushes = ref Msg.Flush(4) :: flushes;
	sys->print("%d %d\n", (hd flushes).tag, (hd tl flushes).tag);	# expect: 4 3
	case ctxt.flags & ctxt.VERBOSE {
	Context.VERBOSE =>
		sys->print("verbose\n");	# expect: verbose
	}
}
