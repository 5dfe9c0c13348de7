implement FdNew;

# pctl(NEWFD, list) gives the calling thread a table of only the listed
# descriptors; its parent's table is unchanged. The directory is the only
# argument.

include "sys.m";
	sys: Sys;
include "draw.m";

FdNew: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};

child(a, b: ref Sys->FD, done: chan of int)
{
	sys->pctl(Sys->NEWFD, a.fd :: 1 :: nil);
	sys->print("child: write to kept a: %d\n", sys->write(a, array of byte "A", 1));
	sys->print("child: write to dropped b: %d %r\n", sys->write(b, array of byte "B", 1));
	sys->print("child: fildes(0) nil: %d, fildes(2) nil: %d\n",
		sys->fildes(0) == nil, sys->fildes(2) == nil);
	c := sys->open("/dev/null", Sys->OREAD);
	sys->print("child: a new open takes the lowest free number: %d\n", c.fd);
	done <-= 1;
}

init(nil: ref Draw->Context, args: list of string)
{
	sys = load Sys Sys->PATH;
	dir := hd tl args;
	a := sys->create(dir + "/a", Sys->OWRITE, 8r644);
	b := sys->create(dir + "/b", Sys->OWRITE, 8r644);
	sys->print("numbers: a %d, b %d\n", a.fd, b.fd);
	done := chan of int;
	spawn child(a, b, done);
	<-done;
	sys->print("parent: write to b: %d\n", sys->write(b, array of byte "b", 1));
	sys->print("parent: fildes(0) nil: %d\n", sys->fildes(0) == nil);
	sys->pctl(Sys->NEWFD, a.fd :: nil);
	r := sys->print("not printed: the parent's 1 is gone\n");
	sys->fprint(a, "; parent after NEWFD: print %d, write to b %d\n",
		r, sys->write(b, array of byte "x", 1));
}
