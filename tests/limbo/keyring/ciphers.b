implement Ciphers;

# The ciphers of $Keyring on published vectors (FIPS-197, the classic DES
# and Blowfish ones, RC4's "Key"/"Plaintext"), a multi-block CBC message
# whose ciphertext the test compares with `openssl enc`, partial blocks,
# the round trips back to the plaintext, and Inferno's rules for partial
# blocks, nil states and bad key sizes.
include "sys.m";
	sys: Sys;
include "draw.m";
include "keyring.m";
	kr: Keyring;

Ciphers: module
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

unhex(s: string): array of byte
{
	b := array[len s / 2] of byte;
	for(i := 0; i < len b; i++){
		v := 0;
		for(j := 0; j < 2; j++){
			c := s[2*i+j];
			if(c >= 'a')
				c = c - 'a' + 10;
			else
				c -= '0';
			v = v*16 + c;
		}
		b[i] = byte v;
	}
	return b;
}

init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;
	kr = load Keyring Keyring->PATH;

	# AES-128: one block with a zero chaining vector is the FIPS-197 example
	key := unhex("000102030405060708090a0b0c0d0e0f");
	buf := unhex("00112233445566778899aabbccddeeff");
	kr->aescbc(kr->aessetup(key, nil), buf, len buf, Keyring->Encrypt);
	sys->print("aes128 %s\n", hex(buf));
	kr->aescbc(kr->aessetup(key, nil), buf, len buf, Keyring->Decrypt);
	sys->print("aes128 back %s\n", hex(buf));
	key = unhex("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f");
	buf = unhex("00112233445566778899aabbccddeeff");
	kr->aescbc(kr->aessetup(key, nil), buf, len buf, Keyring->Encrypt);
	sys->print("aes256 %s\n", hex(buf));

	# CBC over four blocks in two calls: the state carries the chain
	iv := unhex("0f0e0d0c0b0a09080706050403020100");
	msg := array of byte "Sixty-four bytes of plaintext, chained in two calls to aescbc!!.";
	state := kr->aessetup(key[0:16], iv);
	kr->aescbc(state, msg[0:32], 32, Keyring->Encrypt);
	kr->aescbc(state, msg[32:], 32, Keyring->Encrypt);
	sys->print("aescbc %s\n", hex(msg));
	state = kr->aessetup(key[0:16], iv);
	kr->aescbc(state, msg, len msg, Keyring->Decrypt);
	sys->print("aescbc back %s\n", string msg);

	# a partial last block is XORed, so the length is kept
	odd := array of byte "nineteen bytes long";
	kr->aescbc(kr->aessetup(key[0:16], iv), odd, len odd, Keyring->Encrypt);
	kr->aescbc(kr->aessetup(key[0:16], iv), odd, len odd, Keyring->Decrypt);
	sys->print("aes partial back %s\n", string odd);
	sys->print("aes badkey %d short iv %d\n", kr->aessetup(key[0:5], nil) == nil,
		kr->aessetup(key[0:16], iv[0:8]) == nil);
	kr->aescbc(nil, odd, len odd, Keyring->Encrypt);
	sys->print("aes nil state %s\n", string odd);

	# DES
	{
		des := kr->dessetup(unhex("133457799bbcdff1"), nil);
		buf = unhex("0123456789abcdef");
		kr->desecb(des, buf, len buf, Keyring->Encrypt);
		sys->print("desecb %s\n", hex(buf));
		kr->desecb(des, buf, len buf, Keyring->Decrypt);
		sys->print("desecb back %s\n", hex(buf));
		des = kr->dessetup(unhex("0123456789abcdef"), unhex("1234567890abcdef"));
		text := array of byte "Now is the time for all ";
		kr->descbc(des, text, len text, Keyring->Encrypt);
		sys->print("descbc %s\n", hex(text));
		# not a whole number of blocks: left as it is
		partial := array of byte "eleven byte";
		kr->desecb(des, partial, len partial, Keyring->Encrypt);
		kr->descbc(des, partial, len partial, Keyring->Encrypt);
		sys->print("des partial %s\n", string partial);
		sys->print("des short iv %d\n", kr->dessetup(unhex("0123456789abcdef"), unhex("1234")) == nil);
	} exception e {
	"*" =>	sys->print("des: %s\n", e);
	}

	# Blowfish: the all-zero key and block
	{
		bf := kr->blowfishsetup(unhex("0000000000000000"), nil);
		buf = unhex("0000000000000000");
		kr->blowfishcbc(bf, buf, len buf, Keyring->Encrypt);
		sys->print("blowfish %s\n", hex(buf));
	} exception e {
	"*" =>	sys->print("blowfish: %s\n", e);
	}

	# IDEA: the vector when this OpenSSL has it, else the refusal
	{
		idea := kr->ideasetup(unhex("00010002000300040005000600070008"), nil);
		buf = unhex("0000000100020003");
		kr->ideaecb(idea, buf, len buf, Keyring->Encrypt);
		sys->print("idea %s\n", hex(buf));
	} exception e {
	"*" =>	sys->print("idea: %s\n", e);
	}

	# RC4, then back over the same bytes and again: the same keystream
	rc := kr->rc4setup(array of byte "Key");
	pt := array of byte "Plaintext";
	kr->rc4(rc, pt, len pt);
	sys->print("rc4 %s\n", hex(pt));
	kr->rc4back(rc, len pt);
	kr->rc4(rc, pt, len pt);
	sys->print("rc4 back %s\n", string pt);
	rc = kr->rc4setup(array of byte "Key");
	kr->rc4skip(rc, 4);
	tail := array of byte "ntext";
	kr->rc4(rc, tail, len tail);
	sys->print("rc4skip %s\n", hex(tail));
}
