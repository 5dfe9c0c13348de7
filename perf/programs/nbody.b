implement Nbody;

# N-body (the classic real-arithmetic benchmark): five planets of ref adts
# with real fields, advanced in time steps; the energy before and after,
# printed with %.9f, is the checksum.
# Usage: nbody [steps]

include "sys.m";
	sys: Sys;
include "draw.m";
include "math.m";
	math: Math;

Nbody: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};

Body: adt {
	x, y, z, vx, vy, vz, mass: real;
};

PI: con 3.141592653589793;
DAYSPERYEAR: con 365.24;

solarmass: real;

body(x, y, z, vx, vy, vz, mass: real): ref Body
{
	return ref Body(x, y, z, vx * DAYSPERYEAR, vy * DAYSPERYEAR, vz * DAYSPERYEAR, mass * solarmass);
}

advance(bodies: array of ref Body, dt: real)
{
	n := len bodies;
	for(i := 0; i < n; i++) {
		bi := bodies[i];
		for(j := i + 1; j < n; j++) {
			bj := bodies[j];
			dx := bi.x - bj.x;
			dy := bi.y - bj.y;
			dz := bi.z - bj.z;
			d2 := dx * dx + dy * dy + dz * dz;
			mag := dt / (d2 * math->sqrt(d2));
			bm := bj.mass * mag;
			bi.vx -= dx * bm;
			bi.vy -= dy * bm;
			bi.vz -= dz * bm;
			bm = bi.mass * mag;
			bj.vx += dx * bm;
			bj.vy += dy * bm;
			bj.vz += dz * bm;
		}
	}
	for(i = 0; i < n; i++) {
		b := bodies[i];
		b.x += dt * b.vx;
		b.y += dt * b.vy;
		b.z += dt * b.vz;
	}
}

energy(bodies: array of ref Body): real
{
	e := 0.0;
	n := len bodies;
	for(i := 0; i < n; i++) {
		bi := bodies[i];
		e += 0.5 * bi.mass * (bi.vx * bi.vx + bi.vy * bi.vy + bi.vz * bi.vz);
		for(j := i + 1; j < n; j++) {
			bj := bodies[j];
			dx := bi.x - bj.x;
			dy := bi.y - bj.y;
			dz := bi.z - bj.z;
			e -= (bi.mass * bj.mass) / math->sqrt(dx * dx + dy * dy + dz * dz);
		}
	}
	return e;
}

offsetmomentum(bodies: array of ref Body)
{
	px := 0.0;
	py := 0.0;
	pz := 0.0;
	for(i := 0; i < len bodies; i++) {
		b := bodies[i];
		px += b.vx * b.mass;
		py += b.vy * b.mass;
		pz += b.vz * b.mass;
	}
	sun := bodies[0];
	sun.vx = -px / solarmass;
	sun.vy = -py / solarmass;
	sun.vz = -pz / solarmass;
}

init(nil: ref Draw->Context, args: list of string)
{
	sys = load Sys Sys->PATH;
	math = load Math Math->PATH;

	steps := 500000;	# default size
	if(args != nil && tl args != nil)
		steps = int hd tl args;
	solarmass = 4.0 * PI * PI;
	bodies := array[] of {
		# sun
		body(0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0),
		# jupiter
		body(4.84143144246472090e+00, -1.16032004402742839e+00, -1.03622044471123109e-01,
			1.66007664274403694e-03, 7.69901118419740425e-03, -6.90460016972063023e-05,
			9.54791938424326609e-04),
		# saturn
		body(8.34336671824457987e+00, 4.12479856412430479e+00, -4.03523417114321381e-01,
			-2.76742510726862411e-03, 4.99852801234917238e-03, 2.30417297573763929e-05,
			2.85885980666130812e-04),
		# uranus
		body(1.28943695621391310e+01, -1.51111514016986312e+01, -2.23307578892655734e-01,
			2.96460137564761618e-03, 2.37847173959480950e-03, -2.96589568540237556e-05,
			4.36624404335156298e-05),
		# neptune
		body(1.53796971148509165e+01, -2.59193146099879641e+01, 1.79258772950371181e-01,
			2.68067772490389322e-03, 1.62824170038242295e-03, -9.51592254519715870e-05,
			5.15138902046611451e-05)
	};
	offsetmomentum(bodies);
	e0 := energy(bodies);
	for(s := 0; s < steps; s++)
		advance(bodies, 0.01);
	sys->print("nbody %d: %.9f %.9f\n", steps, e0, energy(bodies));
}
