implement SysIo;

# pipe, pread, pwrite, stream, iounit and fd2path, inside the directory given
# as the only argument.

include "sys.m";
	sys: Sys;
include "draw.m";

SysIo: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};

writer(fd: ref Sys->FD, n: int, done: chan of int)
{
	for(i := 0; i < n; i++){
		b := array of byte sys->sprint("line %d\n", i);
		sys->write(fd, b, len b);
	}
	done <-= n;
}

init(nil: ref Draw->Context, args: list of string)
{
	sys = load Sys Sys->PATH;
	dir := hd tl args;

	short := array[1] of ref Sys->FD;
	sys->print("pipe into 1 slot: %d\n", sys->pipe(short));

	p := array[2] of ref Sys->FD;
	sys->print("pipe: %d, ends %d\n", sys->pipe(p), p[0] != nil && p[1] != nil);
	sys->print("iounit of a pipe: %d\n", sys->iounit(p[1]));
	done := chan of int;
	spawn writer(p[1], 200, done);
	# Read while the writer thread fills the pipe: both must make progress.
	total := 0;
	lines := 0;
	buf := array[64] of byte;
	while(lines < 200){
		n := sys->read(p[0], buf, len buf);
		if(n <= 0)
			break;
		total += n;
		for(i := 0; i < n; i++)
			if(buf[i] == byte '\n')
				lines++;
	}
	sys->print("writer wrote %d lines; read %d lines, %d bytes\n", <-done, lines, total);

	path := dir + "/data";
	fd := sys->create(path, Sys->ORDWR, 8r644);
	b := array of byte "0123456789";
	sys->print("pwrite at 4: %d\n", sys->pwrite(fd, b, len b, big 4));
	sys->print("pwrite at 0: %d\n", sys->pwrite(fd, array of byte "abcd", 4, big 0));
	r := array[20] of byte;
	n := sys->pread(fd, r, len r, big 2);
	sys->print("pread from 2: %d %s\n", n, string r[0:n]);
	n = sys->pread(fd, r, 3, big 12);
	sys->print("pread 3 at 12: %d %s\n", n, string r[0:n]);
	sys->print("pread past the end: %d\n", sys->pread(fd, r, 5, big 100));
	# pread and pwrite leave the file offset alone.
	n = sys->read(fd, r, 4);
	sys->print("read after them: %d %s\n", n, string r[0:n]);
	sys->print("iounit of a file: %d\n", sys->iounit(fd));
	sys->print("fd2path: %s\n", sys->fd2path(fd));

	src := sys->open(path, Sys->OREAD);
	sys->print("stream to stdout: ");
	n = sys->stream(src, sys->fildes(1), 3);
	sys->print("\nstreamed %d\n", n);
	src = sys->open(path, Sys->OREAD);
	dst := sys->create(dir + "/copy", Sys->OWRITE, 8r644);
	sys->print("stream to a file: %d\n", sys->stream(src, dst, 4096));
	sys->print("stream from a write-only file: %d %r\n", sys->stream(dst, sys->fildes(1), 8));
	bad := sys->open(dir + "/copy", Sys->OREAD);
	sys->print("pwrite to a read-only file: %d %r\n", sys->pwrite(bad, b, 1, big 0));
}
