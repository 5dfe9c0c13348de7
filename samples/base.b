implement Base;

# The paper's BASE benchmark: the cost of measuring nothing, as two
# consecutive timestamps from /dev/busec (read with sys->read), and the same
# with Bench->microsec(). Prints observation lines and their summaries.

include "sys.m";
	sys: Sys;
include "draw.m";
include "bench.m";
	bench: Bench;
include "samples.m";
	samples: Samples;
	Sample: import samples;

Base: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};

NREP: con 1000;
tsfd: ref Sys->FD;

treset()
{
	tsfd = sys->open("/dev/busec", Sys->OWRITE);
	if(tsfd == nil)
		return;
	buf := array[1] of byte;
	sys->write(tsfd, buf, len buf);
	tsfd = sys->open("/dev/busec", Sys->OREAD);
}

tstamp(): big
{
	buf := array[128] of byte;
	n := sys->read(tsfd, buf, len buf);
	if(n < 0)
		return big 0;
	return big string buf[0:n];
}

dirof(p: string): string
{
	for(i := len p - 1; i >= 0; i--)
		if(p[i] == '/')
			return p[0:i];
	return ".";
}

report(name: string, s: ref Sample)
{
	sys->print("%s:1l:Observation::Time:us %s\n", name, s.obs());
	(n, mean, lo, hi, std) := s.stat();
	sys->print("%s:summary:Sample:n:Time:us %d %g %bd %bd %g\n", name, n, mean, lo, hi, std);
}

init(nil: ref Draw->Context, args: list of string)
{
	sys = load Sys Sys->PATH;
	bench = load Bench Bench->PATH;
	samples = load Samples dirof(hd args) + "/" + Samples->PATH;
	if(samples == nil) {
		sys->fprint(sys->fildes(2), "base: cannot load %s: %r\n", Samples->PATH);
		raise "fail:load";
	}
	t0, t1: big;
	s := Sample.new(NREP);
	treset();
	for(i := 0; i < NREP; i++) {
		t0 = tstamp();
		t1 = tstamp();
		s.add(t1 - t0);
	}
	report("BASE", s);
	m := Sample.new(NREP);
	for(i = 0; i < NREP; i++) {
		t0 = bench->microsec();
		t1 = bench->microsec();
		m.add(t1 - t0);
	}
	report("MICROSEC", m);
}
