# Control flow: do/while, labelled loops, case with ranges, nested
# exceptions with a re-raise, and spawn with a channel.
implement Statements;
include "sys.m";
	sys: Sys;
include "draw.m";
Statements: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};
worker(c: chan of int, n: int)
{
	for(i := 0; i < n; i++)
		c <-= i;
	c <-= -1;
}
init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;
	n := 0;
	do n++; while(n < 5);
	sys->print("n %d\n", n);	# expect: n 5
	hits := 0;
outer:
	for(i := 0; i < 10; i++)
		for(j := 0; j < 10; j++) {
			if(j > i)
				continue outer;
			if(i * j > 20)
				break outer;
			hits++;
		}
	sys->print("hits %d\n", hits);	# expect: hits 20
	words := "";
	for(k := 0; k < 4; k++)
		case k * 10 {
		0 => words += "zero ";
		5 to 15 => words += "low ";
		* => words += "high ";
		}
	sys->print("[%s]\n", words);	# expect: [zero low high high ]
	{
		{
			raise "inner";
		} exception e {
		"inner" => raise "outer:" + e;
		}
	} exception e {
	"outer:*" => sys->print("caught %s\n", e);	# expect: caught outer:inner
	}
	c := chan of int;
	spawn worker(c, 4);
	sum := 0;
	while((v := <-c) >= 0)
		sum += v;
	sys->print("sum %d\n", sum);	# expect: sum 6
}
