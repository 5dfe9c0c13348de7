# print formats: widths, precision, flags, verbs for int, big, real,
# string, character; %% and %r.
implement Formats;
include "sys.m";
	sys: Sys;
include "draw.m";
Formats: module { init: fn(nil: ref Draw->Context, nil: list of string); };

init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;
	sys->print("[%5d][%-5d][%05d][%+d]\n", 42, 42, 42, 42);
	sys->print("[%x][%#x][%8.3d][%ud]\n", 3054, 3054, 7, -1);
	sys->print("[%bd][%20bd][%bx]\n", big -12345678901, big 1 << 62, big 255);
	sys->print("[%f][%.2f][%e][%.3e]\n", 3.14159, 2.675, 1234.5, 0.000123456);
	sys->print("[%g][%g][%g][%g]\n", 100000.0, 1000000.0, 0.0001, 0.00001);
	sys->print("[%10.4f][%-10.1f][%G]\n", 3.14159, 2.5, 1e-10);
	sys->print("[%s][%10s][%-10s][%.2s]\n", "abc", "right", "left", "truncate");
	sys->print("[%c][%c][%q][%q]\n", 'A', 16r3b1, "plain", "needs quote");
	sys->print("[%%][%d%%]\n", 50);
	s := sys->sprint("%d-%s-%g", 1, "two", 3.0);
	sys->print("sprint %s %d\n", s, len s);
	sys->werrstr("custom error");
	sys->print("errstr %r\n");
	b := sys->aprint("%c%c", 'h', 'i');
	sys->print("aprint %d %s\n", len b, string b);
}
