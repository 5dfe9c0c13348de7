# $Math's array functions: dot, norms, iamax, the index sort, gemm (column
# major, as BLAS) with transposes, alpha and beta, and the big-endian
# imports and exports; bad arguments raise "invalid math argument".
implement MathArrays;
include "sys.m";
	sys: Sys;
include "draw.m";
include "math.m";
	math: Math;
MathArrays: module { init: fn(nil: ref Draw->Context, nil: list of string); };

reals(a: array of real): string
{
	s := "";
	for(i := 0; i < len a; i++)
		s += sys->sprint(" %g", a[i]);
	return s;
}

bytes(a: array of byte): string
{
	s := "";
	for(i := 0; i < len a; i++)
		s += sys->sprint(" %.2x", int a[i]);
	return s;
}

init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;
	math = load Math Math->PATH;
	sys->print("dot %g\n", math->dot(array[] of {1.0, 2.0, 3.0}, array[] of {4.0, 5.0, 6.0}));
	sys->print("norm1 %g norm2 %g %.3g\n", math->norm1(array[] of {1.0, -2.0, 3.0}),
		math->norm2(array[] of {3.0, -4.0}), math->norm2(array[] of {3e200, 4e200}));
	sys->print("iamax %d\n", math->iamax(array[] of {1.0, -7.0, 7.0, 3.0}));
	x := array[] of {3.0, -1.0, 2.0, -1.0};
	pi := array[] of {0, 1, 2, 3};
	math->sort(x, pi);
	sys->print("sort %d %d %d %d%s\n", pi[0], pi[1], pi[2], pi[3], reals(x));

	a := array[] of {1.0, 4.0, 2.0, 5.0, 3.0, 6.0};	# 2x3, column major
	at := array[] of {1.0, 2.0, 3.0, 4.0, 5.0, 6.0};	# its transpose, 3x2
	b := array[] of {7.0, 9.0, 11.0, 8.0, 10.0, 12.0};	# 3x2
	c := array[4] of real;
	math->gemm('N', 'N', 2, 2, 3, 1.0, a, 2, b, 3, 0.0, c, 2);
	sys->print("gemm%s\n", reals(c));
	math->gemm('T', 'N', 2, 2, 3, 2.0, at, 3, b, 3, 1.0, c, 2);
	sys->print("gemm T%s\n", reals(c));

	bi := array[] of {byte 0, byte 0, byte 1, byte 2, byte 255, byte 255, byte 255, byte 254};
	xi := array[2] of int;
	math->import_int(bi, xi);
	sys->print("import_int %d %d\n", xi[0], xi[1]);
	math->export_int(bi, array[] of {16r01020304, -1});
	sys->print("export_int%s\n", bytes(bi));
	br := array[8] of byte;
	math->export_real(br, array[] of {1.5});
	xr := array[1] of real;
	math->import_real(br, xr);
	sys->print("export_real%s back %g\n", bytes(br), xr[0]);
	b4 := array[4] of byte;
	math->export_real32(b4, array[] of {-0.5});
	math->import_real32(b4, xr);
	sys->print("export_real32%s back %g\n", bytes(b4), xr[0]);

	{ math->dot(array[2] of real, array[3] of real); } exception e { "*" => sys->print("dot: %s\n", e); }
	{ math->import_int(array[5] of byte, xi[0:1]); } exception e { "*" => sys->print("import: %s\n", e); }
	{ math->gemm('X', 'N', 1, 1, 1, 1.0, a, 1, b, 1, 0.0, c, 1); } exception e { "*" => sys->print("gemm: %s\n", e); }
}
