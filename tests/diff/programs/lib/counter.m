Counter: module {
	PATH: con "counter.dis";
	Pair: adt {
		a, b: int;
		sum: fn(p: self ref Pair): int;
	};
	next: fn(step: int): int;
	describe: fn(): (string, int);
};
