# The $Sys builtin module: system calls and formatting.
# Names and types follow Inferno's interface, so programs compiled
# against Inferno's own sys.m link against this VM's builtins.
SELF:	con "$self";	# load of the running module instance, sharing its data

Sys: module
{
	PATH:	con "$Sys";

	Maxint:	con 2147483647;

	# Server's unique identification of a file.
	Qid: adt
	{
		path:	big;
		vers:	int;
		qtype:	int;
	};

	# A file's metadata, as stat and dirread return it.
	Dir: adt
	{
		name:	string;
		uid:	string;
		gid:	string;
		muid:	string;
		qid:	Qid;
		mode:	int;
		atime:	int;
		mtime:	int;
		length:	big;
		dtype:	int;
		dev:	int;
	};

	# An open file.
	FD: adt
	{
		fd:	int;
	};

	# A network connection from dial, announce or listen.
	Connection: adt
	{
		dfd:	ref FD;
		cfd:	ref FD;
		dir:	string;
	};

	# Requests to a file served by file2chan:
	# read gets (offset, count, fid, reply), write (offset, data, fid, reply).
	Rread:	type chan of (array of byte, string);
	Rwrite:	type chan of (int, string);
	FileIO: adt
	{
		read:	chan of (int, int, int, Rread);
		write:	chan of (int, array of byte, int, Rwrite);
	};

	ATOMICIO:	con 8192;	# largest write done in one piece

	SEEKSTART:	con 0;
	SEEKRELA:	con 1;
	SEEKEND:	con 2;

	NAMEMAX:	con 256;
	ERRMAX:		con 128;
	WAITLEN:	con ERRMAX+64;

	# open and create modes
	OREAD:		con 0;
	OWRITE:		con 1;
	ORDWR:		con 2;
	OTRUNC:		con 16;
	ORCLOSE:	con 64;
	OEXCL:		con 16r1000;

	# Dir.mode bits
	DMDIR:		con int 1<<31;
	DMAPPEND:	con int 1<<30;
	DMEXCL:		con int 1<<29;
	DMAUTH:		con int 1<<27;
	DMTMP:		con int 1<<26;

	# Qid.qtype bits
	QTDIR:		con 16r80;
	QTAPPEND:	con 16r40;
	QTEXCL:		con 16r20;
	QTAUTH:		con 16r08;
	QTTMP:		con 16r04;
	QTFILE:		con 0;

	# wstat values meaning "leave unchanged", and all zeros
	nulldir:	con Dir(nil, nil, nil, nil, (~big 0, ~0, ~0), ~0, ~0, ~0, ~big 0, ~0, ~0);
	zerodir:	con Dir(nil, nil, nil, nil, (big 0, 0, 0), 0, 0, 0, big 0, 0, 0);

	# bind and mount flags
	MREPL:		con 0;
	MBEFORE:	con 1;
	MAFTER:		con 2;
	MCREATE:	con 4;
	MCACHE:		con 16;

	# pctl flags
	NEWFD:		con (1<<0);
	FORKFD:		con (1<<1);
	NEWNS:		con (1<<2);
	FORKNS:		con (1<<3);
	NEWPGRP:	con (1<<4);
	NODEVS:		con (1<<5);
	NEWENV:		con (1<<6);
	FORKENV:	con (1<<7);

	# export flags
	EXPWAIT:	con 0;
	EXPASYNC:	con 1;

	UTFmax:		con 4;
	UTFerror:	con 16rFFFD;
	Runemax:	con 16r10FFFF;

	# Formatted output (see the formatter for the verbs).
	print:		fn(s: string, *): int;
	fprint:		fn(fd: ref FD, s: string, *): int;
	sprint:		fn(s: string, *): string;
	aprint:		fn(s: string, *): array of byte;

	# Files.
	open:		fn(s: string, mode: int): ref FD;
	create:		fn(s: string, mode, perm: int): ref FD;
	fildes:		fn(fd: int): ref FD;
	dup:		fn(old, new: int): int;
	read:		fn(fd: ref FD, buf: array of byte, n: int): int;
	readn:		fn(fd: ref FD, buf: array of byte, n: int): int;
	write:		fn(fd: ref FD, buf: array of byte, n: int): int;
	pread:		fn(fd: ref FD, buf: array of byte, n: int, off: big): int;
	pwrite:		fn(fd: ref FD, buf: array of byte, n: int, off: big): int;
	seek:		fn(fd: ref FD, off: big, start: int): big;
	stream:		fn(src, dst: ref FD, bufsiz: int): int;
	iounit:		fn(fd: ref FD): int;
	fd2path:	fn(fd: ref FD): string;
	pipe:		fn(fds: array of ref FD): int;
	remove:		fn(s: string): int;
	chdir:		fn(path: string): int;
	stat:		fn(s: string): (int, Dir);
	fstat:		fn(fd: ref FD): (int, Dir);
	wstat:		fn(s: string, d: Dir): int;
	fwstat:		fn(fd: ref FD, d: Dir): int;
	dirread:	fn(fd: ref FD): (int, array of Dir);
	file2chan:	fn(dir, file: string): ref FileIO;

	# Name space.
	bind:		fn(s, on: string, flags: int): int;
	mount:		fn(fd: ref FD, afd: ref FD, on: string, flags: int, spec: string): int;
	unmount:	fn(s1: string, s2: string): int;
	fauth:		fn(fd: ref FD, aname: string): ref FD;
	fversion:	fn(fd: ref FD, msize: int, version: string): (int, string);
	export:		fn(c: ref FD, dir: string, flag: int): int;

	# Network.
	announce:	fn(addr: string): (int, Connection);
	dial:		fn(addr, local: string): (int, Connection);
	listen:		fn(c: Connection): (int, Connection);

	# Processes, time, errors.
	pctl:		fn(flags: int, movefd: list of int): int;
	sleep:		fn(period: int): int;
	millisec:	fn(): int;
	werrstr:	fn(s: string): int;

	# Strings and UTF-8.
	tokenize:	fn(s, delim: string): (int, list of string);
	byte2char:	fn(buf: array of byte, n: int): (int, int, int);
	char2byte:	fn(c: int, buf: array of byte, n: int): int;
	utfbytes:	fn(buf: array of byte, n: int): int;
};
