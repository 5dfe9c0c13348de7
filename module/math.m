# The $Math builtin module: IEEE arithmetic, elementary functions and a
# few BLAS-style array routines. Constants are `con`s: they are compiled
# into the user's module and never appear in a signature.
Math: module
{
	PATH:	con "$Math";

	Infinity:	con 1e400;
	NaN:		con 0./0.;
	MachEps:	con 2.2204460492503131e-16;
	Pi:		con 3.14159265358979323846;
	Degree:		con Pi/180.;

	# floating point exception flags (FPcontrol, FPstatus)
	INVAL:		con (1<<0);
	ZDIV:		con (1<<1);
	OVFL:		con (1<<2);
	UNFL:		con (1<<3);
	INEX:		con (1<<4);

	# rounding modes
	RND_NR:		con (0<<8);
	RND_NINF:	con (1<<8);
	RND_PINF:	con (2<<8);
	RND_Z:		con (3<<8);
	RND_MASK:	con (3<<8);

	# Floating point environment.
	FPcontrol:	fn(r, mask: int): int;
	FPstatus:	fn(r, mask: int): int;
	getFPcontrol:	fn(): int;
	getFPstatus:	fn(): int;

	# Elementary functions of one real.
	acos:		fn(x: real): real;
	acosh:		fn(x: real): real;
	asin:		fn(x: real): real;
	asinh:		fn(x: real): real;
	atan:		fn(x: real): real;
	atanh:		fn(x: real): real;
	cbrt:		fn(x: real): real;
	ceil:		fn(x: real): real;
	cos:		fn(x: real): real;
	cosh:		fn(x: real): real;
	erf:		fn(x: real): real;
	erfc:		fn(x: real): real;
	exp:		fn(x: real): real;
	expm1:		fn(x: real): real;
	fabs:		fn(x: real): real;
	floor:		fn(x: real): real;
	j0:		fn(x: real): real;
	j1:		fn(x: real): real;
	log:		fn(x: real): real;
	log10:		fn(x: real): real;
	log1p:		fn(x: real): real;
	rint:		fn(x: real): real;
	sin:		fn(x: real): real;
	sinh:		fn(x: real): real;
	sqrt:		fn(x: real): real;
	tan:		fn(x: real): real;
	tanh:		fn(x: real): real;
	y0:		fn(x: real): real;
	y1:		fn(x: real): real;

	# Functions of two reals.
	atan2:		fn(y, x: real): real;
	copysign:	fn(x, s: real): real;
	fdim:		fn(x, y: real): real;
	fmax:		fn(x, y: real): real;
	fmin:		fn(x, y: real): real;
	fmod:		fn(x, y: real): real;
	hypot:		fn(x, y: real): real;
	nextafter:	fn(x, y: real): real;
	pow:		fn(x, y: real): real;
	remainder:	fn(x, p: real): real;

	# Mixed integer and real arguments.
	jn:		fn(n: int, x: real): real;
	yn:		fn(n: int, x: real): real;
	scalbn:		fn(x: real, n: int): real;
	pow10:		fn(p: int): real;
	lgamma:		fn(x: real): (int, real);
	modf:		fn(x: real): (int, real);

	# Classification and bit patterns.
	finite:		fn(x: real): int;
	isnan:		fn(x: real): int;
	ilogb:		fn(x: real): int;
	bits32real:	fn(b: int): real;
	bits64real:	fn(b: big): real;
	realbits32:	fn(x: real): int;
	realbits64:	fn(x: real): big;

	# Arrays of reals.
	dot:		fn(x, y: array of real): real;
	iamax:		fn(x: array of real): int;
	norm1:		fn(x: array of real): real;
	norm2:		fn(x: array of real): real;
	sort:		fn(x: array of real, pi: array of int);
	gemm:		fn(transa, transb: int, m, n, k: int, alpha: real,
			a: array of real, lda: int, b: array of real, ldb: int,
			beta: real, c: array of real, ldc: int);

	# Conversion between arrays and external (big-endian IEEE) bytes.
	export_int:	fn(b: array of byte, x: array of int);
	export_real32:	fn(b: array of byte, x: array of real);
	export_real:	fn(b: array of byte, x: array of real);
	import_int:	fn(b: array of byte, x: array of int);
	import_real32:	fn(b: array of byte, x: array of real);
	import_real:	fn(b: array of byte, x: array of real);
};
