implement Benchmark;

# Are-We-Fast-Yet: Mandelbrot (from the Computer Language Benchmarks Game,
# see NOTICE.md for its licence). The inner iteration count is the image
# size; the result is the xor of the image's bytes: 191 for size 500, 50 for
# 750, 128 for 1.

include "benchmark.m";
include "sys.m";
	sys: Sys;

inner_benchmark_loop(inner: int): int
{
	return verify_result(mandelbrot(inner), inner);
}

verify_result(result, inner: int): int
{
	case inner {
	500 =>
		return result == 191;
	750 =>
		return result == 50;
	1 =>
		return result == 128;
	}
	sys = load Sys Sys->PATH;
	sys->print("No verification result for %d found\n", inner);
	sys->print("Result is: %d\n", result);
	return 0;
}

mandelbrot(size: int): int
{
	sum := 0;
	byte_acc := 0;
	bit_num := 0;
	for(y := 0; y < size; y++) {
		ci := (2.0 * real y / real size) - 1.0;
		for(x := 0; x < size; x++) {
			zrzr := 0.0;
			zi := 0.0;
			zizi := 0.0;
			cr := (2.0 * real x / real size) - 1.5;
			z := 0;
			not_done := 1;
			escape := 0;
			while(not_done && z < 50) {
				zr := zrzr - zizi + cr;
				zi = 2.0 * zr * zi + ci;
				zrzr = zr * zr;
				zizi = zi * zi;
				if(zrzr + zizi > 4.0) {
					not_done = 0;
					escape = 1;
				}
				z++;
			}
			byte_acc = (byte_acc << 1) + escape;
			bit_num++;
			if(bit_num == 8) {
				sum ^= byte_acc;
				byte_acc = 0;
				bit_num = 0;
			} else if(x == size - 1) {
				byte_acc <<= 8 - bit_num;
				sum ^= byte_acc;
				byte_acc = 0;
				bit_num = 0;
			}
		}
	}
	return sum;
}
