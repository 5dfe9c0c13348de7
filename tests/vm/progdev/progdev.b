implement Progdev;

# The program device: each thread's status, kill and killgrp through ctl,
# fd and ns; and bind over a directory (the argument, made by the test).

include "sys.m";
	sys: Sys;
include "draw.m";

Progdev: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};

sleeper(pids: chan of int)
{
	pids <-= sys->pctl(0, nil);
	sys->sleep(100000);
}

blocked(pids: chan of int)
{
	pids <-= sys->pctl(0, nil);
	c := chan of int;
	<-c;
}

leader(pids: chan of int)
{
	sys->pctl(Sys->NEWPGRP, nil);
	pids <-= sys->pctl(0, nil);
	spawn blocked(pids);
	c := chan of int;
	<-c;
}

text(path: string): string
{
	fd := sys->open(path, Sys->OREAD);
	if(fd == nil)
		return sys->sprint("open: %r");
	buf := array[4096] of byte;
	n := sys->read(fd, buf, len buf);
	if(n < 0)
		return sys->sprint("read: %r");
	return string buf[0:n];
}

ctl(pid: int, msg: string): string
{
	fd := sys->open("/prog/" + string pid + "/ctl", Sys->OWRITE);
	if(fd == nil)
		return sys->sprint("open: %r");
	b := array of byte msg;
	if(sys->write(fd, b, len b) != len b)
		return sys->sprint("write: %r");
	return "ok";
}

status(pid: int): string
{
	(nil, f) := sys->tokenize(text("/prog/" + string pid + "/status"), " ");
	s := "";
	for(i := 0; f != nil; f = tl f) {
		# pid and group numbers vary with the run: say whose they are
		if(i != 2 && i != 3 && i != 5)
			s += " " + hd f;
		i++;
	}
	return s;
}

names(dir: string): string
{
	fd := sys->open(dir, Sys->OREAD);
	if(fd == nil)
		return sys->sprint("open: %r");
	s := "";
	for(;;) {
		(n, d) := sys->dirread(fd);
		if(n <= 0)
			break;
		for(i := 0; i < n; i++)
			s += " " + d[i].name;
	}
	return s;
}

init(nil: ref Draw->Context, args: list of string)
{
	sys = load Sys Sys->PATH;
	me := sys->pctl(0, nil);
	w := sys->open("/prog/" + string me + "/wait", Sys->OREAD);
	pids := chan of int;
	spawn sleeper(pids);
	s := <-pids;
	spawn blocked(pids);
	b := <-pids;
	sys->print("me:%s\n", status(me));
	sys->print("blocked:%s\n", status(b));
	sys->print("listed: %d\n", names("/prog") == sys->sprint(" %d %d %d", me, s, b));
	sys->print("files:%s\n", names("/prog/" + string b));
	(nil, root) := sys->tokenize(names("/"), " ");
	(ndev, nprog) := (0, 0);
	for(; root != nil; root = tl root) {
		if(hd root == "dev")
			ndev++;
		if(hd root == "prog")
			nprog++;
	}
	sys->print("root lists dev %d prog %d\n", ndev, nprog);
	sys->print("bad ctl: %s\n", ctl(b, "frobnicate"));
	sys->print("kill blocked: %s\n", ctl(b, "kill"));
	buf := array[256] of byte;
	n := sys->read(w, buf, len buf);
	sys->print("wait: %d\n", string buf[0:n] == string b + " \"Progdev\":killed");
	sys->print("gone: %d\n", text("/prog/" + string b + "/status") == "open: '/prog/" + string b + "/status' file does not exist");
	sys->print("kill sleeper: %s\n", ctl(s, "kill"));
	n = sys->read(w, buf, len buf);
	sys->print("wait: %d\n", string buf[0:n] == string s + " \"Progdev\":killed");

	spawn leader(pids);
	l := <-pids;
	c := <-pids;
	sys->print("group: %d\n", int text("/prog/" + string c + "/status")[9:17] == l);
	sys->print("killgrp: %s\n", ctl(c, "killgrp"));
	n = sys->read(w, buf, len buf);
	sys->print("wait: %d\n", string buf[0:n] == string l + " \"Progdev\":killed");
	sys->print("both gone: %s\n", names("/prog"));

	fds := text("/prog/" + string me + "/fd");
	(nil, lines) := sys->tokenize(fds, "\n");
	sys->print("fd lines: %d\n", len lines);
	for(lines = tl lines; lines != nil; lines = tl lines)
		sys->print("fd:%s\n", (hd lines)[0:6] + " " + (hd lines)[len hd lines - 12:]);

	# bind: the test's directory holds a/x and b/y
	dir := hd tl args;
	sys->chdir(dir);
	sys->print("a:%s\n", names("a"));
	sys->print("bind -a: %d a:%s\n", sys->bind("b", "a", Sys->MAFTER), names("a"));
	sys->print("create: %d %r\n", sys->create("a/new", Sys->OWRITE, 8r644) == nil);
	sys->print("stat a/y: %d\n", (sys->stat("a/y")).t0);
	sys->pctl(Sys->FORKNS, nil);
	sys->print("bind: %d a:%s\n", sys->bind("b", "a", Sys->MREPL|Sys->MCREATE), names("a"));
	sys->print("create: %d b:%s\n", sys->create("a/new", Sys->OWRITE, 8r644) != nil, names("b"));
	ns := sys->open("/prog/" + string me + "/ns", Sys->OREAD);
	while((n = sys->read(ns, buf, len buf)) > 0)
		sys->print("ns: %s", string buf[0:n]);
	sys->print("unmount: %d a:%s\n", sys->unmount(nil, "a"), names("a"));
	sys->print("unmount again: %d %r\n", sys->unmount(nil, "a"));
	sys->print("bind nothing: %d %r\n", sys->bind("nothing", "a", 0));
}
