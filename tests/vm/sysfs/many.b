implement Many;

# dirread returns a large directory in several chunks, then 0: every one of
# N created files comes back exactly once.

include "sys.m";
	sys: Sys;
include "draw.m";

Many: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};

init(nil: ref Draw->Context, args: list of string)
{
	sys = load Sys Sys->PATH;
	args = tl args;
	root := hd args;
	n := int hd tl args;
	for(i := 0; i < n; i++){
		fd := sys->create(sys->sprint("%s/file%04d", root, i), Sys->OWRITE, 8r644);
		if(fd == nil){
			sys->print("create: %r\n");
			return;
		}
		b := array[i % 7] of { * => byte 'x' };
		sys->write(fd, b, len b);
	}
	seen := array[n] of { * => 0 };
	fd := sys->open(root, Sys->OREAD);
	chunks := 0;
	total := 0;
	bad := 0;
	for(;;){
		(k, dirs) := sys->dirread(fd);
		if(k <= 0){
			sys->print("last dirread: %d\n", k);
			break;
		}
		chunks++;
		for(j := 0; j < k; j++){
			d := dirs[j];
			i = int d.name[4:];
			if(d.name[0:4] != "file" || i < 0 || i >= n || d.length != big (i % 7))
				bad++;
			else
				seen[i]++;
			total++;
		}
	}
	once := 0;
	for(i = 0; i < n; i++)
		if(seen[i] == 1)
			once++;
	sys->print("entries %d, each once %d, bad %d, several chunks %d\n", total, once, bad, chunks > 1);
}
