# The $Keyring builtin module: digests, HMACs, block and stream ciphers and
# big integers (carried by the host's OpenSSL in this VM), plus Inferno's
# certificates and authentication, which this VM refuses when called (see
# the README). The declarations, and so the signatures, are Inferno's.
Keyring: module
{
	PATH:	con "$Keyring";

	# A big integer; its value lives outside Dis memory.
	IPint: adt
	{
		x:	int;

		iptob64:	fn(i: self ref IPint): string;
		iptob64z:	fn(i: self ref IPint): string;
		b64toip:	fn(str: string): ref IPint;
		iptobytes:	fn(i: self ref IPint): array of byte;
		iptobebytes:	fn(i: self ref IPint): array of byte;
		bytestoip:	fn(buf: array of byte): ref IPint;
		bebytestoip:	fn(mag: array of byte): ref IPint;
		inttoip:	fn(i: int): ref IPint;
		iptoint:	fn(i: self ref IPint): int;
		iptostr:	fn(i: self ref IPint, base: int): string;
		strtoip:	fn(str: string, base: int): ref IPint;

		random:	fn(minbits, maxbits: int): ref IPint;

		bits:	fn(i: self ref IPint): int;
		expmod:	fn(base: self ref IPint, exp, mod: ref IPint): ref IPint;
		invert:	fn(base: self ref IPint, mod: ref IPint): ref IPint;
		add:	fn(i1: self ref IPint, i2: ref IPint): ref IPint;
		sub:	fn(i1: self ref IPint, i2: ref IPint): ref IPint;
		neg:	fn(i: self ref IPint): ref IPint;
		mul:	fn(i1: self ref IPint, i2: ref IPint): ref IPint;
		div:	fn(i1: self ref IPint, i2: ref IPint): (ref IPint, ref IPint);
		mod:	fn(i1: self ref IPint, i2: ref IPint): ref IPint;
		eq:	fn(i1: self ref IPint, i2: ref IPint): int;
		cmp:	fn(i1: self ref IPint, i2: ref IPint): int;
		copy:	fn(i: self ref IPint): ref IPint;

		shl:	fn(i: self ref IPint, n: int): ref IPint;
		shr:	fn(i: self ref IPint, n: int): ref IPint;

		and:	fn(i1: self ref IPint, i2: ref IPint): ref IPint;
		ori:	fn(i1: self ref IPint, i2: ref IPint): ref IPint;
		xor:	fn(i1: self ref IPint, i2: ref IPint): ref IPint;
		not:	fn(i1: self ref IPint): ref IPint;
	};

	SigAlg: adt
	{
		name:	string;
	};

	PK: adt
	{
		sa:	ref SigAlg;
		owner:	string;
	};

	SK: adt
	{
		sa:	ref SigAlg;
		owner:	string;
	};

	Certificate: adt
	{
		sa:	ref SigAlg;
		ha:	string;
		signer:	string;
		exp:	int;
	};

	# The running state of a digest or HMAC (hidden from Dis).
	DigestState: adt
	{
		x:	int;

		copy:	fn(d: self ref DigestState): ref DigestState;
	};

	# Cipher states: the expanded key and the chaining vector (hidden).
	AESstate: adt
	{
		x:	int;
	};

	DESstate: adt
	{
		x:	int;
	};

	IDEAstate: adt
	{
		x:	int;
	};

	RC4state: adt
	{
		x:	int;
	};

	BFstate: adt
	{
		x:	int;
	};

	Authinfo: adt
	{
		mysk:	ref SK;
		mypk:	ref PK;
		cert:	ref Certificate;
		spk:	ref PK;
		alpha:	ref IPint;
		p:	ref IPint;
	};

	certtostr: fn(c: ref Certificate): string;
	pktostr: fn(pk: ref PK): string;
	sktostr: fn(sk: ref SK): string;

	strtocert: fn(s: string): ref Certificate;
	strtopk: fn(s: string): ref PK;
	strtosk: fn(s: string): ref SK;

	certtoattr: fn(c: ref Certificate): string;
	pktoattr: fn(pk: ref PK): string;
	sktoattr: fn(sk: ref SK): string;

	sign: fn(sk: ref SK, exp: int, state: ref DigestState, ha: string):
		ref Certificate;
	verify: fn(pk: ref PK, cert: ref Certificate, state: ref DigestState):
		int;
	signm: fn(sk: ref SK, m: ref IPint, ha: string):
		ref Certificate;
	verifym: fn(pk: ref PK, cert: ref Certificate, m: ref IPint):
		int;

	genSK: fn(algname, owner: string, length: int): ref SK;
	genSKfromPK: fn(pk: ref PK, owner: string): ref SK;
	sktopk: fn(sk: ref SK): ref PK;

	# Digests: feed buf[0:n] into state (nil: a new one); a non-nil digest
	# receives the result. The state is returned either way.
	md4: fn(buf: array of byte, n: int, digest: array of byte, state: ref DigestState):
		ref DigestState;
	md5: fn(buf: array of byte, n: int, digest: array of byte, state: ref DigestState):
		ref DigestState;
	sha1: fn(buf: array of byte, n: int, digest: array of byte, state: ref DigestState):
		ref DigestState;
	sha224: fn(buf: array of byte, n: int, digest: array of byte, state: ref DigestState):
		ref DigestState;
	sha256: fn(buf: array of byte, n: int, digest: array of byte, state: ref DigestState):
		ref DigestState;
	sha384: fn(buf: array of byte, n: int, digest: array of byte, state: ref DigestState):
		ref DigestState;
	sha512: fn(buf: array of byte, n: int, digest: array of byte, state: ref DigestState):
		ref DigestState;

	hmac_sha1: fn(data: array of byte, n: int, key: array of byte, digest: array of byte, state: ref DigestState):
		ref DigestState;
	hmac_md5: fn(data: array of byte, n: int, key: array of byte, digest: array of byte, state: ref DigestState):
		ref DigestState;

	SHA1dlen:	con 20;
	SHA224dlen:	con 28;
	SHA256dlen:	con 32;
	SHA384dlen:	con 48;
	SHA512dlen:	con 64;
	MD5dlen:	con 16;
	MD4dlen:	con 16;

	Encrypt:	con 0;
	Decrypt:	con 1;

	AESbsize:	con 16;

	aessetup: fn(key: array of byte, ivec: array of byte): ref AESstate;
	aescbc: fn(state: ref AESstate, buf: array of byte, n: int, direction: int);

	DESbsize: con 8;

	dessetup: fn(key: array of byte, ivec: array of byte): ref DESstate;
	desecb: fn(state: ref DESstate, buf: array of byte, n: int, direction: int);
	descbc: fn(state: ref DESstate, buf: array of byte, n: int, direction: int);

	IDEAbsize: con 8;

	ideasetup: fn(key: array of byte, ivec: array of byte): ref IDEAstate;
	ideaecb: fn(state: ref IDEAstate, buf: array of byte, n: int, direction: int);
	ideacbc: fn(state: ref IDEAstate, buf: array of byte, n: int, direction: int);

	BFbsize: con 8;

	blowfishsetup: fn(key: array of byte, ivec: array of byte): ref BFstate;
	blowfishcbc: fn(state: ref BFstate, buf: array of byte, n: int, direction: int);

	rc4setup:	fn(seed: array of byte): ref RC4state;
	rc4:	fn(state: ref RC4state, buf: array of byte, n: int);
	rc4skip:	fn(state: ref RC4state, n: int);
	rc4back:	fn(state: ref RC4state, n: int);

	dhparams: fn(nbits: int): (ref IPint, ref IPint);

	auth: fn(fd: ref Sys->FD, info: ref Authinfo, setid: int): (string, array of byte);

	readauthinfo: fn(filename: string): ref Authinfo;
	writeauthinfo: fn(filename: string, info: ref Authinfo): int;

	# Messages on a connection: a 5-byte length header, then the bytes.
	getstring: fn(fd: ref Sys->FD): (string, string);
	putstring: fn(fd: ref Sys->FD, s: string): int;
	getbytearray: fn(fd: ref Sys->FD): (array of byte, string);
	putbytearray: fn(fd: ref Sys->FD, a: array of byte, n: int): int;
	puterror: fn(fd: ref Sys->FD, s: string): int;

	getmsg: fn(fd: ref Sys->FD): array of byte;
	sendmsg: fn(fd: ref Sys->FD, buf: array of byte, n: int): int;
	senderrmsg: fn(fd: ref Sys->FD, s: string): int;

	RSApk: adt {
		n:	ref IPint;
		ek:	ref IPint;

		encrypt:	fn(k: self ref RSApk, m: ref IPint): ref IPint;
		verify:	fn(k: self ref RSApk, sig: ref RSAsig, m: ref IPint): int;
	};

	RSAsk: adt {
		pk:	ref RSApk;
		dk:	ref IPint;
		p:	ref IPint;
		q:	ref IPint;
		kp:	ref IPint;
		kq:	ref IPint;
		c2:	ref IPint;

		gen:	fn(nlen: int, elen: int, nrep: int): ref RSAsk;
		fill:	fn(n: ref IPint, e: ref IPint, d: ref IPint, p: ref IPint, q: ref IPint): ref RSAsk;
		decrypt:	fn(k: self ref RSAsk, m: ref IPint): ref IPint;
		sign:	fn(k: self ref RSAsk, m: ref IPint): ref RSAsig;
	};

	RSAsig: adt {
		n:	ref IPint;
	};

	DSApk: adt {
		p:	ref IPint;
		q:	ref IPint;
		alpha: ref IPint;
		key:	ref IPint;

		verify:	fn(k: self ref DSApk, sig: ref DSAsig, m: ref IPint): int;
	};

	DSAsk: adt {
		pk:	ref DSApk;
		secret:	ref IPint;

		gen:	fn(oldpk: ref DSApk): ref DSAsk;
		sign:	fn(k: self ref DSAsk, m: ref IPint): ref DSAsig;
	};

	DSAsig: adt {
		r:	ref IPint;
		s:	ref IPint;
	};

	EGpk: adt {
		p:	ref IPint;
		alpha: ref IPint;
		key:	ref IPint;

		verify:	fn(k: self ref EGpk, sig: ref EGsig, m: ref IPint): int;
	};

	EGsk: adt {
		pk:	ref EGpk;
		secret:	ref IPint;

		gen:	fn(nlen: int, nrep: int): ref EGsk;
		sign:	fn(k: self ref EGsk, m: ref IPint): ref EGsig;
	};

	EGsig: adt {
		r:	ref IPint;
		s:	ref IPint;
	};
};
