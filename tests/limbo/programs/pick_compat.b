# Pick variants as Inferno's tcompat takes them: two variants of one adt
# with the same fields are one type (spki.b's Keyrep.PK and Keyrep.SK, both
# empty), and a list of ref A takes a list of ref A.X (infauth.b).
implement PickCompat;
include "sys.m";
	sys: Sys;
include "draw.m";
PickCompat: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};
Key: adt {
	alg: string;
	pick {
	PK =>
	SK =>
	Named =>
		name: string;
	}
};
names(l: list of ref Key): string
{
	s := "";
	for(; l != nil; l = tl l)
		s += "[" + (hd l).alg + ":" + string tagof hd l + "]";
	return s;
}
init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;
	k := ref Key.PK("rsa");
	sys->print("%s %d\n", k.alg, tagof k);	# expect: rsa 0
	k = ref Key.SK("dsa");
	sys->print("%s %d\n", k.alg, tagof k);	# expect: dsa 1
	sks := ref Key.SK("a") :: ref Key.SK("b") :: nil;
	sys->print("%s\n", names(sks));	# expect: [a:1][b:1]
}
