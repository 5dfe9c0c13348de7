implement Devices;

# The VM's own /dev files: each opened, read (twice, to see the end of the
# file), written where that means something.

include "sys.m";
	sys: Sys;
include "draw.m";

Devices: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};

readall(name: string): string
{
	fd := sys->open(name, Sys->OREAD);
	if(fd == nil)
		return sys->sprint("open: %r");
	buf := array[64] of byte;
	n := sys->read(fd, buf, len buf);
	m := sys->read(fd, buf[n:], len buf - n);
	return sys->sprint("%d+%d [%s]", n, m, string buf[0:n+m]);
}

init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;
	sys->print("time: %s\n", readall("/dev/time"));
	sys->print("pid: %s\n", readall("/dev/pid"));
	sys->print("user: %s\n", readall("/dev/user"));
	sys->print("sysname: %s\n", readall("/dev/sysname"));
	sys->print("sysctl: %s\n", readall("/dev/sysctl"));
	sys->print("null: %s\n", readall("/dev/null"));

	fd := sys->open("/dev/time", Sys->OREAD);
	sys->print("fd2path: %s\n", sys->fd2path(fd));
	buf := array[64] of byte;
	n := sys->pread(fd, buf, len buf, big 10);
	sys->print("pread at 10: %s\n", string buf[0:n]);
	sys->print("seek: %bd\n", sys->seek(fd, big 12, Sys->SEEKSTART));
	n = sys->read(fd, buf, len buf);
	sys->print("after seek: %s\n", string buf[0:n]);
	sys->print("write time: %d %r\n", sys->write(fd, buf, 1));

	fd = sys->open("/dev/null", Sys->OWRITE);
	sys->print("write null: %d\n", sys->write(fd, buf, 7));

	fd = sys->open("/dev/random", Sys->OREAD);
	r1 := array[32] of byte;
	r2 := array[32] of byte;
	n1 := sys->read(fd, r1, len r1);
	n2 := sys->read(fd, r2, len r2);
	same := 0;
	for(i := 0; i < 32; i++)
		if(r1[i] == r2[i])
			same++;
	sys->print("random: %d %d differ %d\n", n1, n2, same < 32);

	fd = sys->open("/dev/consctl", Sys->OWRITE);
	b := array of byte "rawon";
	sys->print("consctl: %d\n", sys->write(fd, b, len b));

	cons := sys->open("/dev/cons", Sys->ORDWR);
	b = array of byte "to cons\n";
	sys->print("cons write: %d\n", sys->write(cons, b, len b));
	n = sys->read(cons, buf, len buf);
	sys->print("cons read: %d [%s]\n", n, string buf[0:n]);

	fd = sys->open("/dev/busec", Sys->OREAD);
	n = sys->read(fd, buf, len buf);
	m := sys->read(fd, buf, len buf);
	sys->print("busec: %d %d\n", n > 0, m > 0);
}
