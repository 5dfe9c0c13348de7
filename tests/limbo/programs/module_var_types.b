# A type named through a module variable declared later (`ref sys->FD`
# before `sys: Sys`), at top level or in a module's own declaration, is the
# module type's (Inferno's mash.m and riff.m write them so).
implement MV;
include "sys.m";
include "draw.m";
Helper: module {
	show: fn(fd: ref sys->FD): int;
	sys: Sys;
};
MV: module {
	init: fn(nil: ref Draw->Context, nil: list of string);
};
out(fd: ref sys->FD, s: string): int
{
	return sys->fprint(fd, "%s\n", s);
}
sys: Sys;
init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;
	n := out(sys->fildes(1), "through sys->FD");
	# expect: through sys->FD
	sys->print("%d\n", n);
	# expect: 16
	h: Helper;
	if(h == nil)
		sys->print("no helper\n");
	# expect: no helper
}
