implement Strings;

# String building and int/string conversion: string of int, int of string,
# concatenation, len and indexing; a 64-bit (big) checksum.
# Usage: strings [iterations]   (iterations below 300000000)

include "sys.m";
	sys: Sys;
include "draw.m";

Strings: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};

init(nil: ref Draw->Context, args: list of string)
{
	sys = load Sys Sys->PATH;

	n := 3800000;	# default size
	if(args != nil && tl args != nil)
		n = int hd tl args;
	total := big 0;
	line := "";
	for(i := 0; i < n; i++) {
		s := string (i * 7);
		total += big (int s + len s);
		line += s + ",";
		if(len line > 64) {
			total += big line[len line - 2];
			line = "";
		}
	}
	sys->print("strings %d: %bd %d\n", n, total, len line);
}
