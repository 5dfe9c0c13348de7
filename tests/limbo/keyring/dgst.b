implement Dgst;

# dgst FILE: every $Keyring digest of FILE, read in 8 KB pieces, and its
# HMAC-SHA1 under the key "key", one "ALG HEX" line each, for comparison
# with `openssl dgst`.
include "sys.m";
	sys: Sys;
include "draw.m";
include "keyring.m";
	kr: Keyring;
	DigestState: import kr;

Dgst: module
{
	init: fn(nil: ref Draw->Context, args: list of string);
};

hex(d: array of byte): string
{
	s := "";
	for(i := 0; i < len d; i++)
		s += sys->sprint("%.2ux", int d[i]);
	return s;
}

digest(a: int, buf: array of byte, n: int, d: array of byte, state: ref DigestState): ref DigestState
{
	case a {
	0 =>	return kr->md4(buf, n, d, state);
	1 =>	return kr->md5(buf, n, d, state);
	2 =>	return kr->sha1(buf, n, d, state);
	3 =>	return kr->sha224(buf, n, d, state);
	4 =>	return kr->sha256(buf, n, d, state);
	5 =>	return kr->sha384(buf, n, d, state);
	6 =>	return kr->sha512(buf, n, d, state);
	* =>	return kr->hmac_sha1(buf, n, array of byte "key", d, state);
	}
}

init(nil: ref Draw->Context, args: list of string)
{
	sys = load Sys Sys->PATH;
	kr = load Keyring Keyring->PATH;
	file := hd tl args;
	names := array[] of {"md4", "md5", "sha1", "sha224", "sha256", "sha384", "sha512", "hmac-sha1"};
	lens := array[] of {16, 16, 20, 28, 32, 48, 64, 20};
	buf := array[8192] of byte;
	for(a := 0; a < len names; a++){
		fd := sys->open(file, Sys->OREAD);
		if(fd == nil){
			sys->print("cannot open %s: %r\n", file);
			return;
		}
		state: ref DigestState;
		while((n := sys->read(fd, buf, len buf)) > 0)
			state = digest(a, buf, n, nil, state);
		d := array[lens[a]] of byte;
		digest(a, nil, 0, d, state);
		sys->print("%s %s\n", names[a], hex(d));
	}
}
