# Only braces open a scope: a name declared by an unbraced if, else, while
# or for body belongs to the enclosing block (Inferno's look.b, sleep.b and
# forty others rely on it); a braced block still hides its names.
implement S;
include "sys.m";
	sys: Sys;
include "draw.m";
S: module {
	init: fn(nil: ref Draw->Context, nil: list of string);
};
choose(r: int): string
{
	if(r)
		s := "then";
	else
		s = "else";
	return s;
}
init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;
	sys->print("%s %s\n", choose(1), choose(0));
	# expect: then else
	for(i := 0; i < 3; i++)
		k := i * 10;
	sys->print("%d %d\n", i, k);
	# expect: 3 20
	z := 1;
	{
		z := 2;
		z++;
	}
	sys->print("%d\n", z);
	# expect: 1
}
