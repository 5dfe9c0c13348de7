implement Samples;

include "sys.m";
	sys: Sys;
include "math.m";
	math: Math;
include "samples.m";

Sample.new(nrep: int): ref Sample
{
	if(sys == nil) {
		sys = load Sys Sys->PATH;
		math = load Math Math->PATH;
	}
	return ref Sample(0, array[nrep] of big);
}

Sample.add(s: self ref Sample, v: big)
{
	if(s.n < len s.v)
		s.v[s.n++] = v;
}

# count, mean, minimum, maximum, standard deviation
Sample.stat(s: self ref Sample): (int, real, big, big, real)
{
	if(s.n == 0)
		return (0, 0.0, big 0, big 0, 0.0);
	sum := 0.0;
	lo := s.v[0];
	hi := lo;
	for(i := 0; i < s.n; i++) {
		x := s.v[i];
		sum += real x;
		if(x < lo)
			lo = x;
		if(x > hi)
			hi = x;
	}
	mean := sum / real s.n;
	ss := 0.0;
	for(i = 0; i < s.n; i++) {
		d := real s.v[i] - mean;
		ss += d * d;
	}
	return (s.n, mean, lo, hi, math->sqrt(ss / real s.n));
}

# the observations separated by spaces
Sample.obs(s: self ref Sample): string
{
	r := "";
	for(i := 0; i < s.n; i++) {
		if(i > 0)
			r += " ";
		r += string s.v[i];
	}
	return r;
}
