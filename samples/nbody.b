implement NBody;

# The n-body simulation (Jovian planets): real arithmetic, adts in arrays,
# and Math->sqrt through a builtin module.

include "sys.m";
	sys: Sys;
include "draw.m";
include "math.m";
	math: Math;

NBody: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};

Body: adt {
	x, y, z, vx, vy, vz, mass: real;
};

PI: con 3.141592653589793;
SOLAR: con 4.0 * PI * PI;
DAYS: con 365.24;

energy(b: array of ref Body): real
{
	e := 0.0;
	for(i := 0; i < len b; i++) {
		p := b[i];
		e += 0.5 * p.mass * (p.vx * p.vx + p.vy * p.vy + p.vz * p.vz);
		for(j := i + 1; j < len b; j++) {
			q := b[j];
			dx := p.x - q.x;
			dy := p.y - q.y;
			dz := p.z - q.z;
			e -= p.mass * q.mass / math->sqrt(dx * dx + dy * dy + dz * dz);
		}
	}
	return e;
}

advance(b: array of ref Body, dt: real)
{
	for(i := 0; i < len b; i++) {
		p := b[i];
		for(j := i + 1; j < len b; j++) {
			q := b[j];
			dx := p.x - q.x;
			dy := p.y - q.y;
			dz := p.z - q.z;
			d2 := dx * dx + dy * dy + dz * dz;
			mag := dt / (d2 * math->sqrt(d2));
			p.vx -= dx * q.mass * mag;
			p.vy -= dy * q.mass * mag;
			p.vz -= dz * q.mass * mag;
			q.vx += dx * p.mass * mag;
			q.vy += dy * p.mass * mag;
			q.vz += dz * p.mass * mag;
		}
	}
	for(i = 0; i < len b; i++) {
		p := b[i];
		p.x += dt * p.vx;
		p.y += dt * p.vy;
		p.z += dt * p.vz;
	}
}

init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;
	math = load Math Math->PATH;
	b := array[] of {
		ref Body(0.0, 0.0, 0.0, 0.0, 0.0, 0.0, SOLAR),
		ref Body(4.84143144246472090e+00, -1.16032004402742839e+00, -1.03622044471123109e-01,
			1.66007664274403694e-03 * DAYS, 7.69901118419740425e-03 * DAYS, -6.90460016972063023e-05 * DAYS,
			9.54791938424326609e-04 * SOLAR),
		ref Body(8.34336671824457987e+00, 4.12479856412430479e+00, -4.03523417114321381e-01,
			-2.76742510726862411e-03 * DAYS, 4.99852801234917238e-03 * DAYS, 2.30417297573763929e-05 * DAYS,
			2.85885980666130812e-04 * SOLAR),
		ref Body(1.28943695621391310e+01, -1.51111514016986312e+01, -2.23307578892655734e-01,
			2.96460137564761618e-03 * DAYS, 2.37847173959480950e-03 * DAYS, -2.96589568540237556e-05 * DAYS,
			4.36624404335156298e-05 * SOLAR),
		ref Body(1.53796971148509165e+01, -2.59193146099879641e+01, 1.79258772950371181e-01,
			2.68067772490389322e-03 * DAYS, 1.62824170038242295e-03 * DAYS, -9.51592254519715870e-05 * DAYS,
			5.15138902046611451e-05 * SOLAR),
	};
	px := 0.0;
	py := 0.0;
	pz := 0.0;
	for(i := 0; i < len b; i++) {
		px += b[i].vx * b[i].mass;
		py += b[i].vy * b[i].mass;
		pz += b[i].vz * b[i].mass;
	}
	b[0].vx = -px / SOLAR;
	b[0].vy = -py / SOLAR;
	b[0].vz = -pz / SOLAR;
	sys->print("%.9f\n", energy(b));
	for(i = 0; i < 1000; i++)
		advance(b, 0.01);
	sys->print("%.9f\n", energy(b));
}
