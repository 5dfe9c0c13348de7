# Exception adts as Inferno's compiler raises them (our limbo cannot declare
# `exception` yet): {name, pc, value}. A handler's first ne cases name adts,
# the rest are string patterns; an adt nobody handles in the raising
# function or its caller becomes its name string.
#   caseA: the caller names the adt                   -> caught as the adt
#   caseB: the caller has only a string pattern        -> caught as a string
#   caseC: the raiser's own "*" is a string pattern    -> the caller's adt case
#   caseD: two calls up, both kinds of case            -> the string pattern
# thrower(v) at 0
	new	$1,36(fp)
	movp	8(mp),0(36(fp))
	movw	$0,4(36(fp))
	movw	32(fp),8(36(fp))
	raise	36(fp)
	ret
# guarded(v) at 6: raises inside its own handler for "*"
	new	$1,36(fp)
	movp	8(mp),0(36(fp))
	movw	$0,4(36(fp))
	movw	32(fp),8(36(fp))
	raise	36(fp)
	ret
	frame	$4,44(fp)
	movp	16(mp),32(44(fp))
	movp	36(mp),36(44(fp))
	movp	40(fp),40(44(fp))
	lea	48(fp),16(44(fp))
	mcall	44(fp),$0,4(mp)
	ret
# caseA at 19
	frame	$2,36(fp)
	movw	$7,32(36(fp))
	call	36(fp),$0
	ret
	frame	$3,36(fp)
	movp	12(mp),32(36(fp))
	movp	20(mp),36(36(fp))
	movw	8(32(fp)),40(36(fp))
	lea	40(fp),16(36(fp))
	mcall	36(fp),$0,4(mp)
	ret
# caseB at 30
	frame	$2,36(fp)
	movw	$8,32(36(fp))
	call	36(fp),$0
	ret
	frame	$4,36(fp)
	movp	16(mp),32(36(fp))
	movp	24(mp),36(36(fp))
	movp	32(fp),40(36(fp))
	lea	40(fp),16(36(fp))
	mcall	36(fp),$0,4(mp)
	ret
# caseC at 41
	frame	$7,36(fp)
	movw	$9,32(36(fp))
	call	36(fp),$6
	ret
	frame	$3,36(fp)
	movp	12(mp),32(36(fp))
	movp	28(mp),36(36(fp))
	movw	8(32(fp)),40(36(fp))
	lea	40(fp),16(36(fp))
	mcall	36(fp),$0,4(mp)
	ret
# mid at 52
	frame	$2,32(fp)
	movw	$10,32(32(fp))
	call	32(fp),$0
	ret
# caseD at 56
	frame	$6,36(fp)
	call	36(fp),$52
	ret
	frame	$4,36(fp)
	movp	16(mp),32(36(fp))
	movp	32(mp),36(36(fp))
	movp	32(fp),40(36(fp))
	lea	40(fp),16(36(fp))
	mcall	36(fp),$0,4(mp)
	ret
	frame	$3,36(fp)
	movp	12(mp),32(36(fp))
	movp	36(mp),36(36(fp))
	movw	8(32(fp)),40(36(fp))
	lea	40(fp),16(36(fp))
	mcall	36(fp),$0,4(mp)
	ret
# init at 73
	load	0(mp),$0,4(mp)
	frame	$5,40(fp)
	call	40(fp),$19
	frame	$5,40(fp)
	call	40(fp),$30
	frame	$5,40(fp)
	call	40(fp),$41
	frame	$5,40(fp)
	call	40(fp),$56
	ret
	entry	73, 8
	desc	$0,40,"ffc0"
	desc	$1,12,"80"
	desc	$2,40,"0040"
	desc	$3,48,"00c0"
	desc	$4,48,"00e0"
	desc	$5,48,"0080"
	desc	$6,40,""
	desc	$7,56,"0060"
	desc	$8,48,"00c0"
	var	@mp,40
	string	@mp+0,"$Sys"
	string	@mp+8,"Diff.Oops"
	string	@mp+12,"%s adt %d\n"
	string	@mp+16,"%s string %s\n"
	string	@mp+20,"A"
	string	@mp+24,"B"
	string	@mp+28,"C"
	string	@mp+32,"D"
	string	@mp+36,"wrong"
	module	ExcAdt
	link	8,73,0x4244b354,"init"
	ldts	@ldt,1
	word	@ldt+0,1
	ext	@ldt+4,0xac849033,"print"
	exceptions	4
	exception	10, 11, 40, -1, 1, 0
	exctab	"*", 12
	exctab	*, -1
	exception	19, 22, 32, -1, 1, 1
	exctab	"Diff.Oops", 23
	exctab	*, -1
	exception	30, 33, 32, -1, 1, 0
	exctab	"Diff*", 34
	exctab	*, -1
	exception	41, 44, 32, -1, 1, 1
	exctab	"Diff.Oops", 45
	exctab	*, -1
	exception	56, 58, 32, -1, 2, 1
	exctab	"Diff.Oops", 66
	exctab	"*", 59
	exctab	*, -1
