implement BenchOps;

# One microbenchmark per common Dis opcode family, plus SLEEP0.
# Usage: ops TEST CLOCK NOUTER NINNER GCOFF [BENCHMOD]
#   TEST    LOOP INT BIG REAL STRCAT STRINDEX ARRAY LISTCONS LISTHD CALL
#           MCALL CHAN ALLOC SLEEP0
#   CLOCK   nsec or microsec: the timestamps around each inner loop
#   NINNER  iterations of the inner loop (short: many outer repetitions
#           of short inner loops, as the second seed advises)
#   BENCHMOD path of benchmod.b (for MCALL)
# Prints NOUTER elapsed times, one per inner loop, in the clock's unit.
# Each figure includes the loop's own control (see LOOP).

include "sys.m";
	sys: Sys;
include "draw.m";
include "bench.m";
	bench: Bench;

BenchOps: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};

BenchMod: module {
	inc: fn(x: int): int;
};

Pt: adt {
	x, y: int;
};

usec := 0;
sinki := 0;
sinkb := big 0;
sinkr := 0.0;
sinks := "";
mod: BenchMod;

stamp(): big
{
	if(usec)
		return bench->microsec();
	return bench->nsec();
}

tloop(n: int): big
{
	t0 := stamp();
	for(i := 0; i < n; i++)
		;
	return stamp() - t0;
}

tint(n: int): big
{
	s := 0;
	t0 := stamp();
	for(i := 0; i < n; i++)
		s = (s * 31 + i) & 16rFFFF;
	t1 := stamp();
	sinki += s;
	return t1 - t0;
}

tbig(n: int): big
{
	b := big 1;
	d := big 7;
	t0 := stamp();
	for(i := 0; i < n; i++)
		b = (b * big 3 + d) & big 16rFFFFFFFFFF;
	t1 := stamp();
	sinkb += b;
	return t1 - t0;
}

treal(n: int): big
{
	r := 1.0;
	t0 := stamp();
	for(i := 0; i < n; i++)
		r = r * 0.5 + 1.25;
	t1 := stamp();
	sinkr += r;
	return t1 - t0;
}

tstrcat(n: int): big
{
	a := "abcdefgh";
	b := "ijklmnop";
	s: string;
	t0 := stamp();
	for(i := 0; i < n; i++)
		s = a + b;
	t1 := stamp();
	sinks = s;
	return t1 - t0;
}

tstrindex(n: int): big
{
	s := "abcdefghijklmnop";
	c := 0;
	t0 := stamp();
	for(i := 0; i < n; i++)
		c += s[i & 15];
	t1 := stamp();
	sinki += c;
	return t1 - t0;
}

tarray(n: int): big
{
	a := array[64] of int;
	t0 := stamp();
	for(i := 0; i < n; i++)
		a[i & 63] = a[(i + 1) & 63] + 1;
	t1 := stamp();
	sinki += a[0];
	return t1 - t0;
}

tlistcons(n: int): big
{
	base := 1 :: nil;
	l: list of int;
	t0 := stamp();
	for(i := 0; i < n; i++)
		l = i :: base;
	t1 := stamp();
	sinki += hd l;
	return t1 - t0;
}

tlisthd(n: int): big
{
	l := 1 :: 2 :: 3 :: nil;
	s := 0;
	t0 := stamp();
	for(i := 0; i < n; i++)
		s += hd l;
	t1 := stamp();
	sinki += s;
	return t1 - t0;
}

inc(x: int): int
{
	return x + 1;
}

tcall(n: int): big
{
	s := 0;
	t0 := stamp();
	for(i := 0; i < n; i++)
		s = inc(s);
	t1 := stamp();
	sinki += s;
	return t1 - t0;
}

tmcall(n: int): big
{
	s := 0;
	t0 := stamp();
	for(i := 0; i < n; i++)
		s = mod->inc(s);
	t1 := stamp();
	sinki += s;
	return t1 - t0;
}

tchan(n: int): big
{
	c := chan[1] of int;
	s := 0;
	t0 := stamp();
	for(i := 0; i < n; i++) {
		c <-= i;
		s += <-c;
	}
	t1 := stamp();
	sinki += s;
	return t1 - t0;
}

talloc(n: int): big
{
	p: ref Pt;
	t0 := stamp();
	for(i := 0; i < n; i++)
		p = ref Pt(i, i);
	t1 := stamp();
	sinki += p.x;
	return t1 - t0;
}

tsleep0(n: int): big
{
	t0 := stamp();
	for(i := 0; i < n; i++)
		sys->sleep(0);
	return stamp() - t0;
}

init(nil: ref Draw->Context, args: list of string)
{
	sys = load Sys Sys->PATH;
	bench = load Bench Bench->PATH;
	args = tl args;
	test := hd args;
	args = tl args;
	if(hd args == "microsec")
		usec = 1;
	args = tl args;
	nouter := int hd args;
	args = tl args;
	ninner := int hd args;
	args = tl args;
	gcoff := int hd args;
	args = tl args;
	if(test == "MCALL") {
		mod = load BenchMod hd args;
		if(mod == nil) {
			sys->fprint(sys->fildes(2), "ops: cannot load %s: %r\n", hd args);
			raise "fail:load";
		}
	}
	if(nouter < 1)
		nouter = 1;

	obs := array[nouter] of big;
	if(gcoff)
		bench->disablegc();
	bench->reset();
	for(o := 0; o < nouter; o++) {
		t: big;
		case test {
		"LOOP" => t = tloop(ninner);
		"INT" => t = tint(ninner);
		"BIG" => t = tbig(ninner);
		"REAL" => t = treal(ninner);
		"STRCAT" => t = tstrcat(ninner);
		"STRINDEX" => t = tstrindex(ninner);
		"ARRAY" => t = tarray(ninner);
		"LISTCONS" => t = tlistcons(ninner);
		"LISTHD" => t = tlisthd(ninner);
		"CALL" => t = tcall(ninner);
		"MCALL" => t = tmcall(ninner);
		"CHAN" => t = tchan(ninner);
		"ALLOC" => t = talloc(ninner);
		"SLEEP0" => t = tsleep0(ninner);
		* =>
			sys->fprint(sys->fildes(2), "ops: no test %s\n", test);
			raise "fail:usage";
		}
		obs[o] = t;
	}
	if(gcoff)
		bench->enablegc();
	for(o = 0; o < nouter; o++)
		sys->print(" %bd", obs[o]);
	sys->print("\n");
}
