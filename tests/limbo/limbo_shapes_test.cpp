// Code shapes found by comparing our modules with Inferno's compiler's output
// (issue 34, perf/conformance.py): each listing is the whole code of a small
// module, so a rule that breaks changes it.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "compiler.h"
#include "disassembler.h"

namespace {

// The instructions of a module's listing, one per line (no directives).
std::string instructions(const std::string& name, const std::string& src) {
  const std::string text = dis::assembly::disassemble(dis::limbo::compile_source(name, src, {}));
  std::istringstream in(text);
  std::string code, line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] != '\t') continue;
    const std::string op = line.substr(1, line.find('\t', 1) - 1);
    if (op == "desc" || op == "link" || op == "entry" || op == "var" || op == "module" ||
        op == "source" || op == "stackext" || op == "flags" || op == "string" || op == "word")
      continue;
    code += line + "\n";
  }
  return code;
}

// `if(0)` leaves nothing (no jmp over the dropped body); `m := "m" :: nil`
// is built in a temporary and moved, `l = "x" :: l` conses onto l; `put(<-c)`
// receives into the argument's slot; a constant too wide for the middle
// operand goes through the scratch word 24(fp) when the result goes
// elsewhere; `(ok, d) = stat(ok)` writes the tuple `(ok, d) :=` laid out in
// place, whose last name's pointers are reset twice when its block is left;
// an exception's value is computed into its field.
TEST(LimboShapes, InfernoShapesOfIssue34) {
  const std::string src = R"(implement T;
T: module {
	D: adt { name, uid: string; n: int; };
	run: fn(c: chan of int, l: list of string, x: int): int;
	put: fn(n: int): int;
	stat: fn(i: int): (int, D) raises E;
};
E: exception(string);
put(n: int): int
{
	n++;
	return n;
}
stat(i: int): (int, D) raises E
{
	if(i > 2)
		raise E(string put(i));
	return (i, D("a", "b", i));
}
run(c: chan of int, l: list of string, x: int): int
{
	if(0)
		x++;
	m := "m" :: nil;
	l = "x" :: l;
	n := put(<-c);
	y := (x >> 8) & 16rFFFFFF;
	for(j := 0; j < 2; j++){
		(ok, d) := stat(j);
		while(ok < 1)
			(ok, d) = stat(ok);
		n += int d.n;
	}
	return n + y + len m + len l;
}
)";
  EXPECT_EQ(instructions("t.b", src),
            "\taddw\t$1,32(fp)\n"
            "\tmovw\t32(fp),0(16(fp))\n"
            "\tret\t\n"
            "\tbgew\t$2,32(fp),$13\n"
            "\tnew\t$4,36(fp)\n"
            "\tmovp\t0(mp),0(36(fp))\n"
            "\tmovw\t$0,4(36(fp))\n"
            "\tframe\t$1,40(fp)\n"
            "\tmovw\t32(fp),32(40(fp))\n"
            "\tlea\t44(fp),16(40(fp))\n"
            "\tcall\t40(fp),$0\n"
            "\tcvtwc\t44(fp),8(36(fp))\n"
            "\traise\t36(fp)\n"
            "\tmovw\t32(fp),0(16(fp))\n"
            "\tmovp\t4(mp),4(16(fp))\n"
            "\tmovp\t8(mp),8(16(fp))\n"
            "\tmovw\t32(fp),12(16(fp))\n"
            "\tret\t\n"
            "\tmovp\t$-1,48(fp)\n"
            "\tconsp\t12(mp),48(fp)\n"
            "\tmovp\t48(fp),44(fp)\n"
            "\tmovp\t$-1,48(fp)\n"
            "\tconsp\t20(mp),36(fp)\n"
            "\tframe\t$1,56(fp)\n"
            "\trecv\t32(fp),32(56(fp))\n"
            "\tlea\t52(fp),16(56(fp))\n"
            "\tcall\t56(fp),$0\n"
            "\tshrw\t$8,40(fp),56(fp)\n"
            "\tmovw\t$16777215,24(fp)\n"
            "\tandw\t56(fp),24(fp),60(fp)\n"
            "\tmovw\t$0,64(fp)\n"
            "\tblew\t$2,64(fp),$49\n"
            "\tframe\t$2,56(fp)\n"
            "\tmovw\t64(fp),32(56(fp))\n"
            "\tlea\t68(fp),16(56(fp))\n"
            "\tcall\t56(fp),$3\n"
            "\tblew\t$1,68(fp),$42\n"
            "\tframe\t$2,56(fp)\n"
            "\tmovw\t68(fp),32(56(fp))\n"
            "\tlea\t68(fp),16(56(fp))\n"
            "\tcall\t56(fp),$3\n"
            "\tjmp\t$36\n"
            "\taddw\t80(fp),52(fp)\n"
            "\tmovp\t$-1,72(fp)\n"
            "\tmovp\t$-1,76(fp)\n"
            "\tmovp\t$-1,72(fp)\n"
            "\tmovp\t$-1,76(fp)\n"
            "\taddw\t$1,64(fp)\n"
            "\tjmp\t$31\n"
            "\taddw\t60(fp),52(fp),56(fp)\n"
            "\tlenl\t44(fp),84(fp)\n"
            "\taddw\t84(fp),56(fp),56(fp)\n"
            "\tlenl\t36(fp),84(fp)\n"
            "\taddw\t84(fp),56(fp),0(16(fp))\n"
            "\tret\t\n");
}

// A conversion to its operand's own type computes into the destination
// (the field); a comparison's right operand, an element read through the
// index temporary, is copied out at once so the left one reuses it.
TEST(LimboShapes, ConversionInPlaceAndSettledCompare) {
  const std::string src = R"(implement U;
U: module {
	R: adt { n: int; };
	eq: fn(a, b: array of byte, r: ref R, x: int): int;
};
eq(a, b: array of byte, r: ref R, x: int): int
{
	r.n = int (x | 1);
	for(i := 0; i < len a; i++)
		if(a[i] != b[i])
			return 0;
	return 1;
}
)";
  EXPECT_EQ(instructions("u.b", src),
            "\torw\t$1,44(fp),0(40(fp))\n"
            "\tmovw\t$0,48(fp)\n"
            "\tlena\t32(fp),52(fp)\n"
            "\tblew\t52(fp),48(fp),$12\n"
            "\tindb\t36(fp),52(fp),48(fp)\n"
            "\tmovb\t0(52(fp)),56(fp)\n"
            "\tindb\t32(fp),52(fp),48(fp)\n"
            "\tbeqb\t0(52(fp)),56(fp),$10\n"
            "\tmovw\t$0,0(16(fp))\n"
            "\tret\t\n"
            "\taddw\t$1,48(fp)\n"
            "\tjmp\t$2\n"
            "\tmovw\t$1,0(16(fp))\n"
            "\tret\t\n");
}

// `(i, j, k) := (0, 1, 2)` puts each value straight into its name; the
// names of a tuple laid out in place, as a tuple, are that tuple: copied
// whole into a temporary to be sent, whole into the result.
TEST(LimboShapes, TupleOfNamesLaidOutInPlace) {
  const std::string src = R"(implement V;
V: module {
	f: fn(c: chan of (int, string)): (int, string);
	g: fn(n: int): (int, string);
};
g(n: int): (int, string)
{
	n++;
	return (n, "g");
}
f(c: chan of (int, string)): (int, string)
{
	(i, j, k) := (0, 1, 2);
	(a, s) := g(i + j + k);
	c <-= (a, s);
	return (a, s);
}
)";
  EXPECT_EQ(instructions("v.b", src),
            "\taddw\t$1,32(fp)\n"
            "\tmovw\t32(fp),0(16(fp))\n"
            "\tmovp\t0(mp),4(16(fp))\n"
            "\tret\t\n"
            "\tmovw\t$0,36(fp)\n"
            "\tmovw\t$1,40(fp)\n"
            "\tmovw\t$2,44(fp)\n"
            "\tframe\t$1,56(fp)\n"
            "\taddw\t40(fp),36(fp),60(fp)\n"
            "\taddw\t44(fp),60(fp),32(56(fp))\n"
            "\tlea\t48(fp),16(56(fp))\n"
            "\tcall\t56(fp),$0\n"
            "\tmovmp\t48(fp),$3,64(fp)\n"
            "\tsend\t64(fp),32(fp)\n"
            "\tmovp\t$-1,68(fp)\n"
            "\tmovmp\t48(fp),$3,0(16(fp))\n"
            "\tret\t\n");
}

// A channel is made in the field it goes to; `t: string = nil` sets t where
// it is, while `s: string = s + "x"` (reading the outer s) still goes
// through a temporary.
TEST(LimboShapes, ChannelInFieldAndDeclaredValueInPlace) {
  const std::string src = R"(implement X;
X: module {
	R: adt { c: chan of int; s: string; };
	f: fn(s: string): ref R;
};
f(s: string): ref R
{
	r := ref R;
	r.c = chan[1] of int;
	t: string = nil;
	s: string = s + "x";
	r.s = s + t;
	return r;
}
)";
  EXPECT_EQ(instructions("x.b", src),
            "\tnew\t$2,36(fp)\n"
            "\tnewcw\t$1,0(36(fp))\n"
            "\tmovp\t$-1,40(fp)\n"
            "\taddc\t4(mp),32(fp),44(fp)\n"
            "\tmovp\t44(fp),48(fp)\n"
            "\tmovp\t$-1,44(fp)\n"
            "\taddc\t40(fp),48(fp),4(36(fp))\n"
            "\tmovp\t36(fp),0(16(fp))\n"
            "\tret\t\n");
}

// A tuple consed onto a list is reset once the list is delivered, before
// the list's temporary; a tuple result nobody takes is reset; an inlined
// function's `hd l` or `hd tl l` argument is taken again at each use.
TEST(LimboShapes, TupleTemporariesResetAndListPathsInlined) {
  const std::string src = R"(implement Y;
Y: module {
	pairs: fn(a: list of string, n: int): list of (string, int);
	drop: fn(l: list of string): int;
};
pairs(a: list of string, n: int): list of (string, int)
{
	if(a == nil)
		return nil;
	return (hd a, n) :: pairs(tl a, n + 1);
}
two(s: string): (string, int)
{
	return (s, len s);
}
twice(s: string): string
{
	return s + s;
}
drop(l: list of string): int
{
	two(hd l);
	return len twice(hd tl l);
}
)";
  EXPECT_EQ(instructions("y.b", src),
            "\tbnew\t32(fp),$-1,$3\n"
            "\tmovp\t$-1,0(16(fp))\n"
            "\tret\t\n"
            "\theadp\t32(fp),40(fp)\n"
            "\tmovw\t36(fp),44(fp)\n"
            "\tframe\t$1,52(fp)\n"
            "\ttail\t32(fp),32(52(fp))\n"
            "\taddw\t$1,36(fp),36(52(fp))\n"
            "\tlea\t48(fp),16(52(fp))\n"
            "\tcall\t52(fp),$0\n"
            "\tconsmp\t40(fp),$5,48(fp)\n"
            "\tmovp\t48(fp),0(16(fp))\n"
            "\tmovp\t$-1,40(fp)\n"
            "\tmovp\t$-1,48(fp)\n"
            "\tret\t\n"
            "\theadp\t32(fp),36(fp)\n"
            "\theadp\t32(fp),44(fp)\n"
            "\tlenc\t44(fp),40(fp)\n"
            "\tmovp\t$-1,44(fp)\n"
            "\tmovp\t$-1,36(fp)\n"
            "\ttail\t32(fp),44(fp)\n"
            "\theadp\t44(fp),44(fp)\n"
            "\ttail\t32(fp),48(fp)\n"
            "\theadp\t48(fp),48(fp)\n"
            "\taddc\t48(fp),44(fp),44(fp)\n"
            "\tmovp\t$-1,48(fp)\n"
            "\tlenc\t44(fp),0(16(fp))\n"
            "\tmovp\t$-1,44(fp)\n"
            "\tret\t\n");
}

// A for loop's init part is a block of its own: `(i, j, k) := (0, m, 0)`
// there is laid out in place though m is declared in the enclosing block.
TEST(LimboShapes, ForInitTupleLiteralInPlace) {
  const std::string src = R"(implement Z;
Z: module {
	f: fn(r: int): int;
};
f(r: int): int
{
	if(r > 1){
		m := r / 2;
		for((i, j, k) := (0, m, 0); i < m && j < r; k++)
			i++;
		return k;
	}
	return 0;
}
)";
  EXPECT_EQ(instructions("z.b", src),
            "\tbgew\t$1,32(fp),$12\n"
            "\tdivw\t$2,32(fp),36(fp)\n"
            "\tmovw\t$0,40(fp)\n"
            "\tmovw\t36(fp),44(fp)\n"
            "\tmovw\t$0,48(fp)\n"
            "\tbgew\t40(fp),36(fp),$10\n"
            "\tbgew\t44(fp),32(fp),$10\n"
            "\taddw\t$1,40(fp)\n"
            "\taddw\t$1,48(fp)\n"
            "\tjmp\t$5\n"
            "\tmovw\t48(fp),0(16(fp))\n"
            "\tret\t\n"
            "\tmovw\t$0,0(16(fp))\n"
            "\tret\t\n");
}

// `t.id >= len a` tests len against a copy of the field (the left operand
// cannot be the middle one); `s + "/" + "x"` adds "/x", `n >> 0` is n,
// `n*2*3` is `n*6`; `for(n++; ...)` adds without a copy; `~a[n]` takes the
// element as its source; `d1, d2: int = 0` sets d1 and copies it; `i :=
// gl[n] = ref G(d1)` indexes the global in place and reads the element
// back; `tagof p` is read where it is; `hd a[0]` reads the element; a list
// literal is built in a temporary and moved; `(hd l).t0` tested and reset.
TEST(LimboShapes, OperandsWhereInfernosAre) {
  const std::string src = R"(implement S;
S: module {
	T: adt { id: int; };
	P: adt { pick { A => s: string; B => n: int; } };
	f: fn(t: ref T, a: array of int, s: string, n: int): int;
	g: fn(a: array of list of string, l: list of (string, int), p: ref P): string;
};
G: adt { id: int; };
gl: array of ref G;
f(t: ref T, a: array of int, s: string, n: int): int
{
	if(t.id >= len a)
		return 0;
	s = s + "/" + "x";
	n = n >> 0;
	n = n*2*3;
	for(n++; n < 4; n++)
		a[n] = ~a[n];
	d1, d2: int = 0;
	i := gl[n] = ref G(d1);
	return i.id + d2;
}
g(a: array of list of string, l: list of (string, int), p: ref P): string
{
	if(tagof p == 0)
		return hd a[0];
	x := list of {"a", "b"};
	if((hd l).t0 != hd x)
		return nil;
	return "y";
}
)";
  EXPECT_EQ(instructions("s.b", src),
            "\tlena\t36(fp),48(fp)\n"
            "\tmovw\t0(32(fp)),52(fp)\n"
            "\tbgtw\t48(fp),52(fp),$5\n"
            "\tmovw\t$0,0(16(fp))\n"
            "\tret\t\n"
            "\taddc\t12(mp),40(fp),40(fp)\n"
            "\tmulw\t$6,44(fp),44(fp)\n"
            "\taddw\t$1,44(fp)\n"
            "\tblew\t$4,44(fp),$14\n"
            "\tindw\t36(fp),48(fp),44(fp)\n"
            "\tindw\t36(fp),52(fp),44(fp)\n"
            "\txorw\t0(52(fp)),$-1,0(48(fp))\n"
            "\taddw\t$1,44(fp)\n"
            "\tjmp\t$8\n"
            "\tmovw\t$0,56(fp)\n"
            "\tmovw\t56(fp),60(fp)\n"
            "\tindw\t0(mp),48(fp),44(fp)\n"
            "\tnew\t$3,68(fp)\n"
            "\tmovw\t56(fp),0(68(fp))\n"
            "\tmovp\t68(fp),0(48(fp))\n"
            "\tmovp\t$-1,68(fp)\n"
            "\tmovp\t0(48(fp)),64(fp)\n"
            "\taddw\t0(64(fp)),60(fp),0(16(fp))\n"
            "\tret\t\n"
            "\tbnew\t0(40(fp)),$0,$28\n"
            "\tindw\t32(fp),44(fp),$0\n"
            "\theadp\t0(44(fp)),0(16(fp))\n"
            "\tret\t\n"
            "\tmovp\t$-1,52(fp)\n"
            "\tconsp\t20(mp),52(fp)\n"
            "\tconsp\t16(mp),52(fp)\n"
            "\tmovp\t52(fp),48(fp)\n"
            "\tmovp\t$-1,52(fp)\n"
            "\theadp\t48(fp),52(fp)\n"
            "\theadmp\t36(fp),$4,56(fp)\n"
            "\tbeqc\t56(fp),52(fp),$40\n"
            "\tmovp\t$-1,52(fp)\n"
            "\tmovp\t$-1,56(fp)\n"
            "\tmovp\t$-1,0(16(fp))\n"
            "\tret\t\n"
            "\tmovp\t28(mp),0(16(fp))\n"
            "\tret\t\n");
}

// The value of `gl[0] = "x"` is read from the element it was stored in,
// not indexed again; `x := gl[1] = "y"` too.
TEST(LimboShapes, AssignedElementReadBack) {
  const std::string src = R"(implement A;
A: module {
	f: fn(n: int): string;
};
gl: array of string;
f(n: int): string
{
	gl[n] = gl[0] = "x";
	x := gl[1] = "y";
	return x;
}
)";
  EXPECT_EQ(instructions("a.b", src),
            "\tindw\t0(mp),36(fp),32(fp)\n"
            "\tindw\t0(mp),40(fp),$0\n"
            "\tmovp\t4(mp),0(40(fp))\n"
            "\tmovp\t0(40(fp)),0(36(fp))\n"
            "\tindw\t0(mp),36(fp),$1\n"
            "\tmovp\t8(mp),0(36(fp))\n"
            "\tmovp\t0(36(fp)),44(fp)\n"
            "\tmovp\t44(fp),0(16(fp))\n"
            "\tret\t\n");
}

}  // namespace
