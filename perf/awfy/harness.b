implement Harness;

# The Are-We-Fast-Yet harness: harness NAME [OUTER [INNER]] loads the
# benchmark module NAME.dis (NAME in lower case, from the current directory),
# runs OUTER measured iterations of INNER benchmark runs each and prints the
# lines the suite's other harnesses print (times in microseconds). A wrong
# result is reported on stderr and ends the program with an exception, so
# the exit status is not 0.

include "sys.m";
	sys: Sys;
include "draw.m";
include "bench.m";
	bench: Bench;
include "benchmark.m";

Harness: module
{
	init:	fn(nil: ref Draw->Context, args: list of string);
};

init(nil: ref Draw->Context, args: list of string)
{
	sys = load Sys Sys->PATH;
	bench = load Bench Bench->PATH;
	if(args != nil)
		args = tl args;
	if(args == nil) {
		sys->fprint(sys->fildes(2), "usage: harness benchmark [num-iterations [inner-iter]]\n");
		raise "fail:usage";
	}
	name := hd args;
	outer := inner := 1;
	if(tl args != nil) {
		outer = int hd tl args;
		if(tl tl args != nil)
			inner = int hd tl tl args;
	}
	b := load Benchmark lower(name) + ".dis";
	if(b == nil) {
		sys->fprint(sys->fildes(2), "harness: cannot load %s.dis: %r\n", lower(name));
		raise "fail:load";
	}
	sys->print("Starting %s benchmark ...\n", name);
	total := big 0;
	for(i := 0; i < outer; i++) {
		start := bench->microsec();
		if(b->inner_benchmark_loop(inner) == 0) {
			sys->fprint(sys->fildes(2), "%s: Benchmark failed with incorrect result\n", name);
			raise "fail:verify";
		}
		t := bench->microsec() - start;
		sys->print("%s: iterations=1 runtime: %bdus\n", name, t);
		total += t;
	}
	sys->print("%s: iterations=%d average: %bdus total: %bdus\n\n", name, outer, total / big outer, total);
	sys->print("Total Runtime: %bdus\n", total);
}

lower(s: string): string
{
	for(i := 0; i < len s; i++)
		if(s[i] >= 'A' && s[i] <= 'Z')
			s[i] += 'a' - 'A';
	return s;
}
