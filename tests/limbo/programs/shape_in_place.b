# Values written where they go, as Inferno's compiler writes them: a pointer
# declared without a value in a loop starts nil every time round (the block's
# ends, break and continue reset it), alt arms' names are reset at the arm's
# end, tuples declared in place (also reading a name of the same block), sends
# on a channel in a field, a call's result into an array element, list
# elements computed in order, `--i` read as a copy, nil fields of a new object,
# small functions inlined inside inlined ones (not mutually recursive ones),
# an inlined function's slice argument taken again at each use, a variant's
# ref returned straight into its adt's ref, constant tests decided when compiled.
implement S;
include "sys.m";
	sys: Sys;
include "draw.m";
S: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};
N: adt { s: string; l: list of string; n: int; next: ref N; };
R: adt { reply: chan of string; };
V: adt {
	n: int;
	pick {
	A => s: string;
	B => m: int;
	}
};
mka(n: int): ref V.A
{
	n++;
	return ref V.A(n, "a" + string n);
}
mkv(n: int): ref V
{
	if(n > 0)
		return mka(n);
	return ref V.B(n, -n);
}
order := "";
pair(s: string, n: int): (string, int)
{
	order += s;
	return (s + s, n + 1);
}
note(s: string): string
{
	order += s;
	return s;
}
bump(a: array of string, i: int): string
{
	a[i] = "lost";
	return "kept" + string i;
}
islo(c: int): int
{
	return c >= 'a' && c <= 'z';
}
isup(c: int): int
{
	return c >= 'A' && c <= 'Z';
}
isal(c: int): int
{
	return islo(c) || isup(c);
}
l16(p: array of byte): int
{
	return int p[0] | (int p[1] << 8);
}
even(n: int): int
{
	if(n == 0)
		return 1;
	return odd(n - 1);
}
odd(n: int): int
{
	if(n == 0)
		return 0;
	return even(n - 1);
}
init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;
	seen := "";
	for(i := 0; i < 4; i++){
		p: string;
		if(p != nil)
			seen += "!" + p;
		{
			q: ref N;
			if(q != nil)
				seen += "?";
			q = ref N("q", nil, i, nil);
			if(i == 1)
				continue;
			if(i == 3)
				break;
		}
		case i {
		0 =>
			c: string;
			seen += "[" + c + "]";
			c = "c";
		* =>
			p = "x";
		}
		seen += string i;
		p = "p" + string i;
	}
	sys->print("%s\n", seen);

	c := chan[1] of string;
	r := ref R(c);
	for(k := 0; k < 2; k++){
		r.reply <-= "v" + string k;
		alt{
		s := <-c =>
			sys->print("got %s\n", s);
		}
	}

	x := "x";
	{
		y := "y";
		(a, b) := pair(y, 1);
		(y, b) = pair(a, b);
		sys->print("%s %d %s %s\n", a, b, y, x);
	}
	l := list of {note("1"), note("2"), note("3")};
	sys->print("order %s, list %s %s %s\n", order, hd l, hd tl l, hd tl tl l);

	arr := array[2] of {"a", "b"};
	arr[1] = bump(arr, 1);
	sys->print("%s %s\n", arr[0], arr[1]);

	j := 3;
	v := arr[--j - 1];
	w := --j;
	sys->print("%s %d %d\n", v, w, j);

	n := ref N(nil, nil, 7, ref N("in", "a" :: nil, 8, nil));
	sys->print("%d %d %d %s %d\n", n.s == nil, n.l == nil, n.n, n.next.s, len n.next.l);
	al := "";
	for(t := 0; t < len "aZ1"; t++)
		if(isal("aZ1"[t]))
			al[len al] = "aZ1"[t];
	sys->print("%s %d %d %d %d\n", al, isal('q'), isal('-'), even(7), odd(7));
	bs := array[] of {byte 1, byte 2, byte 3};
	k = 1;
	sys->print("%d %d\n", l16(bs[k:]), l16(bs[k-1:]));
	DEBUG: con 0;
	order = "";
	if(DEBUG)
		order += "d";
	if(1 < 2 || note("x") != nil)
		order += "t";
	if(1 > 2 || note("y") != nil)
		order += "u";
	if(DEBUG && note("z") != nil)
		order += "v";
	while(0)
		order += "w";
	do
		order += "o";
	while(0);
	if(DEBUG >= 1)
		order += "g";
	if("a" < "b" && !(DEBUG != 0))
		order += "s";
	c1 := 1 < 2;
	c2 := DEBUG || 2 > 1;
	sys->print("%s %d %d\n", order, c1, c2);
	for(t = 1; t >= -1; t -= 2)
		pick pv := mkv(t) {
		A => sys->print("A %d %s\n", pv.n, pv.s);
		B => sys->print("B %d %d\n", pv.n, pv.m);
		}
	for(t = 0; t < 2; t++){
		(h, u) := hd (("h" + string t, t) :: nil);
		sys->print("%s %d\n", h, u);
	}
}
# expect: []02
# expect: got v0
# expect: got v1
# expect: yy 3 yyyy x
# expect: order yyy123, list 1 2 3
# expect: a kept1
# expect: kept1 1 1
# expect: 1 1 7 in 1
# expect: aZ 1 0 0 1
# expect: 770 513
# expect: tyuos 1 1
# expect: A 2 a2
# expect: B -1 1
# expect: h0 0
# expect: h1 1
