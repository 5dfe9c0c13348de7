implement Keepfiles;

# Opens a file n times and keeps every Sys->FD referenced until the program
# ends: half from a module-data list, half from self-referencing adts (only
# a collection or the VM's exit can free those). Usage: keepfiles dir n

include "sys.m";
	sys: Sys;
include "draw.m";

Keepfiles: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};

Holder: adt {
	fd: ref Sys->FD;
	me: cyclic ref Holder;
};

kept: list of ref Sys->FD;
held: list of ref Holder;

init(nil: ref Draw->Context, args: list of string)
{
	sys = load Sys Sys->PATH;
	args = tl args;
	path := hd args + "/kept.txt";
	n := int hd tl args;
	fd := sys->create(path, Sys->OWRITE, 8r644);
	if(fd == nil)
		raise "fail:create";
	opened := 1;
	for(i := 1; i < n; i++){
		f := sys->open(path, Sys->OREAD);
		if(f == nil)
			raise "fail:open";
		opened++;
		if(i % 2 == 0)
			kept = f :: kept;
		else {
			h := ref Holder(f, nil);
			h.me = h;
			held = h :: held;
		}
	}
	kept = fd :: kept;
	sys->print("open %d\n", opened);
}
