implement Benchmark;

# Are-We-Fast-Yet: Havlak (Havlak's loop recognition on a synthetic control
# flow graph, after Hundt's "Loop Recognition in C++/Java/Go/Scala"). Builds
# a graph of 5213 blocks, finds its loops inner + 51 times and checks the
# number of loops and blocks (6102 and 5213 for 1500; the suite's figures
# for 15000, 150, 15 and 1 are checked too). Block names count from 0.
#
# Closures: the suite's each/has_some blocks are loops over the vectors
# here (Limbo has no closures); each loop takes its end before it starts,
# as the suite's each does. Collections: polymorphic adts are not supported
# by our compiler yet, so the suite's Vector, Set, IdentitySet and
# IdentityDictionary are written for the element types used: vectors of
# blocks (BBVector), edges (EdgeVector), loops (LoopVector), union-find
# nodes (UFVector), ints (IntVector), int sets (IntSetVector) and int
# vectors (IntVecVector); sets of ints (IntSet), blocks (BBSet) and loops
# (LoopSet); a dictionary from blocks to ints (BBDict).

include "benchmark.m";
include "sys.m";
	sys: Sys;

UNVISITED:	con 2147483647;	# marks nodes not yet visited
MAXNONBACKPREDS:	con 32 * 1024;	# a guard against pathological behaviour

INITIAL_SIZE:	con 10;
INITIAL_CAPACITY:	con 16;

# Block classes.
BB_TOP, BB_NONHEADER, BB_REDUCIBLE, BB_SELF, BB_IRREDUCIBLE, BB_DEAD, BB_LAST:	con iota;

BasicBlock: adt
{
	name:	int;
	in_edges:	cyclic ref BBVector;
	out_edges:	cyclic ref BBVector;

	new:	fn(name: int): ref BasicBlock;
	num_pred:	fn(b: self ref BasicBlock): int;
	custom_hash:	fn(b: self ref BasicBlock): int;
};

BasicBlockEdge: adt
{
	from_node:	ref BasicBlock;
	to_node:	ref BasicBlock;

	new:	fn(cfg: ref ControlFlowGraph, from_name, to_name: int): ref BasicBlockEdge;
};

ControlFlowGraph: adt
{
	start_node:	ref BasicBlock;
	basic_block_map:	ref BBVector;
	edge_list:	ref EdgeVector;

	new:	fn(): ref ControlFlowGraph;
	create_node:	fn(g: self ref ControlFlowGraph, name: int): ref BasicBlock;
	num_nodes:	fn(g: self ref ControlFlowGraph): int;
};

SimpleLoop: adt
{
	header:	ref BasicBlock;
	is_reducible:	int;
	parent:	cyclic ref SimpleLoop;
	is_root:	int;
	nesting_level:	int;
	depth_level:	int;
	counter:	int;
	basic_blocks:	ref BBSet;
	children:	cyclic ref LoopSet;

	new:	fn(bb: ref BasicBlock, is_reducible: int): ref SimpleLoop;
	set_parent:	fn(l: self ref SimpleLoop, parent: ref SimpleLoop);
	set_nesting_level:	fn(l: self ref SimpleLoop, level: int);
};

LoopStructureGraph: adt
{
	loop_counter:	int;
	loops:	ref LoopVector;
	root:	ref SimpleLoop;

	new:	fn(): ref LoopStructureGraph;
	create_new_loop:	fn(g: self ref LoopStructureGraph, bb: ref BasicBlock, is_reducible: int): ref SimpleLoop;
	calculate_nesting_level:	fn(g: self ref LoopStructureGraph);
	calculate_nesting_level_rec:	fn(g: self ref LoopStructureGraph, l: ref SimpleLoop, depth: int);
	num_loops:	fn(g: self ref LoopStructureGraph): int;
};

UnionFindNode: adt
{
	dfs_number:	int;
	parent:	cyclic ref UnionFindNode;
	bb:	ref BasicBlock;
	loop:	ref SimpleLoop;

	new:	fn(): ref UnionFindNode;
	init_node:	fn(n: self ref UnionFindNode, bb: ref BasicBlock, dfs_number: int);
	find_set:	fn(n: self ref UnionFindNode): ref UnionFindNode;
	union:	fn(n: self ref UnionFindNode, basic_block: ref UnionFindNode);
};

HavlakLoopFinder: adt
{
	cfg:	ref ControlFlowGraph;
	lsg:	ref LoopStructureGraph;
	non_back_preds:	ref IntSetVector;
	back_preds:	ref IntVecVector;
	number:	ref BBDict;
	max_size:	int;
	header:	array of int;
	typ:	array of int;
	last:	array of int;
	nodes:	array of ref UnionFindNode;

	new:	fn(cfg: ref ControlFlowGraph, lsg: ref LoopStructureGraph): ref HavlakLoopFinder;
	is_ancestor:	fn(f: self ref HavlakLoopFinder, w, v: int): int;
	do_dfs:	fn(f: self ref HavlakLoopFinder, current_node: ref BasicBlock, current: int): int;
	init_all_nodes:	fn(f: self ref HavlakLoopFinder);
	identify_edges:	fn(f: self ref HavlakLoopFinder, size: int);
	process_edges:	fn(f: self ref HavlakLoopFinder, node_w: ref BasicBlock, w: int);
	find_loops:	fn(f: self ref HavlakLoopFinder);
	step_e_process_non_back_preds:	fn(f: self ref HavlakLoopFinder, w: int, node_pool, work_list: ref UFVector,
		x: ref UnionFindNode);
	set_loop_attributes:	fn(f: self ref HavlakLoopFinder, w: int, node_pool: ref UFVector, l: ref SimpleLoop);
	step_d:	fn(f: self ref HavlakLoopFinder, w: int, node_pool: ref UFVector);
};

LoopTesterApp: adt
{
	cfg:	ref ControlFlowGraph;
	lsg:	ref LoopStructureGraph;

	new:	fn(): ref LoopTesterApp;
	build_diamond:	fn(a: self ref LoopTesterApp, start: int): int;
	build_connect:	fn(a: self ref LoopTesterApp, start, end: int);
	build_straight:	fn(a: self ref LoopTesterApp, start, n: int): int;
	build_base_loop:	fn(a: self ref LoopTesterApp, from: int): int;
	main:	fn(a: self ref LoopTesterApp, num_dummy_loops, find_loop_iterations, par_loops,
		ppar_loops, pppar_loops: int): (int, int);
	construct_cfg:	fn(a: self ref LoopTesterApp, par_loops, ppar_loops, pppar_loops: int);
	add_dummy_loops:	fn(a: self ref LoopTesterApp, num_dummy_loops: int);
	find_loops:	fn(a: self ref LoopTesterApp, loop_structure: ref LoopStructureGraph);
	construct_simple_cfg:	fn(a: self ref LoopTesterApp);
};

# The suite's collections for the element types used.

BBVector: adt
{
	storage:	array of ref BasicBlock;
	first_idx, last_idx:	int;

	new:	fn(size: int): ref BBVector;
	at:	fn(v: self ref BBVector, idx: int): ref BasicBlock;
	at_put:	fn(v: self ref BBVector, idx: int, val: ref BasicBlock);
	append:	fn(v: self ref BBVector, x: ref BasicBlock);
	size:	fn(v: self ref BBVector): int;
	has:	fn(v: self ref BBVector, x: ref BasicBlock): int;
};

EdgeVector: adt
{
	storage:	array of ref BasicBlockEdge;
	first_idx, last_idx:	int;

	append:	fn(v: self ref EdgeVector, x: ref BasicBlockEdge);
};

LoopVector: adt
{
	storage:	array of ref SimpleLoop;
	first_idx, last_idx:	int;

	append:	fn(v: self ref LoopVector, x: ref SimpleLoop);
	size:	fn(v: self ref LoopVector): int;
	has:	fn(v: self ref LoopVector, x: ref SimpleLoop): int;
};

UFVector: adt
{
	storage:	array of ref UnionFindNode;
	first_idx, last_idx:	int;

	append:	fn(v: self ref UFVector, x: ref UnionFindNode);
	is_empty:	fn(v: self ref UFVector): int;
	remove_first:	fn(v: self ref UFVector): ref UnionFindNode;
	size:	fn(v: self ref UFVector): int;
	has:	fn(v: self ref UFVector, x: ref UnionFindNode): int;
};

IntVector: adt
{
	storage:	array of int;
	first_idx, last_idx:	int;

	append:	fn(v: self ref IntVector, x: int);
	size:	fn(v: self ref IntVector): int;
	has:	fn(v: self ref IntVector, x: int): int;
};

IntSetVector: adt
{
	storage:	array of ref IntSet;
	first_idx, last_idx:	int;

	append:	fn(v: self ref IntSetVector, x: ref IntSet);
	at:	fn(v: self ref IntSetVector, idx: int): ref IntSet;
	remove_all:	fn(v: self ref IntSetVector);
};

IntVecVector: adt
{
	storage:	array of ref IntVector;
	first_idx, last_idx:	int;

	append:	fn(v: self ref IntVecVector, x: ref IntVector);
	at:	fn(v: self ref IntVecVector, idx: int): ref IntVector;
	remove_all:	fn(v: self ref IntVecVector);
};

IntSet: adt
{
	items:	ref IntVector;

	add:	fn(s: self ref IntSet, x: int);
};

BBSet: adt
{
	items:	ref BBVector;

	add:	fn(s: self ref BBSet, x: ref BasicBlock);
};

LoopSet: adt
{
	items:	cyclic ref LoopVector;

	add:	fn(s: self ref LoopSet, x: ref SimpleLoop);
};

BBEntry: adt
{
	hash:	int;
	key:	ref BasicBlock;
	value:	int;
	next:	cyclic ref BBEntry;

	match:	fn(e: self ref BBEntry, hash: int, key: ref BasicBlock): int;
};

BBDict: adt
{
	buckets:	array of ref BBEntry;
	size:	int;

	new:	fn(): ref BBDict;
	at:	fn(d: self ref BBDict, key: ref BasicBlock): int;
	at_put:	fn(d: self ref BBDict, key: ref BasicBlock, value: int);
	remove_all:	fn(d: self ref BBDict);
	resize:	fn(d: self ref BBDict);
	split_bucket:	fn(d: self ref BBDict, old: array of ref BBEntry, i: int, head: ref BBEntry);
};

inner_benchmark_loop(inner: int): int
{
	(num_loops, num_nodes) := LoopTesterApp.new().main(inner, 50, 10, 10, 5);
	return verify_result(num_loops, num_nodes, inner);
}

verify_result(num_loops, num_nodes, inner: int): int
{
	case inner {
	15000 =>
		return num_loops == 46602 && num_nodes == 5213;
	1500 =>
		return num_loops == 6102 && num_nodes == 5213;
	150 =>
		return num_loops == 2052 && num_nodes == 5213;
	15 =>
		return num_loops == 1647 && num_nodes == 5213;
	1 =>
		return num_loops == 1605 && num_nodes == 5213;
	}
	sys = load Sys Sys->PATH;
	sys->print("No verification result for %d found\n", inner);
	sys->print("Result is: %d, %d\n", num_loops, num_nodes);
	return 0;
}

# The graph

BasicBlock.new(name: int): ref BasicBlock
{
	return ref BasicBlock(name, BBVector.new(2), BBVector.new(2));
}

BasicBlock.num_pred(b: self ref BasicBlock): int
{
	return b.in_edges.size();
}

BasicBlock.custom_hash(b: self ref BasicBlock): int
{
	return b.name;
}

BasicBlockEdge.new(cfg: ref ControlFlowGraph, from_name, to_name: int): ref BasicBlockEdge
{
	from_node := cfg.create_node(from_name);
	to_node := cfg.create_node(to_name);
	from_node.out_edges.append(to_node);
	to_node.in_edges.append(from_node);
	e := ref BasicBlockEdge(from_node, to_node);
	cfg.edge_list.append(e);
	return e;
}

ControlFlowGraph.new(): ref ControlFlowGraph
{
	return ref ControlFlowGraph(nil, BBVector.new(0), ref EdgeVector(nil, 0, 0));
}

ControlFlowGraph.create_node(g: self ref ControlFlowGraph, name: int): ref BasicBlock
{
	node := g.basic_block_map.at(name);
	if(node == nil) {
		node = BasicBlock.new(name);
		g.basic_block_map.at_put(name, node);
	}
	if(g.num_nodes() == 1)
		g.start_node = node;
	return node;
}

ControlFlowGraph.num_nodes(g: self ref ControlFlowGraph): int
{
	return g.basic_block_map.size();
}

# Loops

SimpleLoop.new(bb: ref BasicBlock, is_reducible: int): ref SimpleLoop
{
	l := ref SimpleLoop(bb, is_reducible, nil, 0, 0, 0, 0,
		ref BBSet(BBVector.new(INITIAL_SIZE)), ref LoopSet(ref LoopVector(nil, 0, 0)));
	l.children.items.storage = array[INITIAL_SIZE] of ref SimpleLoop;
	if(bb != nil)
		l.basic_blocks.add(bb);
	return l;
}

SimpleLoop.set_parent(l: self ref SimpleLoop, parent: ref SimpleLoop)
{
	l.parent = parent;
	parent.children.add(l);
}

SimpleLoop.set_nesting_level(l: self ref SimpleLoop, level: int)
{
	l.nesting_level = level;
	if(level == 0)
		l.is_root = 1;
}

LoopStructureGraph.new(): ref LoopStructureGraph
{
	loops := ref LoopVector(nil, 0, 0);
	root := SimpleLoop.new(nil, 1);
	g := ref LoopStructureGraph(0, loops, root);
	root.set_nesting_level(0);
	root.counter = g.loop_counter++;
	loops.append(root);
	return g;
}

LoopStructureGraph.create_new_loop(g: self ref LoopStructureGraph, bb: ref BasicBlock, is_reducible: int): ref SimpleLoop
{
	l := SimpleLoop.new(bb, is_reducible);
	l.counter = g.loop_counter++;
	g.loops.append(l);
	return l;
}

LoopStructureGraph.calculate_nesting_level(g: self ref LoopStructureGraph)
{
	loops := g.loops;
	n := loops.last_idx;
	for(i := loops.first_idx; i < n; i++) {
		l := loops.storage[i];
		if(!l.is_root && l.parent == nil)
			l.set_parent(g.root);
	}
	g.calculate_nesting_level_rec(g.root, 0);
}

LoopStructureGraph.calculate_nesting_level_rec(g: self ref LoopStructureGraph, l: ref SimpleLoop, depth: int)
{
	l.depth_level = depth;
	children := l.children.items;
	n := children.last_idx;
	for(i := children.first_idx; i < n; i++) {
		child := children.storage[i];
		g.calculate_nesting_level_rec(child, depth + 1);
		level := 1 + child.nesting_level;
		if(l.nesting_level > level)
			level = l.nesting_level;
		l.set_nesting_level(level);
	}
}

LoopStructureGraph.num_loops(g: self ref LoopStructureGraph): int
{
	return g.loops.size();
}

# Union-find

UnionFindNode.new(): ref UnionFindNode
{
	return ref UnionFindNode(0, nil, nil, nil);
}

UnionFindNode.init_node(n: self ref UnionFindNode, bb: ref BasicBlock, dfs_number: int)
{
	n.parent = n;
	n.bb = bb;
	n.dfs_number = dfs_number;
	n.loop = nil;
}

UnionFindNode.find_set(n: self ref UnionFindNode): ref UnionFindNode
{
	node_list := ref UFVector(nil, 0, 0);
	node := n;
	while(node != node.parent) {
		if(node.parent != node.parent.parent)
			node_list.append(node);
		node = node.parent;
	}
	last := node_list.last_idx;
	for(i := node_list.first_idx; i < last; i++)
		node_list.storage[i].union(n.parent);
	return node;
}

UnionFindNode.union(n: self ref UnionFindNode, basic_block: ref UnionFindNode)
{
	n.parent = basic_block;
}

# The loop finder

HavlakLoopFinder.new(cfg: ref ControlFlowGraph, lsg: ref LoopStructureGraph): ref HavlakLoopFinder
{
	return ref HavlakLoopFinder(cfg, lsg, ref IntSetVector(nil, 0, 0), ref IntVecVector(nil, 0, 0),
		BBDict.new(), 0, nil, nil, nil, nil);
}

HavlakLoopFinder.is_ancestor(f: self ref HavlakLoopFinder, w, v: int): int
{
	return w <= v && v <= f.last[w];
}

HavlakLoopFinder.do_dfs(f: self ref HavlakLoopFinder, current_node: ref BasicBlock, current: int): int
{
	f.nodes[current].init_node(current_node, current);
	f.number.at_put(current_node, current);
	last_id := current;
	outer_blocks := current_node.out_edges;
	n := outer_blocks.last_idx;
	for(i := outer_blocks.first_idx; i < n; i++) {
		target := outer_blocks.storage[i];
		if(f.number.at(target) == UNVISITED)
			last_id = f.do_dfs(target, last_id + 1);
	}
	f.last[current] = last_id;
	return last_id;
}

HavlakLoopFinder.init_all_nodes(f: self ref HavlakLoopFinder)
{
	blocks := f.cfg.basic_block_map;
	n := blocks.last_idx;
	for(i := blocks.first_idx; i < n; i++)
		f.number.at_put(blocks.storage[i], UNVISITED);
	f.do_dfs(f.cfg.start_node, 0);
}

HavlakLoopFinder.identify_edges(f: self ref HavlakLoopFinder, size: int)
{
	for(w := 0; w < size; w++) {
		f.header[w] = 0;
		f.typ[w] = BB_NONHEADER;
		node_w := f.nodes[w].bb;
		if(node_w == nil)
			f.typ[w] = BB_DEAD;
		else
			f.process_edges(node_w, w);
	}
}

HavlakLoopFinder.process_edges(f: self ref HavlakLoopFinder, node_w: ref BasicBlock, w: int)
{
	if(node_w.num_pred() > 0) {
		in_edges := node_w.in_edges;
		n := in_edges.last_idx;
		for(i := in_edges.first_idx; i < n; i++) {
			v := f.number.at(in_edges.storage[i]);
			if(v != UNVISITED) {
				if(f.is_ancestor(w, v))
					f.back_preds.at(w).append(v);
				else
					f.non_back_preds.at(w).add(v);
			}
		}
	}
}

HavlakLoopFinder.find_loops(f: self ref HavlakLoopFinder)
{
	if(f.cfg.start_node == nil)
		return;
	size := f.cfg.num_nodes();
	f.non_back_preds.remove_all();
	f.back_preds.remove_all();
	f.number.remove_all();
	if(size > f.max_size) {
		f.header = array[size] of int;
		f.typ = array[size] of int;
		f.last = array[size] of int;
		f.nodes = array[size] of ref UnionFindNode;
		f.max_size = size;
	}
	for(i := 0; i < size; i++) {
		f.non_back_preds.append(ref IntSet(ref IntVector(array[INITIAL_SIZE] of int, 0, 0)));
		f.back_preds.append(ref IntVector(nil, 0, 0));
		f.nodes[i] = UnionFindNode.new();
	}
	f.init_all_nodes();
	f.identify_edges(size);
	f.header[0] = 0;

	for(w := size - 1; w >= 0; w--) {
		node_pool := ref UFVector(nil, 0, 0);
		node_w := f.nodes[w].bb;
		if(node_w != nil) {
			f.step_d(w, node_pool);
			work_list := ref UFVector(nil, 0, 0);
			n := node_pool.last_idx;
			for(i = node_pool.first_idx; i < n; i++)
				work_list.append(node_pool.storage[i]);
			if(node_pool.size() != 0)
				f.typ[w] = BB_REDUCIBLE;
			while(!work_list.is_empty()) {
				x := work_list.remove_first();
				# Step e: the non-back predecessors of the work list's nodes.
				if(f.non_back_preds.at(x.dfs_number).items.size() > MAXNONBACKPREDS)
					return;
				f.step_e_process_non_back_preds(w, node_pool, work_list, x);
			}
		}
		if(node_pool.size() > 0 || f.typ[w] == BB_SELF) {
			l := f.lsg.create_new_loop(node_w, f.typ[w] != BB_IRREDUCIBLE);
			f.set_loop_attributes(w, node_pool, l);
		}
	}
}

HavlakLoopFinder.step_e_process_non_back_preds(f: self ref HavlakLoopFinder, w: int,
	node_pool, work_list: ref UFVector, x: ref UnionFindNode)
{
	preds := f.non_back_preds.at(x.dfs_number).items;
	n := preds.last_idx;
	for(i := preds.first_idx; i < n; i++) {
		y := f.nodes[preds.storage[i]];
		ydash := y.find_set();
		if(!f.is_ancestor(w, ydash.dfs_number)) {
			f.typ[w] = BB_IRREDUCIBLE;
			f.non_back_preds.at(w).add(ydash.dfs_number);
		} else if(ydash.dfs_number != w && !node_pool.has(ydash)) {
			work_list.append(ydash);
			node_pool.append(ydash);
		}
	}
}

HavlakLoopFinder.set_loop_attributes(f: self ref HavlakLoopFinder, w: int, node_pool: ref UFVector,
	l: ref SimpleLoop)
{
	f.nodes[w].loop = l;
	n := node_pool.last_idx;
	for(i := node_pool.first_idx; i < n; i++) {
		node := node_pool.storage[i];
		f.header[node.dfs_number] = w;
		node.union(f.nodes[w]);
		if(node.loop != nil)
			node.loop.set_parent(l);
		else
			l.basic_blocks.add(node.bb);
	}
}

HavlakLoopFinder.step_d(f: self ref HavlakLoopFinder, w: int, node_pool: ref UFVector)
{
	preds := f.back_preds.at(w);
	n := preds.last_idx;
	for(i := preds.first_idx; i < n; i++) {
		v := preds.storage[i];
		if(v != w)
			node_pool.append(f.nodes[v].find_set());
		else
			f.typ[w] = BB_SELF;
	}
}

# The test application: builds the graph and runs the finder.

LoopTesterApp.new(): ref LoopTesterApp
{
	a := ref LoopTesterApp(ControlFlowGraph.new(), LoopStructureGraph.new());
	a.cfg.create_node(0);
	return a;
}

LoopTesterApp.build_diamond(a: self ref LoopTesterApp, start: int): int
{
	bb0 := start;
	BasicBlockEdge.new(a.cfg, bb0, bb0 + 1);
	BasicBlockEdge.new(a.cfg, bb0, bb0 + 2);
	BasicBlockEdge.new(a.cfg, bb0 + 1, bb0 + 3);
	BasicBlockEdge.new(a.cfg, bb0 + 2, bb0 + 3);
	return bb0 + 3;
}

LoopTesterApp.build_connect(a: self ref LoopTesterApp, start, end: int)
{
	BasicBlockEdge.new(a.cfg, start, end);
}

LoopTesterApp.build_straight(a: self ref LoopTesterApp, start, n: int): int
{
	for(i := 0; i < n; i++)
		a.build_connect(start + i, start + i + 1);
	return start + n;
}

LoopTesterApp.build_base_loop(a: self ref LoopTesterApp, from: int): int
{
	header := a.build_straight(from, 1);
	diamond1 := a.build_diamond(header);
	d11 := a.build_straight(diamond1, 1);
	diamond2 := a.build_diamond(d11);
	footer := a.build_straight(diamond2, 1);
	a.build_connect(diamond2, d11);
	a.build_connect(diamond1, header);
	a.build_connect(footer, from);
	return a.build_straight(footer, 1);
}

LoopTesterApp.main(a: self ref LoopTesterApp, num_dummy_loops, find_loop_iterations, par_loops,
	ppar_loops, pppar_loops: int): (int, int)
{
	a.construct_simple_cfg();
	a.add_dummy_loops(num_dummy_loops);
	a.construct_cfg(par_loops, ppar_loops, pppar_loops);
	a.find_loops(a.lsg);
	for(i := 0; i <= find_loop_iterations; i++)
		a.find_loops(LoopStructureGraph.new());
	a.lsg.calculate_nesting_level();
	return (a.lsg.num_loops(), a.cfg.num_nodes());
}

LoopTesterApp.construct_cfg(a: self ref LoopTesterApp, par_loops, ppar_loops, pppar_loops: int)
{
	n := 2;
	for(i := 0; i < par_loops; i++) {
		a.cfg.create_node(n + 1);
		a.build_connect(2, n + 1);
		n++;
		for(j := 0; j < ppar_loops; j++) {
			top := n;
			n = a.build_straight(n, 1);
			for(k := 0; k < pppar_loops; k++)
				n = a.build_base_loop(n);
			bottom := a.build_straight(n, 1);
			a.build_connect(n, top);
			n = bottom;
		}
		a.build_connect(n, 0);
	}
}

LoopTesterApp.add_dummy_loops(a: self ref LoopTesterApp, num_dummy_loops: int)
{
	for(i := 0; i < num_dummy_loops; i++)
		a.find_loops(a.lsg);
}

LoopTesterApp.find_loops(a: self ref LoopTesterApp, loop_structure: ref LoopStructureGraph)
{
	HavlakLoopFinder.new(a.cfg, loop_structure).find_loops();
}

LoopTesterApp.construct_simple_cfg(a: self ref LoopTesterApp)
{
	a.cfg.create_node(0);
	a.build_base_loop(0);
	a.cfg.create_node(1);
	BasicBlockEdge.new(a.cfg, 0, 2);
}

# Vectors: append doubles a full storage; at is nil past the storage.

BBVector.new(size: int): ref BBVector
{
	storage: array of ref BasicBlock;
	if(size > 0)
		storage = array[size] of ref BasicBlock;
	return ref BBVector(storage, 0, 0);
}

BBVector.at(v: self ref BBVector, idx: int): ref BasicBlock
{
	if(v.storage == nil || idx >= len v.storage)
		return nil;
	return v.storage[idx];
}

BBVector.at_put(v: self ref BBVector, idx: int, val: ref BasicBlock)
{
	if(v.storage == nil) {
		n := INITIAL_SIZE;
		if(idx + 1 > n)
			n = idx + 1;
		v.storage = array[n] of ref BasicBlock;
	} else if(idx >= len v.storage) {
		n := len v.storage;
		while(idx >= n)
			n *= 2;
		grown := array[n] of ref BasicBlock;
		grown[0:] = v.storage;
		v.storage = grown;
	}
	v.storage[idx] = val;
	if(v.last_idx < idx + 1)
		v.last_idx = idx + 1;
}

BBVector.append(v: self ref BBVector, x: ref BasicBlock)
{
	if(v.storage == nil)
		v.storage = array[INITIAL_SIZE] of ref BasicBlock;
	else if(v.last_idx >= len v.storage) {
		grown := array[2 * len v.storage] of ref BasicBlock;
		grown[0:] = v.storage;
		v.storage = grown;
	}
	v.storage[v.last_idx++] = x;
}

BBVector.size(v: self ref BBVector): int
{
	return v.last_idx - v.first_idx;
}

BBVector.has(v: self ref BBVector, x: ref BasicBlock): int
{
	for(i := v.first_idx; i < v.last_idx; i++)
		if(v.storage[i] == x)
			return 1;
	return 0;
}

EdgeVector.append(v: self ref EdgeVector, x: ref BasicBlockEdge)
{
	if(v.storage == nil)
		v.storage = array[INITIAL_SIZE] of ref BasicBlockEdge;
	else if(v.last_idx >= len v.storage) {
		grown := array[2 * len v.storage] of ref BasicBlockEdge;
		grown[0:] = v.storage;
		v.storage = grown;
	}
	v.storage[v.last_idx++] = x;
}

LoopVector.append(v: self ref LoopVector, x: ref SimpleLoop)
{
	if(v.storage == nil)
		v.storage = array[INITIAL_SIZE] of ref SimpleLoop;
	else if(v.last_idx >= len v.storage) {
		grown := array[2 * len v.storage] of ref SimpleLoop;
		grown[0:] = v.storage;
		v.storage = grown;
	}
	v.storage[v.last_idx++] = x;
}

LoopVector.size(v: self ref LoopVector): int
{
	return v.last_idx - v.first_idx;
}

LoopVector.has(v: self ref LoopVector, x: ref SimpleLoop): int
{
	for(i := v.first_idx; i < v.last_idx; i++)
		if(v.storage[i] == x)
			return 1;
	return 0;
}

UFVector.append(v: self ref UFVector, x: ref UnionFindNode)
{
	if(v.storage == nil)
		v.storage = array[INITIAL_SIZE] of ref UnionFindNode;
	else if(v.last_idx >= len v.storage) {
		grown := array[2 * len v.storage] of ref UnionFindNode;
		grown[0:] = v.storage;
		v.storage = grown;
	}
	v.storage[v.last_idx++] = x;
}

UFVector.is_empty(v: self ref UFVector): int
{
	return v.last_idx == v.first_idx;
}

UFVector.remove_first(v: self ref UFVector): ref UnionFindNode
{
	if(v.is_empty())
		return nil;
	return v.storage[v.first_idx++];
}

UFVector.size(v: self ref UFVector): int
{
	return v.last_idx - v.first_idx;
}

UFVector.has(v: self ref UFVector, x: ref UnionFindNode): int
{
	for(i := v.first_idx; i < v.last_idx; i++)
		if(v.storage[i] == x)
			return 1;
	return 0;
}

IntVector.append(v: self ref IntVector, x: int)
{
	if(v.storage == nil)
		v.storage = array[INITIAL_SIZE] of int;
	else if(v.last_idx >= len v.storage) {
		grown := array[2 * len v.storage] of int;
		grown[0:] = v.storage;
		v.storage = grown;
	}
	v.storage[v.last_idx++] = x;
}

IntVector.size(v: self ref IntVector): int
{
	return v.last_idx - v.first_idx;
}

IntVector.has(v: self ref IntVector, x: int): int
{
	for(i := v.first_idx; i < v.last_idx; i++)
		if(v.storage[i] == x)
			return 1;
	return 0;
}

IntSetVector.append(v: self ref IntSetVector, x: ref IntSet)
{
	if(v.storage == nil)
		v.storage = array[INITIAL_SIZE] of ref IntSet;
	else if(v.last_idx >= len v.storage) {
		grown := array[2 * len v.storage] of ref IntSet;
		grown[0:] = v.storage;
		v.storage = grown;
	}
	v.storage[v.last_idx++] = x;
}

IntSetVector.at(v: self ref IntSetVector, idx: int): ref IntSet
{
	if(v.storage == nil || idx >= len v.storage)
		return nil;
	return v.storage[idx];
}

IntSetVector.remove_all(v: self ref IntSetVector)
{
	v.first_idx = v.last_idx = 0;
	if(v.storage != nil)
		v.storage = array[len v.storage] of ref IntSet;
}

IntVecVector.append(v: self ref IntVecVector, x: ref IntVector)
{
	if(v.storage == nil)
		v.storage = array[INITIAL_SIZE] of ref IntVector;
	else if(v.last_idx >= len v.storage) {
		grown := array[2 * len v.storage] of ref IntVector;
		grown[0:] = v.storage;
		v.storage = grown;
	}
	v.storage[v.last_idx++] = x;
}

IntVecVector.at(v: self ref IntVecVector, idx: int): ref IntVector
{
	if(v.storage == nil || idx >= len v.storage)
		return nil;
	return v.storage[idx];
}

IntVecVector.remove_all(v: self ref IntVecVector)
{
	v.first_idx = v.last_idx = 0;
	if(v.storage != nil)
		v.storage = array[len v.storage] of ref IntVector;
}

# Sets: add appends what the set does not hold yet.

IntSet.add(s: self ref IntSet, x: int)
{
	if(!s.items.has(x))
		s.items.append(x);
}

BBSet.add(s: self ref BBSet, x: ref BasicBlock)
{
	if(!s.items.has(x))
		s.items.append(x);
}

LoopSet.add(s: self ref LoopSet, x: ref SimpleLoop)
{
	if(!s.items.has(x))
		s.items.append(x);
}

# The suite's IdentityDictionary, for block keys and int values (-1: absent).

dict_hash(key: ref BasicBlock): int
{
	if(key == nil)
		return 0;
	hash := key.custom_hash();
	return hash ^ (hash >> 16);
}

BBEntry.match(e: self ref BBEntry, hash: int, key: ref BasicBlock): int
{
	return e.hash == hash && e.key == key;
}

BBDict.new(): ref BBDict
{
	return ref BBDict(array[INITIAL_CAPACITY] of ref BBEntry, 0);
}

BBDict.at(d: self ref BBDict, key: ref BasicBlock): int
{
	hash := dict_hash(key);
	for(e := d.buckets[(len d.buckets - 1) & hash]; e != nil; e = e.next)
		if(e.match(hash, key))
			return e.value;
	return -1;
}

BBDict.at_put(d: self ref BBDict, key: ref BasicBlock, value: int)
{
	hash := dict_hash(key);
	i := (len d.buckets - 1) & hash;
	current := d.buckets[i];
	if(current == nil) {
		d.buckets[i] = ref BBEntry(hash, key, value, nil);
		d.size++;
	} else {
		for(;;) {
			if(current.match(hash, key)) {
				current.value = value;
				break;
			}
			if(current.next == nil) {
				d.size++;
				current.next = ref BBEntry(hash, key, value, nil);
				break;
			}
			current = current.next;
		}
	}
	if(d.size > len d.buckets)
		d.resize();
}

BBDict.remove_all(d: self ref BBDict)
{
	d.buckets = array[len d.buckets] of ref BBEntry;
	d.size = 0;
}

BBDict.resize(d: self ref BBDict)
{
	old := d.buckets;
	d.buckets = array[2 * len old] of ref BBEntry;
	for(i := 0; i < len old; i++) {
		current := old[i];
		if(current != nil) {
			old[i] = nil;
			if(current.next == nil)
				d.buckets[current.hash & (len d.buckets - 1)] = current;
			else
				d.split_bucket(old, i, current);
		}
	}
}

BBDict.split_bucket(d: self ref BBDict, old: array of ref BBEntry, i: int, head: ref BBEntry)
{
	lo_head, lo_tail, hi_head, hi_tail: ref BBEntry;
	for(current := head; current != nil; current = current.next) {
		if((current.hash & len old) == 0) {
			if(lo_tail == nil)
				lo_head = current;
			else
				lo_tail.next = current;
			lo_tail = current;
		} else {
			if(hi_tail == nil)
				hi_head = current;
			else
				hi_tail.next = current;
			hi_tail = current;
		}
	}
	if(lo_tail != nil) {
		lo_tail.next = nil;
		d.buckets[i] = lo_head;
	}
	if(hi_tail != nil) {
		hi_tail.next = nil;
		d.buckets[i + len old] = hi_head;
	}
}
