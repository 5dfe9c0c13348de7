# Floating-point traps and modes (math.m): by default invalid, zero divide,
# overflow and underflow trap with "sys: fp: exception"; FPcontrol turns
# them off (IEEE results, recorded in FPstatus), sets the rounding; ordered
# comparisons with NaN are invalid, equality is quiet; a real converted to
# an int out of range is invalid; $Math's functions trap as fdlibm's
# arithmetic does; a spawned thread starts with its parent's modes.
implement FpTraps;
include "sys.m";
	sys: Sys;
include "draw.m";
include "math.m";
	math: Math;
FpTraps: module { init: fn(nil: ref Draw->Context, nil: list of string); };

v := array[] of {0.0, 1.0, 3.0, 1e308, 1e-308, 1e10, 2.5};

try(what: string, op: int)
{
	r := 0.0;
	{
		case op {
		0 => r = v[1] / v[0];
		1 => r = v[0] / v[0];
		2 => r = v[3] * v[5];
		3 => r = v[4] / v[5];
		4 =>
			n := Math->NaN;
			if(v[1] < n)
				r = 1.0;
			r = 7.0;
		5 => r = real (Math->NaN == Math->NaN);
		6 => r = real int (v[3]);
		7 => r = v[6] ** 2000;
		8 => r = v[4] * v[4];
		9 => r = math->log(v[0]);
		10 => r = math->sqrt(-v[1]);
		11 => r = math->exp(v[3]);
		}
		sys->print("%s %g\n", what, r);
	} exception e {
	"sys: fp:*" =>
		sys->print("%s trapped: %s\n", what, e);
	}
}

all()
{
	try("1/0", 0);
	try("0/0", 1);
	try("overflow", 2);
	try("subnormal", 3);
	try("nan<", 4);
	try("nan==", 5);
	try("int 1e308", 6);
	try("2.5**2000", 7);
	try("underflow", 8);
	try("log 0", 9);
	try("sqrt -1", 10);
	try("exp 1e308", 11);
}

child(c: chan of int)
{
	c <-= math->getFPcontrol();
}

# Rounds upward, then blocks with its result: the slices of other threads
# in between must round to nearest again (the host's mode is per slice).
rounder(go: chan of int, r: chan of real)
{
	math->FPcontrol(Math->RND_PINF, Math->RND_MASK);
	<-go;
	r <-= v[1] / v[2];
}

init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;
	math = load Math Math->PATH;
	sys->print("control %ux status %ux\n", math->getFPcontrol(), math->getFPstatus());
	all();
	sys->print("status %ux\n", math->getFPstatus());
	old := math->FPcontrol(0, Math->INVAL|Math->ZDIV|Math->OVFL|Math->UNFL);
	sys->print("old %ux now %ux\n", old, math->getFPcontrol());
	math->FPstatus(0, Math->INVAL|Math->ZDIV|Math->OVFL|Math->UNFL|Math->INEX);
	all();
	sys->print("status %ux\n", math->getFPstatus());
	c := chan of int;
	spawn child(c);
	sys->print("child control %ux\n", <-c);
	third := v[1] / v[2];
	math->FPcontrol(Math->RND_PINF, Math->RND_MASK);
	up := v[1] / v[2];
	math->FPcontrol(Math->RND_NR, Math->RND_MASK);
	sys->print("rounding %bx %bx\n", math->realbits64(third), math->realbits64(up));
	go := chan of int;
	r := chan of real;
	spawn rounder(go, r);
	go <-= 1;
	mine := v[1] / v[2];
	sys->print("threads %bx %bx\n", math->realbits64(mine), math->realbits64(<-r));
	# The host's flags are sticky: an overflow left there by an untrapped
	# multiply must not make a later call that raises nothing trap.
	math->FPcontrol(0, Math->OVFL);
	huge := v[3] * v[5];
	math->FPstatus(0, Math->INVAL|Math->ZDIV|Math->OVFL|Math->UNFL|Math->INEX);
	math->FPcontrol(Math->OVFL, Math->OVFL);
	sys->print("sticky %g %g %ux\n", huge, math->sqrt(v[2] + 1.0), math->getFPstatus());
}
