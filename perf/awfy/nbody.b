implement Benchmark;

# Are-We-Fast-Yet: NBody (from the Computer Language Benchmarks Game, see
# NOTICE.md for its licence). Five bodies (the sun and the four outer
# planets) advanced inner times by 0.01; the system's energy afterwards is
# compared exactly with the suite's figure for 250000 steps and for 1.

include "benchmark.m";
include "sys.m";
	sys: Sys;
include "math.m";
	math: Math;

PI:	con 3.141592653589793;
SOLAR_MASS:	con 4.0 * PI * PI;
DAYS_PER_YEAR:	con 365.24;

Body: adt
{
	x, y, z:	real;
	vx, vy, vz:	real;
	mass:	real;

	new:	fn(x, y, z, vx, vy, vz, mass: real): ref Body;
	offset_momentum:	fn(b: self ref Body, px, py, pz: real);
};

NBodySystem: adt
{
	bodies:	array of ref Body;

	new:	fn(): ref NBodySystem;
	advance:	fn(s: self ref NBodySystem, dt: real);
	energy:	fn(s: self ref NBodySystem): real;
};

Body.new(x, y, z, vx, vy, vz, mass: real): ref Body
{
	return ref Body(x, y, z, vx * DAYS_PER_YEAR, vy * DAYS_PER_YEAR, vz * DAYS_PER_YEAR,
		mass * SOLAR_MASS);
}

Body.offset_momentum(b: self ref Body, px, py, pz: real)
{
	b.vx = 0.0 - (px / SOLAR_MASS);
	b.vy = 0.0 - (py / SOLAR_MASS);
	b.vz = 0.0 - (pz / SOLAR_MASS);
}

jupiter(): ref Body
{
	return Body.new(4.8414314424647209, -1.16032004402742839, -0.103622044471123109,
		0.00166007664274403694, 0.00769901118419740425, -0.0000690460016972063023,
		0.000954791938424326609);
}

saturn(): ref Body
{
	return Body.new(8.34336671824457987, 4.12479856412430479, -0.403523417114321381,
		-0.00276742510726862411, 0.00499852801234917238, 0.0000230417297573763929,
		0.000285885980666130812);
}

uranus(): ref Body
{
	return Body.new(12.894369562139131, -15.1111514016986312, -0.223307578892655734,
		0.00296460137564761618, 0.0023784717395948095, -0.0000296589568540237556,
		0.0000436624404335156298);
}

neptune(): ref Body
{
	return Body.new(15.3796971148509165, -25.9193146099879641, 0.179258772950371181,
		0.00268067772490389322, 0.00162824170038242295, -0.000095159225451971587,
		0.0000515138902046611451);
}

sun(): ref Body
{
	return Body.new(0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0);
}

NBodySystem.new(): ref NBodySystem
{
	bodies := array[] of {sun(), jupiter(), saturn(), uranus(), neptune()};
	px := py := pz := 0.0;
	for(i := 0; i < len bodies; i++) {
		b := bodies[i];
		px += b.vx * b.mass;
		py += b.vy * b.mass;
		pz += b.vz * b.mass;
	}
	bodies[0].offset_momentum(px, py, pz);
	return ref NBodySystem(bodies);
}

NBodySystem.advance(s: self ref NBodySystem, dt: real)
{
	bodies := s.bodies;
	for(i := 0; i < len bodies; i++) {
		ib := bodies[i];
		for(j := i + 1; j < len bodies; j++) {
			jb := bodies[j];
			dx := ib.x - jb.x;
			dy := ib.y - jb.y;
			dz := ib.z - jb.z;
			d_squared := dx * dx + dy * dy + dz * dz;
			distance := math->sqrt(d_squared);
			mag := dt / (d_squared * distance);
			ib.vx = ib.vx - dx * jb.mass * mag;
			ib.vy = ib.vy - dy * jb.mass * mag;
			ib.vz = ib.vz - dz * jb.mass * mag;
			jb.vx = jb.vx + dx * ib.mass * mag;
			jb.vy = jb.vy + dy * ib.mass * mag;
			jb.vz = jb.vz + dz * ib.mass * mag;
		}
	}
	for(i = 0; i < len bodies; i++) {
		b := bodies[i];
		b.x = b.x + dt * b.vx;
		b.y = b.y + dt * b.vy;
		b.z = b.z + dt * b.vz;
	}
}

NBodySystem.energy(s: self ref NBodySystem): real
{
	e := 0.0;
	bodies := s.bodies;
	for(i := 0; i < len bodies; i++) {
		ib := bodies[i];
		e += 0.5 * ib.mass * (ib.vx * ib.vx + ib.vy * ib.vy + ib.vz * ib.vz);
		for(j := i + 1; j < len bodies; j++) {
			jb := bodies[j];
			dx := ib.x - jb.x;
			dy := ib.y - jb.y;
			dz := ib.z - jb.z;
			distance := math->sqrt(dx * dx + dy * dy + dz * dz);
			e -= (ib.mass * jb.mass) / distance;
		}
	}
	return e;
}

inner_benchmark_loop(inner: int): int
{
	math = load Math Math->PATH;
	system := NBodySystem.new();
	for(i := 0; i < inner; i++)
		system.advance(0.01);
	return verify_result(system.energy(), inner);
}

verify_result(result: real, inner: int): int
{
	case inner {
	250000 =>
		return result == -0.1690859889909308;
	1 =>
		return result == -0.16907495402506745;
	}
	sys = load Sys Sys->PATH;
	sys->print("No verification result for %d found\n", inner);
	sys->print("Result is: %.14g\n", result);
	return 0;
}
