implement IPintTest;

# Keyring's IPint: arithmetic on values past 64 bits, conversions in every
# base Inferno's programs use, comparisons, shifts and bitwise operations,
# and the edge cases (zero, negatives, saturation, bad text, zero divide).
include "sys.m";
	sys: Sys;
include "draw.m";
include "keyring.m";
	kr: Keyring;
	IPint: import kr;

IPintTest: module
{
	init: fn(nil: ref Draw->Context, nil: list of string);
};

dec(i: ref IPint): string
{
	if(i == nil)
		return "nil";
	return i.iptostr(10);
}

hexbytes(d: array of byte): string
{
	s := "";
	for(i := 0; i < len d; i++)
		s += sys->sprint("%.2ux", int d[i]);
	return s;
}

init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;
	kr = load Keyring Keyring->PATH;

	a := IPint.strtoip("123456789012345678901234567890", 10);
	sys->print("square %s\n", dec(a.mul(a)));
	sys->print("sum %s\n", dec(a.add(IPint.inttoip(10))));
	sys->print("diff %s\n", dec(IPint.inttoip(10).sub(a)));
	sys->print("neg %s copy %s\n", dec(a.neg()), dec(a.copy()));
	sys->print("hex %s %s %s\n", IPint.inttoip(255).iptostr(16), IPint.inttoip(0).iptostr(16),
		IPint.inttoip(-4096).iptostr(16));
	sys->print("a hex %s\n", a.iptostr(16));

	x := IPint.strtoip("DEADBEEF", 16);
	sys->print("b64 %s b64z %s\n", x.iptob64(), x.iptob64z());
	sys->print("from b64 %s\n", IPint.b64toip("3q2+7w==").iptostr(16));
	sys->print("bytes %s\n", hexbytes(IPint.inttoip(16r0102).iptobytes()));
	sys->print("bebytes %s\n", hexbytes(x.iptobebytes()));
	sys->print("from bytes %s\n", dec(IPint.bytestoip(array[] of {byte 1, byte 2, byte 3})));
	sys->print("from bebytes %s\n", dec(IPint.bebytestoip(array[] of {byte 16rff, byte 0})));

	sys->print("expmod %s\n", dec(IPint.inttoip(4).expmod(IPint.inttoip(13), IPint.inttoip(497))));
	sys->print("exp %s\n", dec(IPint.inttoip(2).expmod(IPint.inttoip(100), nil)));
	sys->print("invert %s\n", dec(IPint.inttoip(3).invert(IPint.inttoip(11))));
	(q, r) := IPint.inttoip(-7).div(IPint.inttoip(2));
	sys->print("div %s %s mod %s\n", dec(q), dec(r), dec(IPint.inttoip(-7).mod(IPint.inttoip(2))));
	{
		a.div(IPint.inttoip(0));
		sys->print("no exception\n");
	} exception e {
	"*" =>	sys->print("div0: %s\n", e);
	}

	five := IPint.inttoip(5);
	seven := IPint.inttoip(7);
	sys->print("cmp %d %d %d eq %d %d\n", five.cmp(seven), seven.cmp(five), five.cmp(IPint.inttoip(5)),
		five.eq(IPint.inttoip(5)), five.eq(seven));
	huge := IPint.inttoip(1).shl(100);
	sys->print("shl %s shr %s bits %d %d\n", dec(huge), dec(huge.shr(98)), huge.bits(), IPint.inttoip(0).bits());
	t := IPint.inttoip(12);
	u := IPint.inttoip(10);
	sys->print("and %s or %s xor %s not %s\n", dec(t.and(u)), dec(t.ori(u)), dec(t.xor(u)), dec(five.not()));
	sys->print("iptoint %d %d %d\n", IPint.inttoip(1).shl(40).iptoint(), IPint.inttoip(1).shl(40).neg().iptoint(),
		IPint.strtoip("-42", 10).iptoint());
	sys->print("bad %s %s %s\n", dec(IPint.strtoip("12x", 10)), dec(IPint.strtoip("", 10)), dec(IPint.strtoip("ff", 10)));
	sys->print("base 2 %s\n", IPint.strtoip("101101", 2).iptostr(10));
	f := IPint.inttoip(1);
	for(i := 2; i <= 100; i++)
		f = f.mul(IPint.inttoip(i));
	sys->print("100! %s\n", dec(f));
	{
		IPint.inttoip(3).shl(1<<30);
		sys->print("no exception\n");
	} exception e {
	"*" =>	sys->print("shl: %s\n", e);
	}
	{
		IPint.inttoip(3).expmod(IPint.inttoip(1<<30), nil);
		sys->print("no exception\n");
	} exception e {
	"*" =>	sys->print("expmod: %s\n", e);
	}
	sys->print("far shr %s neg shl %s\n", dec(huge.shr(1<<30)), dec(huge.shl(-98)));
	{
		bogus := ref IPint(5);
		bogus.add(five);
		sys->print("no exception\n");
	} exception e {
	"*" =>	sys->print("dis-made IPint: %s\n", e);
	}
	{
		nothing: ref IPint;
		five.add(nothing);
		sys->print("no exception\n");
	} exception e {
	"*" =>	sys->print("nil IPint: %s\n", e);
	}
	r1 := IPint.random(0, 64);
	sys->print("random %d\n", r1.bits() <= 64);
}
