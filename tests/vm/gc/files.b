implement Files;

# Sys->FD objects own their host file: dropped ones close (at once under
# reference counting, when collected otherwise), so opening far more files
# than the descriptor limit allows works as long as each is dropped.

include "sys.m";
	sys: Sys;
include "draw.m";

Files: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};

Holder: adt {
	fd: ref Sys->FD;
	me: cyclic ref Holder;
};

kept: ref Sys->FD;	# live until the program ends

init(nil: ref Draw->Context, args: list of string)
{
	sys = load Sys Sys->PATH;
	args = tl args;
	path := hd args + "/files.txt";
	n := int hd tl args;
	fd := sys->create(path, Sys->OWRITE, 8r644);
	if(fd == nil){
		sys->print("create: %r\n");
		raise "fail:create";
	}
	b := array of byte "hello, files\n";
	sys->write(fd, b, len b);
	fd = nil;
	kept = sys->open(path, Sys->OREAD);
	failed := 0;
	for(i := 0; i < n; i++){
		f := sys->open(path, Sys->OREAD);
		if(f == nil){
			failed++;
			continue;
		}
		if(i % 3 == 0){
			h := ref Holder(f, nil);	# a cycle: only the collector frees it
			h.me = h;
		}
	}
	out := sys->fildes(1);
	for(i = 0; i < n; i++)
		out = sys->fildes(1);
	sys->fprint(out, "opened %d failed %d\n", n - failed, failed);
	buf := array[100] of byte;
	k := sys->read(kept, buf, len buf);
	sys->print("%s", string buf[0:k]);
}
