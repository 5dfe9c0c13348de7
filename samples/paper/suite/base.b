implement BenchBase;

# BASE as samples/bench-suite/base.b (same arguments, same output), run over
# a live heap of LIVE blocks: the stand-in for the heap of a running Inferno
# system, which the paper's idle collector had to walk (three epochs of it
# per idle episode). samples/paper/run.sh sets LIVE.
# Usage: base CLOCK NOUTER GCOFF

include "sys.m";
	sys: Sys;
include "draw.m";
include "bench.m";
	bench: Bench;

BenchBase: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};

LIVE: con 100000;
heap: array of array of int;
tsfd: ref Sys->FD;

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
	# An array of arrays, not a global list built by consing: see README.
	heap = array[LIVE] of array of int;
	for(i := 0; i < LIVE; i++)
		heap[i] = array[2] of int;

	obs := array[nouter] of big;
	t0, t1: big;
	if(gcoff)
		bench->disablegc();
	case clock {
	"busec" =>
		treset();
		for(i = 0; i < nouter; i++) {
			t0 = tstamp();
			t1 = tstamp();
			obs[i] = t1 - t0;
		}
	"microsec" =>
		bench->reset();
		for(i = 0; i < nouter; i++) {
			t0 = bench->microsec();
			t1 = bench->microsec();
			obs[i] = t1 - t0;
		}
	* =>
		bench->reset();
		for(i = 0; i < nouter; i++) {
			t0 = bench->nsec();
			t1 = bench->nsec();
			obs[i] = t1 - t0;
		}
	}
	if(gcoff)
		bench->enablegc();
	for(i = 0; i < nouter; i++)
		sys->print(" %bd", obs[i]);
	sys->print("\n");
}
