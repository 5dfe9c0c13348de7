# An alt guard may hold its receive inside an expression (Inferno's
# hascomm; wmexport.b's `reqpool = <-reqdone :: reqpool =>`): the alt
# receives into a temporary and the guard, with that value, runs in its arm.
implement AltNestedRecv;
include "sys.m";
	sys: Sys;
include "draw.m";
AltNestedRecv: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};
init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;
	done := chan[2] of string;
	nums := chan[1] of int;
	pool: list of string;
	total := 0;
	done <-= "a";
	done <-= "b";
	nums <-= 5;
	for(i := 0; i < 3; i++) alt {
	pool = <-done :: pool =>
		sys->print("pool %d %s\n", len pool, hd pool);
	total += 10 * <-nums =>
		sys->print("total %d\n", total);
	}
	# expect: pool 1 a
	# expect: pool 2 b
	# expect: total 50
}
