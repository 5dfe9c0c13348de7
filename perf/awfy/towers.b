implement Benchmark;

# Are-We-Fast-Yet: Towers. The towers of Hanoi with 13 disks kept as linked
# lists of disk adts on three piles; counts the moves (8191). The benchmark
# object's fields (piles, moves_done) are this module's data.

include "benchmark.m";

TowersDisk: adt
{
	size:	int;
	next:	cyclic ref TowersDisk;
};

piles: array of ref TowersDisk;
moves_done: int;

inner_benchmark_loop(inner: int): int
{
	for(i := 0; i < inner; i++)
		if(!verify_result(benchmark()))
			return 0;
	return 1;
}

benchmark(): int
{
	piles = array[3] of ref TowersDisk;
	build_tower_at(0, 13);
	moves_done = 0;
	move_disks(13, 0, 1);
	return moves_done;
}

verify_result(result: int): int
{
	return result == 8191;
}

push_disk(disk: ref TowersDisk, pile: int)
{
	top := piles[pile];
	if(top != nil && disk.size >= top.size)
		raise "Cannot put a big disk on a smaller one";
	disk.next = top;
	piles[pile] = disk;
}

pop_disk_from(pile: int): ref TowersDisk
{
	top := piles[pile];
	if(top == nil)
		raise "Attempting to remove a disk from an empty pile";
	piles[pile] = top.next;
	top.next = nil;
	return top;
}

move_top_disk(from_pile, to_pile: int)
{
	push_disk(pop_disk_from(from_pile), to_pile);
	moves_done++;
}

build_tower_at(pile, disks: int)
{
	for(i := disks; i >= 1; i--)
		push_disk(ref TowersDisk(i, nil), pile);
}

move_disks(disks, from_pile, to_pile: int)
{
	if(disks == 1)
		move_top_disk(from_pile, to_pile);
	else {
		other_pile := (0 + 1 + 2) - from_pile - to_pile;
		move_disks(disks - 1, from_pile, other_pile);
		move_top_disk(from_pile, to_pile);
		move_disks(disks - 1, other_pile, to_pile);
	}
}
