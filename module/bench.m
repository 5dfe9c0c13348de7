# The $Bench builtin module: timing for benchmarks (DIS-FACTS section 8).
# nsec is this project's addition: nanoseconds since the last reset.
Bench: module
{
	PATH:	con "$Bench";

	# Bench's own file descriptor type (the same layout as Sys->FD).
	FD: adt
	{
		fd:	int;
	};

	microsec:	fn(): big;
	nsec:		fn(): big;
	reset:		fn();
	read:		fn(fd: ref FD, buf: array of byte, n: int): int;
	disablegc:	fn();
	enablegc:	fn();
};
