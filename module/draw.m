# The parts of Inferno's Draw module a command's interface needs: the
# Context every `init(ctxt: ref Draw->Context, argv: list of string)`
# receives, and the adts it refers to, with the same data fields in the
# same order (they determine the init signature 0x4244b354). This VM has
# no graphics: no Draw functions are provided.
# Needs sys.m included first (Wmcontext uses Sys->FD).
Draw: module
{
	PATH:	con "$Draw";

	Point: adt
	{
		x:	int;
		y:	int;
	};

	Rect: adt
	{
		min:	Point;
		max:	Point;
	};

	# A pixel channel descriptor.
	Chans: adt
	{
		desc:	int;
	};

	Image: adt
	{
		r:	Rect;
		clipr:	Rect;
		depth:	int;
		chans:	Chans;
		repl:	int;
		display:	ref Display;
		screen:	ref Screen;
		iname:	string;
	};

	Display: adt
	{
		image:	ref Image;
		white:	ref Image;
		black:	ref Image;
		opaque:	ref Image;
		transparent:	ref Image;
	};

	Screen: adt
	{
		id:	int;
		image:	ref Image;
		fill:	ref Image;
		display:	ref Display;
	};

	# Mouse state.
	Pointer: adt
	{
		buttons:	int;
		xy:	Point;
		msec:	int;
	};

	# A window's connection to the window manager.
	Wmcontext: adt
	{
		kbd:	chan of int;
		ptr:	chan of ref Pointer;
		ctl:	chan of string;
		wctl:	chan of string;
		images:	chan of ref Image;
		connfd:	ref Sys->FD;
		ctxt:	ref Context;
	};

	# The graphics context handed to every command.
	Context: adt
	{
		display:	ref Display;
		screen:	ref Screen;
		wm:	chan of (string, chan of (string, ref Wmcontext));
	};
};
