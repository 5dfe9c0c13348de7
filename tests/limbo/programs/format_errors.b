# Formats of Sys->print, sprint, fprint and aprint are checked against their
# arguments when constant (as Inferno's compiler does); the correct calls on
# the lines without an error comment must compile.
implement F;
include "sys.m";
	sys: Sys;
include "draw.m";
F: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};
init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;
	fmt := "%d";
	sys->print(fmt, "not checked: not a constant");
	sys->print("%d %bd %g %s %q %c %x %% %r\n", 1, big 2, 3.0, "s", "q", 'c', 16);
	s := sys->sprint("%-*.*s|%5.2f|%ux", 4, 2, "abc", 1.5, sys);
	a := sys->aprint("%bx", big 255);
	sys->fprint(sys->fildes(2), "%s %d\n", s, len a);
	sys->print("%d %d\n", 1);		# error: 20
	sys->print("%z\n", 1);			# error: 21
	sys->print("%d\n", 2.5);		# error: 22
	sys->print("%s\n", "a", 2);		# error: 23
	sys->fprint(sys->fildes(1), "%bd\n", 3);	# error: 24
	s = sys->sprint("%*d", "w", 1);		# error: 25
	a = sys->aprint("%g", "x");		# error: 26
	s = sys->sprint("%x %X", sys, a);	# an address: accepted
	s = sys->sprint("%d", sys);		# error: 28
	s = sys->sprint("%H %H %H", sys, a, s);	# any pointer: accepted
	s = sys->sprint("%H", 1);		# error: 30
}
