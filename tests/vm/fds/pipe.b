implement FdPipe;

# A pipe written by one thread and read to end of file by another: the
# reader sees end of file once every holder of the write end has let go,
# while the writer thread is still alive; and a thread that forked its
# table and put the write end on its 1 closes it by ending.

include "sys.m";
	sys: Sys;
include "draw.m";

FdPipe: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};

writer(fd: ref Sys->FD, n: int, release: chan of int)
{
	for(i := 0; i < n; i++){
		b := array of byte sys->sprint("line %d\n", i);
		sys->write(fd, b, len b);
	}
	fd = nil;
	<-release;	# alive until the reader has seen end of file
}

reader(fd: ref Sys->FD, result: chan of string)
{
	buf := array[100] of byte;
	total := 0;
	lines := 0;
	while((n := sys->read(fd, buf, len buf)) > 0){
		total += n;
		for(i := 0; i < n; i++)
			if(buf[i] == byte '\n')
				lines++;
	}
	result <-= sys->sprint("read %d lines, %d bytes, last read %d", lines, total, n);
}

# Its own copy of the table, the write end as its standard output.
printer(w: ref Sys->FD, n: int)
{
	sys->pctl(Sys->FORKFD, nil);
	sys->dup(w.fd, 1);
	w = nil;
	for(i := 0; i < n; i++)
		sys->print("word %d\n", i);
}

init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;

	p := array[2] of ref Sys->FD;
	sys->pipe(p);
	release := chan of int;
	result := chan of string;
	spawn writer(p[1], 300, release);
	spawn reader(p[0], result);
	p = nil;
	sys->print("%s\n", <-result);
	release <-= 1;

	p = array[2] of ref Sys->FD;
	sys->pipe(p);
	spawn printer(p[1], 50);
	p[1] = nil;
	spawn reader(p[0], result);
	p = nil;
	sys->print("%s\n", <-result);
	sys->print("parent's stdout untouched\n");
}
