implement Certs;

# $Keyring's generic keys and certificates for "rsa": genSK, sktopk,
# genSKfromPK, sign/verify over a digest state, signm/verifym, and the
# text forms, each read back. The secret key's text is printed last for
# the test to check the signature with OpenSSL's command line.
include "sys.m";
	sys: Sys;
include "draw.m";
include "keyring.m";
	kr: Keyring;
	IPint, SK, PK, Certificate, Authinfo: import kr;

Certs: module
{
	init: fn(nil: ref Draw->Context, nil: list of string);
};

init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;
	kr = load Keyring Keyring->PATH;
	sk := kr->genSK("rsa", "alice", 512);
	pk := kr->sktopk(sk);
	sys->print("sk %s %s pk %s %s\n", sk.sa.name, sk.owner, pk.sa.name, pk.owner);
	sys->print("unknown alg nil %d\n", kr->genSK("nope", "x", 512) == nil);

	data := array of byte "the data signed";
	st := kr->sha1(data, len data, nil, nil);
	cert := kr->sign(sk, 1234567890, st, "sha1");
	sys->print("cert %s %s %s %d\n", cert.sa.name, cert.ha, cert.signer, cert.exp);
	st = kr->sha1(data, len data, nil, nil);
	sys->print("verify %d\n", kr->verify(pk, cert, st));
	other := array of byte "other data";
	st = kr->sha1(other, len other, nil, nil);
	sys->print("verify other data %d\n", kr->verify(pk, cert, st));
	st = kr->sha1(data, len data, nil, nil);
	cert.exp++;
	sys->print("verify changed expiry %d\n", kr->verify(pk, cert, st));
	cert.exp--;
	st = kr->sha1(data, len data, nil, nil);
	sk2 := kr->genSKfromPK(pk, "bob");
	sys->print("verify another key %d (bob %d bits same)\n", kr->verify(kr->sktopk(sk2), cert, st), sk2.owner == "bob");
	st = kr->md5(data, len data, nil, nil);
	c5 := kr->sign(sk, 0, st, "md5");
	st = kr->md5(data, len data, nil, nil);
	sys->print("md5 verify %d\n", kr->verify(pk, c5, st));

	m := IPint.strtoip("123456789abcdef", 16);
	cm := kr->signm(sk, m, "sha1");
	sys->print("verifym %d other %d\n", kr->verifym(pk, cm, m), kr->verifym(pk, cm, m.add(IPint.inttoip(1))));

	# text forms: read back, they sign and verify the same
	pks := kr->pktostr(pk);
	sks := kr->sktostr(sk);
	certs := kr->certtostr(cert);
	pk2 := kr->strtopk(pks);
	sk3 := kr->strtosk(sks);
	cert2 := kr->strtocert(certs);
	sys->print("texts %d %d %d\n", kr->pktostr(pk2) == pks, kr->sktostr(sk3) == sks, kr->certtostr(cert2) == certs);
	st = kr->sha1(data, len data, nil, nil);
	sys->print("read back verify %d owner %s signer %s exp %d\n", kr->verify(pk2, cert2, st), pk2.owner, cert2.signer, cert2.exp);
	sys->print("bad texts nil %d %d %d\n", kr->strtopk("rsa\nx\n") == nil, kr->strtosk("dsa\n") == nil, kr->strtocert("rsa\nsha1\na\nnotanumber\nAA\n") == nil);
	# '+' begins some base-64 texts: a digit there, not a sign
	sys->print("b64 plus %s\n", IPint.strtoip("+A==", 64).iptostr(16));
	(n, nil) := sys->tokenize(certs, "\n");
	sys->print("cert lines %d\n", n);
	sys->print("readauthinfo none: %d %r\n", kr->readauthinfo("/nowhere/key") == nil);
	(alpha, p) := kr->dhparams(64);
	ai := ref Authinfo(sk, pk, cert, kr->sktopk(sk2), alpha, p);
	sys->print("writeauthinfo %d\n", kr->writeauthinfo("/tmp/certs_test_key", ai));
	ai2 := kr->readauthinfo("/tmp/certs_test_key");
	sys->remove("/tmp/certs_test_key");
	sys->print("readauthinfo %d %d %d %d %d %d\n", kr->sktostr(ai2.mysk) == sks, kr->pktostr(ai2.mypk) == pks,
		kr->certtostr(ai2.cert) == certs, kr->pktostr(ai2.spk) == kr->pktostr(kr->sktopk(sk2)),
		ai2.alpha.eq(alpha), ai2.p.eq(p));
	sys->print("SK %sCERT %sSIGNM %s", sks, certs, kr->certtostr(cm));
}
