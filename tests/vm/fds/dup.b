implement FdDup;

# Descriptor tables per thread: dup onto 1 in a thread that forked its
# table (pctl FORKFD) moves only that thread's output; in a thread sharing
# the table it moves its parent's too. The directory is the only argument.

include "sys.m";
	sys: Sys;
include "draw.m";

FdDup: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};

contents(path: string): string
{
	fd := sys->open(path, Sys->OREAD);
	if(fd == nil)
		return sys->sprint("cannot open: %r");
	buf := array[256] of byte;
	n := sys->read(fd, buf, len buf);
	if(n < 0)
		return sys->sprint("read: %r");
	return string buf[0:n];
}

# Forks the table, then points its own 1 at the file.
forked(path: string, done: chan of string)
{
	sys->pctl(Sys->FORKFD, nil);
	fd := sys->create(path, Sys->OWRITE, 8r644);
	r := sys->dup(fd.fd, 1);
	fd = nil;
	sys->print("forked child's line\n");
	done <-= sys->sprint("forked child: dup gave %d", r);
}

# Shares its parent's table: its dup moves the parent's 1 as well.
shared(path: string, done: chan of string)
{
	fd := sys->create(path, Sys->OWRITE, 8r644);
	sys->dup(fd.fd, 1);
	sys->print("shared child's line\n");
	done <-= nil;
}

init(nil: ref Draw->Context, args: list of string)
{
	sys = load Sys Sys->PATH;
	dir := hd tl args;
	done := chan of string;

	spawn forked(dir + "/forked", done);
	msg := <-done;
	sys->print("%s\n", msg);
	sys->print("parent still prints here\n");
	sys->print("forked file: %s", contents(dir + "/forked"));

	saved := sys->dup(1, -1);
	sys->print("saved stdout as %d\n", saved);
	spawn shared(dir + "/shared", done);
	<-done;
	sys->print("parent's line after the shared child's dup\n");
	sys->dup(saved, 1);
	sys->print("restored\n");
	sys->print("shared file: %s", contents(dir + "/shared"));

	sys->print("dup of a closed descriptor: %d %r\n", sys->dup(100, 1));
	fd := sys->fildes(1);
	sys->print("fildes(1) is a new descriptor: %d\n", fd.fd > 2);
	sys->fprint(fd, "written through it\n");
}
