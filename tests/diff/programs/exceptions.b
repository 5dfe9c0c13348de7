# Exceptions: exact and prefix patterns, the wildcard, propagation through
# calls, re-raise from a handler, run-time errors as strings, nested
# handlers, and the frame's locals after a catch.
implement Exceptions;
include "sys.m";
	sys: Sys;
include "draw.m";
Exceptions: module { init: fn(nil: ref Draw->Context, nil: list of string); };

deep(n: int)
{
	if(n == 0)
		raise "fail:deep bottom";
	deep(n - 1);
}

classify(s: string): string
{
	{
		raise s;
	} exception e {
	"exact" =>
		return "exact " + e;
	"pre*" =>
		return "prefix " + e;
	"*" =>
		return "star " + e;
	}
	return "none";
}

rethrow()
{
	{
		raise "inner";
	} exception {
	"inner" =>
		raise "outer";
	}
}

init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;
	sys->print("%s|%s|%s\n", classify("exact"), classify("prefixed"), classify("other"));
	{
		deep(50);
	} exception e {
	"fail:*" =>
		sys->print("propagated %s\n", e);
	}
	{
		rethrow();
	} exception e {
	"outer" =>
		sys->print("rethrown %s\n", e);
	}
	a := array[2] of int;
	i := 5;
	{
		a[i] = 1;
	} exception e {
	"array bounds error" =>
		sys->print("bounds %s\n", e);
	}
	z := 0;
	{
		sys->print("%d\n", 1 / z);
	} exception e {
	"*" =>
		sys->print("divide caught\n");
	}
	count := 0;
	for(k := 0; k < 3; k++){
		{
			if(k == 1)
				raise "skip";
			count += 10;
		} exception {
		"skip" =>
			count++;
		}
	}
	sys->print("loop %d\n", count);
	{
		{
			raise "level2";
		} exception e {
		"level1" =>
			sys->print("wrong %s\n", e);
		}
	} exception e {
	"level*" =>
		sys->print("outer got %s\n", e);
	}
}
