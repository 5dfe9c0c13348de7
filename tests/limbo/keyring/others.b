implement Others;

# $IPints (primes), $Crypt (a digest and a cipher, sharing $Keyring's
# code) and $Loader, which this VM refuses by name.
include "sys.m";
	sys: Sys;
include "draw.m";
include "ipints.m";
	ipints: IPints;
	IPint: import ipints;
include "crypt.m";
	crypt: Crypt;
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
	{
		crypt->genSK("rsa", 512);
	} exception e {
	"*" =>	sys->print("genSK: %s\n", e);
	}
	{
		loader->dnew(8, nil);
	} exception e {
	"*" =>	sys->print("dnew: %s\n", e);
	}
}
