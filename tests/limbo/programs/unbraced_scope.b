# Only braces open a scope: a name declared in an unbraced if, else, loop
# or arm body belongs to the enclosing block (Inferno's look.b, sleep.b and
# forty others rely on `if(c) x := 1; else x = 0;`); a braced block still
# hides its names.
implement UnbracedScope;
include "sys.m";
	sys: Sys;
include "draw.m";
UnbracedScope: module {
	init: fn(nil: ref Draw->Context, args: list of string);
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
	sys->print("%s %s\n", choose(1), choose(0));	# expect: then else
	if(len "ab" > 1)
		x := 1;
	else
		x = 0;
	sys->print("%d\n", x);	# expect: 1
	if(len "ab" > 5)
		s := "long";
	else
		s = "short";
	sys->print("%s\n", s);	# expect: short
	for(i := 0; i < 3; i++)
		last := i * 10;
	sys->print("%d %d\n", i, last);	# expect: 3 20
	while(i > 0)
		n := i--;
	sys->print("%d\n", n);	# expect: 1
	z := 1;
	{
		z := 2;
		z++;
	}
	sys->print("%d\n", z);	# expect: 1
	{
		inner := 5;
		inner++;
	}
	inner := "outer";
	sys->print("%s\n", inner);	# expect: outer
}
