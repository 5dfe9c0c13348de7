implement Ptrarray;

# Arrays of pointers: filled, overwritten, sliced and dropped; a cycle runs
# through an array.

include "sys.m";
	sys: Sys;
include "draw.m";

Ptrarray: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};

Box: adt {
	v: int;
	peers: cyclic array of ref Box;
};

init(nil: ref Draw->Context, args: list of string)
{
	sys = load Sys Sys->PATH;
	rounds := 30;
	size := 2000;
	if(tl args != nil){
		rounds = int hd tl args;
		if(tl tl args != nil)
			size = int hd tl tl args;	# at least 200
	}
	total := 0;
	for(round := 0; round < rounds; round++){
		a := array[size] of ref Box;
		for(i := 0; i < len a; i++)
			a[i] = ref Box(i, nil);
		for(i = 0; i < len a; i += 3)
			a[i] = ref Box(-i, a);	# a cycle through the array
		b := a[100:200];
		s := 0;
		for(i = 0; i < len b; i++)
			s += b[i].v;
		strs := array[500] of string;
		for(i = 0; i < len strs; i++)
			strs[i] = "s" + string (i * round);
		total += s + len strs[499];
	}
	sys->print("total %d\n", total);
}
