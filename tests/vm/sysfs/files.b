implement SysFiles;

# stat, fstat, dirread, remove, chdir and wstat on the host file system,
# inside the directory given as the only argument.

include "sys.m";
	sys: Sys;
include "draw.m";

SysFiles: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};

kind(d: Sys->Dir): string
{
	if(d.mode & Sys->DMDIR){
		if(d.qid.qtype & Sys->QTDIR)
			return "dir";
		return "dir without QTDIR";
	}
	return "file";
}

show(path: string)
{
	(ok, d) := sys->stat(path);
	if(ok < 0){
		sys->print("stat %s: %r\n", path);
		return;
	}
	sys->print("stat %s: %d name=%s %s length=%bd perm=%uo\n", path, ok, d.name, kind(d),
		d.length, d.mode & 8r777);
}

mkfile(path: string, text: string)
{
	fd := sys->create(path, Sys->OWRITE, 8r640);
	if(fd == nil){
		sys->print("create %s: %r\n", path);
		return;
	}
	b := array of byte text;
	sys->write(fd, b, len b);
}

sort(a: array of string)
{
	for(i := 1; i < len a; i++)
		for(j := i; j > 0 && a[j] < a[j-1]; j--)
			(a[j], a[j-1]) = (a[j-1], a[j]);
}

listdir(path: string)
{
	fd := sys->open(path, Sys->OREAD);
	if(fd == nil){
		sys->print("open %s: %r\n", path);
		return;
	}
	names: list of string;
	n := 0;
	for(;;){
		(k, dirs) := sys->dirread(fd);
		if(k < 0){
			sys->print("dirread: %r\n");
			return;
		}
		if(k == 0)
			break;
		if(len dirs != k)
			sys->print("dirread: %d entries in an array of %d\n", k, len dirs);
		for(i := 0; i < k; i++){
			names = dirs[i].name + " " + kind(dirs[i]) + " " + string dirs[i].length :: names;
			n++;
		}
	}
	a := array[n] of string;
	for(i := 0; names != nil; names = tl names)
		a[i++] = hd names;
	sort(a);
	sys->print("dirread %s: %d entries\n", path, n);
	for(i = 0; i < n; i++)
		sys->print("  %s\n", a[i]);
}

init(nil: ref Draw->Context, args: list of string)
{
	sys = load Sys Sys->PATH;
	root := hd tl args;
	mkfile(root + "/a.txt", "hello\n");
	mkfile(root + "/b.txt", "0123456789");
	sys->create(root + "/sub", Sys->OREAD, Sys->DMDIR | 8r755);
	mkfile(root + "/sub/inner.txt", "inner text\n");

	show(root + "/a.txt");
	show(root + "/b.txt");
	show(root + "/sub");
	show(root + "/sub/");
	(nil, sd) := sys->stat(root + "/sub");
	sys->print("owner: uid=%s gid=%s muid=%s dtype=%c\n", sd.uid, sd.gid, sd.muid, sd.dtype);
	listdir(root);

	fd := sys->open(root + "/b.txt", Sys->OREAD);
	(ok, d) := sys->fstat(fd);
	sys->print("fstat: %d name=%s %s length=%bd\n", ok, d.name, kind(d), d.length);

	sys->print("remove a.txt: %d\n", sys->remove(root + "/a.txt"));
	show(root + "/a.txt");
	if(sys->remove(root + "/sub") < 0)
		sys->print("remove sub: %r\n");
	show(root + "/sub");

	# wstat: rename and change permissions; "leave unchanged" fields (as
	# Sys->nulldir, which this compiler cannot load yet) stay.
	nd: Sys->Dir;
	nd.qid.path = ~big 0;
	nd.qid.vers = nd.qid.qtype = ~0;
	nd.mode = nd.atime = nd.mtime = nd.dtype = nd.dev = ~0;
	nd.length = ~big 0;
	nd.name = "c.txt";
	nd.mode = 8r600;
	sys->print("wstat: %d\n", sys->wstat(root + "/b.txt", nd));
	show(root + "/b.txt");
	show(root + "/c.txt");

	# fwstat through an open descriptor: rename, truncate, set mtime.
	wfd := sys->open(root + "/c.txt", Sys->ORDWR);
	nd.name = "d.txt";
	nd.mode = ~0;
	nd.length = big 4;
	nd.mtime = 1000000000;
	sys->print("fwstat: %d\n", sys->fwstat(wfd, nd));
	show(root + "/d.txt");
	(nil, dd) := sys->stat(root + "/d.txt");
	sys->print("mtime: %d\n", dd.mtime);
	(nil, dd) = sys->fstat(wfd);
	sys->print("fstat after rename: %s\n", dd.name);
	nd.name = "sub";
	nd.length = ~big 0;
	nd.mtime = ~0;
	if(sys->fwstat(wfd, nd) < 0)
		sys->print("fwstat onto sub: %r\n");

	if(sys->chdir(root + "/nowhere") < 0)
		sys->print("chdir nowhere: %r\n");
	sys->print("chdir sub: %d\n", sys->chdir(root + "/sub"));
	in := sys->open("inner.txt", Sys->OREAD);
	buf := array[64] of byte;
	n := sys->read(in, buf, len buf);
	sys->print("read inner.txt: %s", string buf[0:n]);
	show("inner.txt");
	listdir(".");
}
