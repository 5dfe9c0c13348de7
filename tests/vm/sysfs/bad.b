implement Bad;

# Failures come back as -1 with the host's reason in %r, never an exception.

include "sys.m";
	sys: Sys;
include "draw.m";

Bad: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};

init(nil: ref Draw->Context, args: list of string)
{
	sys = load Sys Sys->PATH;
	root := hd tl args;
	(ok, d) := sys->stat(root + "/missing");
	sys->print("stat missing: %d %r, name %d\n", ok, d.name == nil);
	sys->create(root + "/full", Sys->OREAD, Sys->DMDIR | 8r755);
	sys->create(root + "/full/x", Sys->OWRITE, 8r644);
	sys->print("remove full: %d %r\n", sys->remove(root + "/full"));
	sys->print("remove missing: %d %r\n", sys->remove(root + "/missing"));
	sys->print("chdir to a file: %d %r\n", sys->chdir(root + "/full/x"));
	nd: Sys->Dir;
	nd.mode = nd.mtime = ~0;
	nd.length = ~big 0;
	nd.name = "a/b";
	sys->print("wstat slash name: %d %r\n", sys->wstat(root + "/full/x", nd));
	fd := sys->open(root + "/full/x", Sys->OREAD);
	(n, dirs) := sys->dirread(fd);
	sys->print("dirread of a file: %d %r, nil %d\n", n, dirs == nil);
	(ok, d) = sys->stat(root + "/full/x");
	sys->print("still there: %d %s\n", ok, d.name);
}
