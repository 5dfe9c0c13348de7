implement PK;

# $Keyring's RSA, Elgamal and DSA adts: a textbook RSA key (n = 61*53)
# through fill, keys the module generates, a key record Dis code builds
# itself, signatures that verify and altered ones that do not, and
# dhparams' generator.
include "sys.m";
	sys: Sys;
include "draw.m";
include "keyring.m";
	kr: Keyring;
	IPint, RSApk, RSAsk, RSAsig, EGpk, EGsk, DSApk, DSAsk: import kr;

PK: module
{
	init: fn(nil: ref Draw->Context, nil: list of string);
};

n(i: int): ref IPint
{
	return IPint.inttoip(i);
}

dec(i: ref IPint): string
{
	if(i == nil)
		return "nil";
	return i.iptostr(10);
}

init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;
	kr = load Keyring Keyring->PATH;

	sk := RSAsk.fill(n(3233), n(17), n(2753), n(61), n(53));
	c := sk.pk.encrypt(n(65));
	sys->print("rsa encrypt %s decrypt %s\n", dec(c), dec(sk.decrypt(c)));
	sys->print("rsa crt %s %s %s\n", dec(sk.kp), dec(sk.kq), dec(sk.c2));
	sig := sk.sign(n(65));
	sys->print("rsa sig %s verify %d %d\n", dec(sig.n), sk.pk.verify(sig, n(65)), sk.pk.verify(sig, n(66)));
	sys->print("rsa bad fill %d\n", RSAsk.fill(n(3233), n(17), n(2752), n(61), n(53)) == nil);
	mine := ref RSApk(n(3233), n(17));
	sys->print("rsa dis-made key %s\n", dec(mine.encrypt(n(65))));

	rsa := RSAsk.gen(512, 0, 20);
	m := IPint.strtoip("123456789012345678901234567890", 10);
	sys->print("rsa gen bits %d e %s round trip %d sign %d\n", rsa.pk.n.bits() >= 511, dec(rsa.pk.ek),
		rsa.decrypt(rsa.pk.encrypt(m)).eq(m), rsa.pk.verify(rsa.sign(m), m));

	eg := EGsk.gen(128, 10);
	es := eg.sign(m);
	sys->print("elgamal verify %d %d key %d\n", eg.pk.verify(es, m), eg.pk.verify(es, m.add(n(1))),
		eg.pk.alpha.expmod(eg.secret, eg.pk.p).eq(eg.pk.key));

	dsa := DSAsk.gen(nil);
	h := IPint.strtoip("a9993e364706816aba3e25717850c26c9cd0d89d", 16);
	ds := dsa.sign(h);
	sys->print("dsa bits %d %d verify %d %d\n", dsa.pk.p.bits(), dsa.pk.q.bits(), dsa.pk.verify(ds, h),
		dsa.pk.verify(ds, h.add(n(1))));
	dsa2 := DSAsk.gen(dsa.pk);
	sys->print("dsa same group %d other key %d\n", dsa2.pk.p.eq(dsa.pk.p), dsa2.pk.verify(ds, h));

	(alpha, p) := kr->dhparams(64);
	q := p.sub(n(1)).shr(1);
	sys->print("dh bits %d generator %d\n", p.bits(), alpha.expmod(q, p).eq(n(1)) == 0);
}
