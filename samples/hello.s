# hello.s: the smallest useful Dis program, written by hand in the syntax
# Inferno's `limbo -S` prints. init loads $Sys and calls sys->print.
	load	0(mp),$0,8(mp)
	frame	$1,40(fp)
	movp	4(mp),32(40(fp))
	lea	44(fp),16(40(fp))
	mcall	40(fp),$0,8(mp)
	ret	
	entry	0, 2
	desc	$0,12,"e0"
	desc	$1,40,"0080"
	desc	$2,48,"00c0"
	var	@mp,12
	string	@mp+0,"$Sys"
	string	@mp+4,"hello, world\n"
	module	Hello
	link	2,0,0x4244b354,"init"
	ldts	@ldt,1
	word	@ldt+0,1
	ext	@ldt+4,0xac849033,"print"
	source	"hello.s"
