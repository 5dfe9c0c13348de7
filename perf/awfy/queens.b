implement Benchmark;

# Are-We-Fast-Yet: Queens. Places eight queens on a chess board by
# backtracking, ten times per benchmark run. The suite's boolean arrays are
# arrays of int (Limbo's truth values); the benchmark object's fields are
# this module's data.

include "benchmark.m";

free_rows: array of int;
free_maxs: array of int;
free_mins: array of int;
queen_rows: array of int;

inner_benchmark_loop(inner: int): int
{
	for(i := 0; i < inner; i++)
		if(!verify_result(benchmark()))
			return 0;
	return 1;
}

benchmark(): int
{
	result := 1;
	for(i := 0; i < 10; i++)
		result = result && queens();
	return result;
}

verify_result(result: int): int
{
	return result;
}

queens(): int
{
	free_rows = array[8] of {* => 1};
	free_maxs = array[16] of {* => 1};
	free_mins = array[16] of {* => 1};
	queen_rows = array[8] of {* => -1};
	return place_queen(0);
}

place_queen(c: int): int
{
	for(r := 0; r < 8; r++) {
		if(get_row_column(r, c)) {
			queen_rows[r] = c;
			set_row_column(r, c, 0);
			if(c == 7)
				return 1;
			if(place_queen(c + 1))
				return 1;
			set_row_column(r, c, 1);
		}
	}
	return 0;
}

get_row_column(r, c: int): int
{
	return free_rows[r] && free_maxs[c + r] && free_mins[c - r + 7];
}

set_row_column(r, c, v: int)
{
	free_rows[r] = v;
	free_maxs[c + r] = v;
	free_mins[c - r + 7] = v;
}
