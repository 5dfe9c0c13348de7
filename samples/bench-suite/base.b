implement BenchBase;

# BASE: the cost of an empty timestamp pair, as in the paper's bench.b.
# Usage: base CLOCK NOUTER GCOFF
#   CLOCK  busec (reads of /dev/busec through sys->read, microseconds),
#          microsec (bench->microsec()) or nsec (bench->nsec())
#   GCOFF  1: the loop runs between bench->disablegc() and enablegc()
# Prints NOUTER differences t1-t0 in the clock's own unit on one line.

include "sys.m";
	sys: Sys;
include "draw.m";
include "bench.m";
	bench: Bench;

BenchBase: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};

tsfd: ref Sys->FD;

# The paper's treset()/tstamp(): a write resets /dev/busec to zero.
treset()
{
	fd := sys->open("/dev/busec", Sys->OWRITE);
	if(fd != nil) {
		buf := array[1] of byte;
		sys->write(fd, buf, len buf);
	}
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

init(nil: ref Draw->Context, args: list of string)
{
	sys = load Sys Sys->PATH;
	bench = load Bench Bench->PATH;
	args = tl args;
	clock := hd args;
	args = tl args;
	nouter := int hd args;
	args = tl args;
	gcoff := int hd args;
	if(nouter < 1)
		nouter = 1;

	obs := array[nouter] of big;
	t0, t1: big;
	if(gcoff)
		bench->disablegc();
	case clock {
	"busec" =>
		treset();
		for(i := 0; i < nouter; i++) {
			t0 = tstamp();
			t1 = tstamp();
			obs[i] = t1 - t0;
		}
	"microsec" =>
		bench->reset();
		for(i := 0; i < nouter; i++) {
			t0 = bench->microsec();
			t1 = bench->microsec();
			obs[i] = t1 - t0;
		}
	* =>
		bench->reset();
		for(i := 0; i < nouter; i++) {
			t0 = bench->nsec();
			t1 = bench->nsec();
			obs[i] = t1 - t0;
		}
	}
	if(gcoff)
		bench->enablegc();
	for(i := 0; i < nouter; i++)
		sys->print(" %bd", obs[i]);
	sys->print("\n");
}
