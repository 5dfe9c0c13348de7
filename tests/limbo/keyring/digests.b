implement Digests;

# Digests and HMACs of $Keyring, one line per case: the algorithm, the
# input's name and the hex digest. Long inputs go in pieces through the
# returned state, as Inferno's programs feed files.
include "sys.m";
	sys: Sys;
include "draw.m";
include "keyring.m";
	kr: Keyring;
	DigestState: import kr;

Digests: module
{
	init: fn(nil: ref Draw->Context, nil: list of string);
};

hex(d: array of byte): string
{
	s := "";
	for(i := 0; i < len d; i++)
		s += sys->sprint("%.2ux", int d[i]);
	return s;
}

# Algorithm a (an index of names) on buf, n, digest, state.
digest(a: int, buf: array of byte, n: int, d: array of byte, state: ref DigestState): ref DigestState
{
	case a {
	0 =>	return kr->md4(buf, n, d, state);
	1 =>	return kr->md5(buf, n, d, state);
	2 =>	return kr->sha1(buf, n, d, state);
	3 =>	return kr->sha224(buf, n, d, state);
	4 =>	return kr->sha256(buf, n, d, state);
	5 =>	return kr->sha384(buf, n, d, state);
	* =>	return kr->sha512(buf, n, d, state);
	}
}

# The digest of `count` copies of `piece`, fed one copy per call.
repeated(a: int, dlen: int, piece: string, count: int): string
{
	b := array of byte piece;
	state: ref DigestState;
	for(i := 0; i < count; i++)
		state = digest(a, b, len b, nil, state);
	d := array[dlen] of byte;
	digest(a, nil, 0, d, state);
	return hex(d);
}

init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;
	kr = load Keyring Keyring->PATH;
	names := array[] of {"md4", "md5", "sha1", "sha224", "sha256", "sha384", "sha512"};
	lens := array[] of {Keyring->MD4dlen, Keyring->MD5dlen, Keyring->SHA1dlen, Keyring->SHA224dlen,
		Keyring->SHA256dlen, Keyring->SHA384dlen, Keyring->SHA512dlen};
	for(i := 0; i < len names; i++){
		sys->print("%s empty %s\n", names[i], repeated(i, lens[i], "", 1));
		sys->print("%s abc %s\n", names[i], repeated(i, lens[i], "abc", 1));
		sys->print("%s 448 %s\n", names[i], repeated(i, lens[i], "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 1));
		sys->print("%s million %s\n", names[i], repeated(i, lens[i], "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", 10000));
	}

	# a copied state continues on its own
	b := array of byte "ab";
	s1 := kr->sha1(b, len b, nil, nil);
	s2 := s1.copy();
	c := array of byte "c";
	x := array of byte "x";
	d1 := array[Keyring->SHA1dlen] of byte;
	d2 := array[Keyring->SHA1dlen] of byte;
	kr->sha1(c, len c, d1, s2);
	kr->sha1(x, len x, d2, s1);
	sys->print("copy abc %s abx %s\n", hex(d1), hex(d2));

	# n is clipped to the array; a short digest array or nil buf with n > 0 gives nil
	kr->md5(b, 100, d1, nil);
	sys->print("clipped %s\n", hex(d1[0:Keyring->MD5dlen]));
	short := array[4] of byte;
	sys->print("short %d nilbuf %d\n", kr->md5(b, 2, short, nil) == nil, kr->md5(nil, 3, nil, nil) == nil);

	# a state goes on with its own algorithm only
	{
		kr->md5(b, len b, nil, s1);
		sys->print("no exception\n");
	} exception e {
	"*" =>	sys->print("mixed: %s\n", e);
	}

	# RFC 2202, test cases 1 and 2
	k1 := array[20] of {* => byte 16r0b};
	hi := array of byte "Hi There";
	jefe := array of byte "Jefe";
	what := array of byte "what do ya want for nothing?";
	d := array[Keyring->SHA1dlen] of byte;
	kr->hmac_md5(hi, len hi, k1[0:16], d, nil);
	sys->print("hmac_md5 1 %s\n", hex(d[0:16]));
	kr->hmac_sha1(hi, len hi, k1, d, nil);
	sys->print("hmac_sha1 1 %s\n", hex(d));
	st := kr->hmac_md5(what[0:10], 10, jefe, nil, nil);
	kr->hmac_md5(what[10:], len what - 10, jefe, d, st);
	sys->print("hmac_md5 2 %s\n", hex(d[0:16]));
	kr->hmac_sha1(what, len what, jefe, d, nil);
	sys->print("hmac_sha1 2 %s\n", hex(d));
	long := array[65] of {* => byte 0};
	sys->print("longkey %d\n", kr->hmac_sha1(what, len what, long, d, nil) == nil);
}
