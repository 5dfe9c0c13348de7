# An inlined method whose argument is a field read through an indexed
# element (a[1].vec) and used twice in the body: each use reads the same
# value. The shape4 branch read .vec back into the temporary that held
# a[1], reset it, and read the second use through nil (perf/awfy's Havlak
# and Json).
implement IFA;
include "sys.m";
	sys: Sys;
include "draw.m";
IFA: module {
	init: fn(nil: ref Draw->Context, nil: list of string);
};
V: adt {
	first, last: int;
	size: fn(v: self ref V): int;
};
H: adt {
	vec: ref V;
	n: int;
};
V.size(v: self ref V): int
{
	return v.last - v.first;
}
init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;
	h := ref H(ref V(1, 5), 3);
	a := array[2] of ref H;
	a[1] = h;
	t := 0;
	for(i := 0; i < 3; i++)
		t += a[1].vec.size() + h.vec.size();
	sys->print("%d\n", t);
	if(a[1].vec.size() > 2 && h.vec.size() < 10)
		sys->print("ok\n");
}
# expect: 24
# expect: ok
