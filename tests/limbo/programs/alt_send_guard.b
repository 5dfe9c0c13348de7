# A send inside an alt guard's expression (limbo.txt 9.8: a qualifier is an
# expression containing a communication operator): the alt sends, and the
# guard, evaluated in its arm, takes the sent value for the send. With two
# operations in a guard the alt tests the leftmost; the arm performs the
# other when it evaluates the guard.
implement AltSendGuard;
include "sys.m";
	sys: Sys;
include "draw.m";
AltSendGuard: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};
twice(n: int): int
{
	return 2 * n;
}
init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;
	c := chan[1] of int;
	s := chan[1] of string;
	x := 0;
	v := 5;
	alt {
	x = (c <-= v + 1) =>
		sys->print("sent %d got %d\n", x, <-c);	# expect: sent 6 got 6
	}
	alt {
	y := (s <-= "str") + "ing" =>
		sys->print("%s %s\n", y, <-s);	# expect: string str
	}
	# The sent value stays put while the rest of the guard is computed.
	alt {
	x = (c <-= v) + twice(v + 2) =>
		sys->print("%d %d\n", x, <-c);	# expect: 19 5
	}
	# The leftmost operation is the alt's: here the receive on c, the
	# other one runs in the arm.
	d := chan[1] of int;
	d <-= 30;
	c <-= 12;
	alt {
	x = <-c + <-d =>
		sys->print("%d\n", x);	# expect: 42
	}
	# Here the send on d, after which the arm receives what it sent.
	alt {
	x = (d <-= 3) * <-d =>
		sys->print("%d\n", x);	# expect: 9
	}
}
