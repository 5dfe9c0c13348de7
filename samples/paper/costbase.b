implement CostBase;

# The loop the paper costs ("cost -f bench.b -s bench"): ten times BASE's
# 1000 repetitions of two consecutive timestamps, each read from /dev/busec
# through sys->read, as the paper's tstamp() does. Prints the paper's
# summary line: BASE:summary:Sample:n:Time:us n mean min max std. The loop
# runs over a live heap of LIVE blocks, as samples/paper/suite/base.b does
# (run.sh sets LIVE).

include "sys.m";
	sys: Sys;
include "draw.m";
include "math.m";
	math: Math;

CostBase: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};

NREP: con 1000;
LIVE: con 50000;
heap: array of array of int;
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

init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;
	math = load Math Math->PATH;
	heap = array[LIVE] of array of int;
	for(i := 0; i < LIVE; i++)
		heap[i] = array[2] of int;
	t0, t1: big;
	obs := array[NREP*10] of big;
	treset();
	for(i = 0; i < NREP*10; i++) {
		t0 = tstamp();
		t1 = tstamp();
		obs[i] = t1 - t0;
	}
	sum := 0.0;
	lo := obs[0];
	hi := lo;
	for(i = 0; i < len obs; i++) {
		sum += real obs[i];
		if(obs[i] < lo)
			lo = obs[i];
		if(obs[i] > hi)
			hi = obs[i];
	}
	mean := sum / real len obs;
	ss := 0.0;
	for(i = 0; i < len obs; i++) {
		d := real obs[i] - mean;
		ss += d * d;
	}
	std := math->sqrt(ss / real len obs);
	sys->print("BASE:summary:Sample:n:Time:us %d %g %bd %bd %g\n", len obs, mean, lo, hi, std);
}
