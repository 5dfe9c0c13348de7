	stackext	560
	flags	0x60
#0
# err_raise.b:13: if(n > 2)
	bgew	$2,32(fp),$2
# err_raise.b:14: raise "fail:custom";
	raise	8(mp)
# err_raise.b:15: sys->print("check %d ok\n", n);
	frame	$1,40(fp)
	movp	4(mp),32(40(fp))
	movw	32(fp),36(40(fp))
	lea	36(fp),16(40(fp))
	mcall	40(fp),$0,28(mp)
# err_raise.b:16: }
	ret	
# err_raise.b:20: sys = load Sys Sys->PATH;
	load	0(mp),$0,28(mp)
# err_raise.b:22: raise "fail:handled";
	raise	12(mp)
#10
# err_raise.b:25: sys->print("handled %s\n", e);
	frame	$2,52(fp)
	movp	16(mp),32(52(fp))
	movp	44(fp),36(52(fp))
	lea	48(fp),16(52(fp))
	mcall	52(fp),$0,28(mp)
	jmp	$16
# err_raise.b:27: for(i := 0; i < 5; i++)
	movw	$0,40(fp)
	blew	$5,40(fp),$23
# err_raise.b:28: check(i);
	frame	$3,52(fp)
	movw	40(fp),32(52(fp))
#20
	call	52(fp),$0
# err_raise.b:27: for(i := 0; i < 5; i++)
	addw	$1,40(fp)
	jmp	$17
# err_raise.b:29: sys->print("not reached\n");
	frame	$1,48(fp)
	movp	24(mp),32(48(fp))
	lea	52(fp),16(48(fp))
	mcall	48(fp),$0,28(mp)
# err_raise.b:30: }
	ret	
	entry	8, 4
	desc	$0,32,"ff"
	desc	$1,40,"0080"
	desc	$2,40,"00c0"
	desc	$3,48,""
	desc	$4,56,"00d0"
	var	@mp,32
	string	@mp+0,"$Sys"
	string	@mp+4,"check %d ok\n"
	string	@mp+8,"fail:custom"
	string	@mp+12,"fail:handled"
	string	@mp+16,"handled %s\n"
	string	@mp+24,"not reached\n"
	module	ErrRaise
	link	4,8,0x4244b354,"init"
	ldts	@ldt,1
	word	@ldt+0,1
	ext	@ldt+4,0xac849033,"print"
	exceptions	1
	exception	9, 10, 44, -1, 1, 0
	exctab	"fail:*", 10
	exctab	*, -1
	source	"err_raise.b"
