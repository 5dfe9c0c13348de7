# sys->tokenize of a string of n one-letter words: past the heap limit the
# list it builds runs out of memory part way (gc_test.cpp).
implement TokenizeOom;
include "sys.m";
	sys: Sys;
include "draw.m";
TokenizeOom: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};
init(nil: ref Draw->Context, args: list of string)
{
	sys = load Sys Sys->PATH;
	n := int hd tl args;
	b := array[2*n] of byte;
	for(i := 0; i < n; i++){
		b[2*i] = byte 'a';
		b[2*i+1] = byte ' ';
	}
	s := string b;
	b = nil;
	(c, nil) := sys->tokenize(s, " ");
	sys->print("%d\n", c);
}
