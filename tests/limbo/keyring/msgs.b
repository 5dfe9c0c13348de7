implement Msgs;

# $Keyring's message I/O over a pipe: the framed getmsg/sendmsg (with the
# raw header read back), error messages becoming %r, the one-read
# putstring/getstring family with its error marker, and end of file.
include "sys.m";
	sys: Sys;
include "draw.m";
include "keyring.m";
	kr: Keyring;

Msgs: module
{
	init: fn(nil: ref Draw->Context, nil: list of string);
};

init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;
	kr = load Keyring Keyring->PATH;
	p := array[2] of ref Sys->FD;
	if(sys->pipe(p) < 0){
		sys->print("pipe: %r\n");
		return;
	}
	hello := array of byte "hello";
	sys->print("sendmsg %d\n", kr->sendmsg(p[0], hello, len hello));
	raw := array[64] of byte;
	n := sys->read(p[1], raw, len raw);
	sys->print("raw %d %q\n", n, string raw[0:n]);

	kr->sendmsg(p[0], hello, 3);
	m := kr->getmsg(p[1]);
	sys->print("getmsg %q\n", string m);
	sys->print("senderrmsg %d\n", kr->senderrmsg(p[0], "no key"));
	m = kr->getmsg(p[1]);
	sys->print("getmsg nil %d err %r\n", m == nil);

	sys->print("putstring %d\n", kr->putstring(p[0], "a string"));
	(s, err) := kr->getstring(p[1]);
	sys->print("getstring %q %q\n", s, err);
	sys->print("puterror %d\n", kr->puterror(p[0], "bad thing"));
	(s, err) = kr->getstring(p[1]);
	sys->print("getstring %q %q\n", s, err);
	bytes := array of byte "0123456789";
	sys->print("putbytearray %d\n", kr->putbytearray(p[0], bytes, 4));
	(b, berr) := kr->getbytearray(p[1]);
	sys->print("getbytearray %q %q\n", string b, berr);
	sys->print("nil fd %d %d\n", kr->sendmsg(nil, hello, 1), kr->putstring(nil, "x"));

	p[0] = nil;
	m = kr->getmsg(p[1]);
	sys->print("eof nil %d err %r\n", m == nil);
	(s, err) = kr->getstring(p[1]);
	sys->print("eof getstring %q %q\n", s, err);
}
