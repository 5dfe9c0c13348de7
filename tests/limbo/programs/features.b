# Value adts in arrays, lists and channels; byte, big and real ops;
# do/continue; handlers in loops; re-raise; copy-on-write strings.
implement Feat;
include "sys.m";
	sys: Sys;
include "draw.m";
Feat: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};
Pt: adt { x, y: int; };
Seg: adt { a, b: Pt; name: string; length: fn(s: self Seg): int; };
Seg.length(s: self Seg): int { return (s.b.x - s.a.x) + (s.b.y - s.a.y); }
mk(i: int): (int, string) { return (i, "s" + string i); }
thrower(n: int) { if(n > 1) raise "deep:" + string n; }
init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;
	pts := array[3] of Pt;
	for(i := 0; i < len pts; i++) { pts[i].x = i; pts[i].y = i * i; }
	pts[1] = Pt(7, 8);
	sys->print("pts %d,%d %d,%d %d,%d\n", pts[0].x, pts[0].y, pts[1].x, pts[1].y, pts[2].x, pts[2].y);	# expect: pts 0,0 7,8 2,4
	s := Seg(Pt(1, 2), Pt(4, 6), "seg");
	s.b.x += 10;
	sys->print("seg %s len %d bx %d\n", s.name, s.length(), s.b.x);	# expect: seg seg len 17 bx 14
	tup := array[2] of (int, string);
	tup[1] = mk(5);
	(n, str) := tup[1];
	sys->print("tup %d %s\n", n, str);	# expect: tup 5 s5
	l := Pt(1, 1) :: Pt(2, 2) :: nil;
	p := hd tl l;
	sys->print("list pt %d %d len %d\n", p.x, p.y, len l);	# expect: list pt 2 2 len 2
	sl := Seg(Pt(0,0), Pt(1,1), "a") :: nil;
	sys->print("seg list %s %d\n", (hd sl).name, (hd sl).length());	# expect: seg list a 2
	c := chan[2] of Seg;
	c <-= s;
	r := <-c;
	sys->print("chan seg %s %d\n", r.name, r.a.y);	# expect: chan seg seg 2
	b := byte 200;
	b += byte 100;
	b <<= 1;
	sys->print("byte %d\n", int b);	# expect: byte 88
	bg := big 1;
	bg <<= 40;
	bg |= big 5;
	sys->print("big %bd\n", bg);	# expect: big 1099511627781
	x := 2.0 ** 10;
	sys->print("real pow %g\n", x);	# expect: real pow 1024
	k := 0;
	do {
		k++;
		if(k % 2 == 0)
			continue;
		k += 10;
	} while(k < 30);
	sys->print("k %d\n", k);	# expect: k 35
	es := "";
	for(i = 0; i < 4; i++) {
		{
			thrower(i);
			es += "ok" + string i + " ";
		} exception e {
		"deep:*" => es += e + " ";
		}
	}
	sys->print("%s\n", es);	# expect: ok0 ok1 deep:2 deep:3 
	{
		{
			raise "again";
		} exception {
		"again" => raise;
		}
	} exception e2 {
	* => sys->print("reraised %s\n", e2);	# expect: reraised again
	}
	nilstr: string;
	sys->print("nil string %d %d len %d\n", nilstr == nil, nilstr == "", len nilstr);	# expect: nil string 1 1 len 0
	q := "abc";
	q[1] = 'X';
	q2 := q;
	q2[0] = 'Y';
	sys->print("%s %s\n", q, q2);	# expect: aXc YXc
	arr := array[] of {"b", "a", "c"};
	arr2 := arr[1:];
	arr2[0] = "Z";
	sys->print("%s %s %d\n", arr[1], arr2[1], len arr2);	# expect: Z c 2
	m := 5;
	m = m++ + m;
	sys->print("m %d\n", m);	# expect: m 11
	lst: list of string;
	lst = "x" :: lst;
	lst = "y" :: lst;
	sys->print("%s %s\n", hd lst, hd tl lst);	# expect: y x
out:
	for(;;) {
		case 3 {
		3 => break out;
		}
		sys->print("not reached\n");
	}
	sys->print("done\n");	# expect: done
	exit;
}
