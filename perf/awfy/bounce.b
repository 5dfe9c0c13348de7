implement Benchmark;

# Are-We-Fast-Yet: Bounce. 100 balls with random positions and speeds
# bounce in a 500x500 box for 50 steps; the bounces are counted (1331).
# Ball is an adt with a member function.

include "benchmark.m";
include "som.m";
	som: Som;
	Random: import som;

Ball: adt
{
	x, y:	int;
	x_vel, y_vel:	int;

	# Som->Random: our compiler does not yet see imported adt names here.
	new:	fn(random: ref Som->Random): ref Ball;
	bounce:	fn(b: self ref Ball): int;
};

Ball.new(random: ref Random): ref Ball
{
	x := random.next() % 500;
	y := random.next() % 500;
	x_vel := (random.next() % 300) - 150;
	y_vel := (random.next() % 300) - 150;
	return ref Ball(x, y, x_vel, y_vel);
}

Ball.bounce(b: self ref Ball): int
{
	x_limit := 500;
	y_limit := 500;
	bounced := 0;
	b.x += b.x_vel;
	b.y += b.y_vel;
	if(b.x > x_limit) {
		b.x = x_limit;
		b.x_vel = 0 - abs(b.x_vel);
		bounced = 1;
	}
	if(b.x < 0) {
		b.x = 0;
		b.x_vel = abs(b.x_vel);
		bounced = 1;
	}
	if(b.y > y_limit) {
		b.y = y_limit;
		b.y_vel = 0 - abs(b.y_vel);
		bounced = 1;
	}
	if(b.y < 0) {
		b.y = 0;
		b.y_vel = abs(b.y_vel);
		bounced = 1;
	}
	return bounced;
}

abs(v: int): int
{
	if(v < 0)
		return -v;
	return v;
}

inner_benchmark_loop(inner: int): int
{
	if(som == nil)
		som = load Som Som->PATH;
	for(i := 0; i < inner; i++)
		if(!verify_result(benchmark()))
			return 0;
	return 1;
}

benchmark(): int
{
	random := Random.new();
	ball_count := 100;
	bounces := 0;
	balls := array[ball_count] of ref Ball;
	for(i := 0; i < ball_count; i++)
		balls[i] = Ball.new(random);
	for(j := 0; j < 50; j++)
		for(i = 0; i < len balls; i++)
			if(balls[i].bounce())
				bounces++;
	return bounces;
}

verify_result(result: int): int
{
	return result == 1331;
}
