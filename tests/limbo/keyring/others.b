implement Others;

# $IPints (primes), $Crypt (a digest and a cipher, sharing $Keyring's
# code, and its public keys as pick adts) and $Loader, which this VM
# refuses by name.
include "sys.m";
	sys: Sys;
include "draw.m";
include "ipints.m";
	ipints: IPints;
	IPint: import ipints;
include "crypt.m";
	crypt: Crypt;
	PK: import crypt;
include "loader.m";
	loader: Loader;

Others: module
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

init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;
	ipints = load IPints IPints->PATH;
	crypt = load Crypt Crypt->PATH;
	loader = load Loader Loader->PATH;
	if(ipints == nil || crypt == nil || loader == nil){
		sys->print("load failed: %r\n");
		return;
	}

	m127 := IPint.inttoip(1).shl(127).sub(IPint.inttoip(1));
	p127 := IPint.inttoip(1).shl(127).add(IPint.inttoip(1));
	sys->print("prime 2^127-1 %d 2^127+1 %d\n", ipints->probably_prime(m127, 20), ipints->probably_prime(p127, 20));
	p := ipints->genprime(64, 20);
	sys->print("genprime bits %d prime %d\n", p.bits(), ipints->probably_prime(p, 20));
	(sp, g) := ipints->gensafeprime(64, 20);
	q := sp.shr(1);
	one := IPint.inttoip(1);
	sys->print("safe %d %d generator %d\n", ipints->probably_prime(sp, 20), ipints->probably_prime(q, 20),
		g.expmod(q, sp).eq(one) == 0 && g.expmod(IPint.inttoip(2), sp).eq(one) == 0);
	sys->print("random bits %d\n", IPint.random(40).bits() <= 40);
	(dq, dp, seed) := ipints->DSAprimes();
	sys->print("dsaprimes %d %d seed %d divides %d\n", dq.bits(), dp.bits(), len seed,
		dp.sub(IPint.inttoip(1)).mod(dq).eq(IPint.inttoip(0)));

	abc := array of byte "abc";
	d := array[Crypt->SHA256dlen] of byte;
	crypt->sha256(abc, len abc, d, nil);
	sys->print("crypt sha256 %s\n", hex(d));
	rc := crypt->rc4setup(array of byte "Key");
	pt := array of byte "Plaintext";
	crypt->rc4(rc, pt, len pt);
	sys->print("crypt rc4 %s\n", hex(pt));
	m := IPint.strtoip("12345678901234567890", 10);
	algs := array[] of {("rsa", 512), ("elgamal", 128), ("dsa", 0)};
	for(i := 0; i < len algs; i++){
		(alg, length) := algs[i];
		sk := crypt->genSK(alg, length);
		pk := crypt->sktopk(sk);
		sig := crypt->sign(sk, m);
		kind := "";
		pick p := pk {
		RSA =>	kind = "RSA";
		Elgamal =>	kind = "Elgamal";
		DSA =>	kind = "DSA";
		}
		sk2 := crypt->genSKfromPK(pk);
		sys->print("crypt %s %s verify %d %d other key %d\n", alg, kind, crypt->verify(pk, sig, m),
			crypt->verify(pk, sig, m.add(IPint.inttoip(1))), crypt->verify(crypt->sktopk(sk2), sig, m));
	}
	rsk := crypt->rsafill(IPint.inttoip(3233), IPint.inttoip(17), IPint.inttoip(2753), IPint.inttoip(61), IPint.inttoip(53));
	c := crypt->rsaencrypt(rsk.pk, IPint.inttoip(65));
	sys->print("crypt rsa %s %s unknown %d\n", c.iptostr(10), crypt->rsadecrypt(rsk, c).iptostr(10),
		crypt->genSK("nope", 1) == nil);
	{
		loader->dnew(8, nil);
	} exception e {
	"*" =>	sys->print("dnew: %s\n", e);
	}
}
