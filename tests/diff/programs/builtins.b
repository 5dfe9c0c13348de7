# Sys builtins: tokenize, byte2char/char2byte/utfbytes, sprint, millisec
# monotonic, pipes through read and write, file errors, and $Math scalars.
implement Builtins;
include "sys.m";
	sys: Sys;
include "draw.m";
include "math.m";
	math: Math;
Builtins: module { init: fn(nil: ref Draw->Context, nil: list of string); };

init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;
	math = load Math Math->PATH;
	(n, toks) := sys->tokenize("  alpha, beta,,gamma ", ", ");
	out := "";
	for(; toks != nil; toks = tl toks)
		out += "<" + hd toks + ">";
	sys->print("tokenize %d %s\n", n, out);
	b := array[8] of byte;
	k := sys->char2byte(16r20ac, b, 0);
	(c, l, ok) := sys->byte2char(b, 0);
	sys->print("utf %d %x %d %d %d\n", k, c, l, ok, sys->utfbytes(b, 2));
	t0 := sys->millisec();
	sys->sleep(5);
	sys->print("clock %d\n", sys->millisec() - t0 >= 5);
	p := array[2] of ref Sys->FD;
	sys->print("pipe %d\n", sys->pipe(p));
	sys->write(p[1], array of byte "ping", 4);
	buf := array[16] of byte;
	m := sys->read(p[0], buf, len buf);
	sys->print("read %d %s\n", m, string buf[0:m]);
	fd := sys->open("/no/such/file/here", Sys->OREAD);
	sys->print("open nil %d\n", fd == nil);
	sys->print("sqrt %g floor %g pow %g fabs %g\n", math->sqrt(2.0), math->floor(-2.5),
		math->pow(2.0, 10.0), math->fabs(-3.0));
	(ip, fr) := math->modf(3.75);
	sys->print("modf %d %g isnan %d finite %d\n", ip, fr, math->isnan(Math->NaN),
		math->finite(1.0));
	sys->print("bits %bx %g\n", math->realbits64(1.0), math->bits64real(big 16r4000000000000000));
}
