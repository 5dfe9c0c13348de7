# Samples: the paper's Sample adt, a module of its own so that every
# s.add(...) in a benchmark costs an mframe/mcall pair.
Samples: module {
	PATH: con "samples.dis";

	Sample: adt {
		n: int;
		v: array of big;

		new: fn(nrep: int): ref Sample;
		add: fn(s: self ref Sample, v: big);
		stat: fn(s: self ref Sample): (int, real, big, big, real);
		obs: fn(s: self ref Sample): string;
	};
};
