implement Benchmark;

# Are-We-Fast-Yet: CD (collision detection, after the CD_x benchmark of
# Kalibera et al.). A simulator moves inner aircraft for 200 frames; a
# detector maps their motions onto a voxel grid kept in red-black trees and
# counts the pairs that come too close (14484 for 1000 aircraft; the
# suite's figures for 500, 250, 200, 100, 10 and 2 are checked too).
#
# Polymorphism: the suite's red-black tree is generic in its keys (which
# answer compare_to) and values. Here the two key classes, CallSign and
# Vector2D, are the variants of one pick adt (Key) and compare_to picks on
# the variant; the values (positions, motion lists, the flag true) are
# boxed in a pick adt (Value) as Java boxes them. Our compiler gives
# ref Key.Vector2D(...) the type ref Key, so vec2() narrows it with pick.
# Polymorphic adts are not supported by our compiler yet, so the suite's
# Vector is written for each element type used (MVector of motions,
# AVector of aircraft, KVector of call signs, CVector of collisions,
# RVector of motion vectors). Closures: the suite's each/for_each blocks
# are loops here; tree_insert returns a tuple instead of an InsertResult.

include "benchmark.m";
include "sys.m";
	sys: Sys;
include "math.m";
	math: Math;

MIN_X:	con 0.0;
MIN_Y:	con 0.0;
MAX_X:	con 1000.0;
MAX_Y:	con 1000.0;
MIN_Z:	con 0.0;
MAX_Z:	con 10.0;
PROXIMITY_RADIUS:	con 1.0;
GOOD_VOXEL_SIZE:	con PROXIMITY_RADIUS * 2.0;

INITIAL_SIZE:	con 10;

RED, BLACK:	con iota;

Key: adt
{
	pick {
	CallSign =>
		value:	int;
	Vector2D =>
		x, y:	real;
	}

	compare_to:	fn(k: self ref Key, other: ref Key): int;
};

Vector3D: adt
{
	x, y, z:	real;

	plus:	fn(v: self ref Vector3D, other: ref Vector3D): ref Vector3D;
	minus:	fn(v: self ref Vector3D, other: ref Vector3D): ref Vector3D;
	dot:	fn(v: self ref Vector3D, other: ref Vector3D): real;
	squared_magnitude:	fn(v: self ref Vector3D): real;
	magnitude:	fn(v: self ref Vector3D): real;
	times:	fn(v: self ref Vector3D, amount: real): ref Vector3D;
};

Value: adt
{
	pick {
	Position =>
		p:	ref Vector3D;
	Motions =>
		m:	ref MVector;
	True =>
	}
};

Node: adt
{
	key:	ref Key;
	value:	ref Value;
	left:	cyclic ref Node;
	right:	cyclic ref Node;
	parent:	cyclic ref Node;
	color:	int;

	successor:	fn(n: self ref Node): ref Node;
};

RedBlackTree: adt
{
	root:	ref Node;

	new:	fn(): ref RedBlackTree;
	put:	fn(t: self ref RedBlackTree, key: ref Key, value: ref Value): ref Value;
	remove:	fn(t: self ref RedBlackTree, key: ref Key): ref Value;
	get:	fn(t: self ref RedBlackTree, key: ref Key): ref Value;
	first:	fn(t: self ref RedBlackTree): ref Node;
	find_node:	fn(t: self ref RedBlackTree, key: ref Key): ref Node;
	tree_insert:	fn(t: self ref RedBlackTree, key: ref Key, value: ref Value): (int, ref Node, ref Value);
	left_rotate:	fn(t: self ref RedBlackTree, x: ref Node): ref Node;
	right_rotate:	fn(t: self ref RedBlackTree, y: ref Node): ref Node;
	remove_fixup:	fn(t: self ref RedBlackTree, x, x_parent: ref Node);
};

Aircraft: adt
{
	callsign:	ref Key.CallSign;
	position:	ref Vector3D;
};

Collision: adt
{
	aircraft_a:	ref Key.CallSign;
	aircraft_b:	ref Key.CallSign;
	position:	ref Vector3D;
};

Motion: adt
{
	callsign:	ref Key.CallSign;
	pos_one:	ref Vector3D;
	pos_two:	ref Vector3D;

	delta:	fn(m: self ref Motion): ref Vector3D;
	find_intersection:	fn(m: self ref Motion, other: ref Motion): ref Vector3D;
};

MVector: adt
{
	storage:	array of ref Motion;
	last_idx:	int;

	append:	fn(v: self ref MVector, x: ref Motion);
	size:	fn(v: self ref MVector): int;
	at:	fn(v: self ref MVector, idx: int): ref Motion;
};

AVector: adt
{
	storage:	array of ref Aircraft;
	last_idx:	int;

	append:	fn(v: self ref AVector, x: ref Aircraft);
};

KVector: adt
{
	storage:	array of ref Key.CallSign;
	last_idx:	int;

	append:	fn(v: self ref KVector, x: ref Key.CallSign);
	size:	fn(v: self ref KVector): int;
	at:	fn(v: self ref KVector, idx: int): ref Key.CallSign;
};

CVector: adt
{
	storage:	array of ref Collision;
	last_idx:	int;

	append:	fn(v: self ref CVector, x: ref Collision);
	size:	fn(v: self ref CVector): int;
};

RVector: adt
{
	storage:	array of ref MVector;
	last_idx:	int;

	append:	fn(v: self ref RVector, x: ref MVector);
};

CollisionDetector: adt
{
	state:	ref RedBlackTree;

	new:	fn(): ref CollisionDetector;
	handle_new_frame:	fn(d: self ref CollisionDetector, frame: ref AVector): ref CVector;
	recurse:	fn(d: self ref CollisionDetector, voxel_map, seen: ref RedBlackTree,
		next_voxel: ref Key.Vector2D, motion: ref Motion);
	reduce_collision_set:	fn(d: self ref CollisionDetector, motions: ref MVector): ref RVector;
	draw_motion_on_voxel_map:	fn(d: self ref CollisionDetector, voxel_map: ref RedBlackTree,
		motion: ref Motion);
};

Simulator: adt
{
	aircraft:	ref KVector;

	new:	fn(num_aircrafts: int): ref Simulator;
	simulate:	fn(s: self ref Simulator, time: real): ref AVector;
};

# Module data, set up once.
HORIZONTAL, VERTICAL: ref Key.Vector2D;
TRUE: ref Value;

inner_benchmark_loop(inner: int): int
{
	if(math == nil) {
		math = load Math Math->PATH;
		HORIZONTAL = vec2(GOOD_VOXEL_SIZE, 0.0);
		VERTICAL = vec2(0.0, GOOD_VOXEL_SIZE);
		TRUE = ref Value.True();
	}
	# The simulation divides by velocity components that can be zero and
	# relies on IEEE infinities, as the other languages' versions do;
	# Inferno traps on them unless the program says otherwise.
	math->FPcontrol(0, Math->INVAL|Math->ZDIV|Math->OVFL|Math->UNFL);
	return verify_result(benchmark(inner), inner);
}

benchmark(num_aircrafts: int): int
{
	num_frames := 200;
	simulator := Simulator.new(num_aircrafts);
	detector := CollisionDetector.new();
	actual_collisions := 0;
	for(i := 0; i < num_frames; i++) {
		time := real i / 10.0;
		collisions := detector.handle_new_frame(simulator.simulate(time));
		actual_collisions += collisions.size();
	}
	return actual_collisions;
}

verify_result(actual_collisions, num_aircrafts: int): int
{
	case num_aircrafts {
	1000 or 500 =>
		return actual_collisions == 14484;
	250 =>
		return actual_collisions == 10830;
	200 =>
		return actual_collisions == 8655;
	100 =>
		return actual_collisions == 4305;
	10 =>
		return actual_collisions == 390;
	2 =>
		return actual_collisions == 42;
	}
	sys = load Sys Sys->PATH;
	sys->print("No verification result for %d found\n", num_aircrafts);
	sys->print("Result is: %d\n", actual_collisions);
	return 0;
}

# Keys and vectors

vec2(x, y: real): ref Key.Vector2D
{
	pick v := ref Key.Vector2D(x, y) {
	Vector2D =>
		return v;
	}
	return nil;
}

call_sign(value: int): ref Key.CallSign
{
	pick c := ref Key.CallSign(value) {
	CallSign =>
		return c;
	}
	return nil;
}

plus2(v, other: ref Key.Vector2D): ref Key.Vector2D
{
	return vec2(v.x + other.x, v.y + other.y);
}

minus2(v, other: ref Key.Vector2D): ref Key.Vector2D
{
	return vec2(v.x - other.x, v.y - other.y);
}

compare_numbers(a, b: real): int
{
	if(a == b)
		return 0;
	if(a < b)
		return -1;
	if(a > b)
		return 1;
	if(a == a)	# b is NaN
		return 1;
	return -1;
}

Key.compare_to(k: self ref Key, other: ref Key): int
{
	pick a := k {
	CallSign =>
		pick b := other {
		CallSign =>
			if(a.value == b.value)
				return 0;
			if(a.value < b.value)
				return -1;
			return 1;
		}
	Vector2D =>
		pick b := other {
		Vector2D =>
			result := compare_numbers(a.x, b.x);
			if(result != 0)
				return result;
			return compare_numbers(a.y, b.y);
		}
	}
	raise "compare_to: keys of different kinds";
}

Vector3D.plus(v: self ref Vector3D, other: ref Vector3D): ref Vector3D
{
	return ref Vector3D(v.x + other.x, v.y + other.y, v.z + other.z);
}

Vector3D.minus(v: self ref Vector3D, other: ref Vector3D): ref Vector3D
{
	return ref Vector3D(v.x - other.x, v.y - other.y, v.z - other.z);
}

Vector3D.dot(v: self ref Vector3D, other: ref Vector3D): real
{
	return v.x * other.x + v.y * other.y + v.z * other.z;
}

Vector3D.squared_magnitude(v: self ref Vector3D): real
{
	return v.dot(v);
}

Vector3D.magnitude(v: self ref Vector3D): real
{
	return math->sqrt(v.squared_magnitude());
}

Vector3D.times(v: self ref Vector3D, amount: real): ref Vector3D
{
	return ref Vector3D(v.x * amount, v.y * amount, v.z * amount);
}

# The red-black tree

tree_minimum(x: ref Node): ref Node
{
	current := x;
	while(current.left != nil)
		current = current.left;
	return current;
}

Node.successor(n: self ref Node): ref Node
{
	x := n;
	if(x.right != nil)
		return tree_minimum(x.right);
	y := x.parent;
	while(y != nil && x == y.right) {
		x = y;
		y = y.parent;
	}
	return y;
}

RedBlackTree.new(): ref RedBlackTree
{
	return ref RedBlackTree(nil);
}

RedBlackTree.put(t: self ref RedBlackTree, key: ref Key, value: ref Value): ref Value
{
	(is_new_entry, x, old_value) := t.tree_insert(key, value);
	if(!is_new_entry)
		return old_value;
	while(x != t.root && x.parent.color == RED) {
		if(x.parent == x.parent.parent.left) {
			y := x.parent.parent.right;
			if(y != nil && y.color == RED) {
				x.parent.color = BLACK;
				y.color = BLACK;
				x.parent.parent.color = RED;
				x = x.parent.parent;
			} else {
				if(x == x.parent.right) {
					x = x.parent;
					t.left_rotate(x);
				}
				x.parent.color = BLACK;
				x.parent.parent.color = RED;
				t.right_rotate(x.parent.parent);
			}
		} else {
			y := x.parent.parent.left;
			if(y != nil && y.color == RED) {
				x.parent.color = BLACK;
				y.color = BLACK;
				x.parent.parent.color = RED;
				x = x.parent.parent;
			} else {
				if(x == x.parent.left) {
					x = x.parent;
					t.right_rotate(x);
				}
				x.parent.color = BLACK;
				x.parent.parent.color = RED;
				t.left_rotate(x.parent.parent);
			}
		}
	}
	t.root.color = BLACK;
	return nil;
}

RedBlackTree.remove(t: self ref RedBlackTree, key: ref Key): ref Value
{
	z := t.find_node(key);
	if(z == nil)
		return nil;
	y: ref Node;
	if(z.left == nil || z.right == nil)
		y = z;
	else
		y = z.successor();
	x: ref Node;
	if(y.left != nil)
		x = y.left;
	else
		x = y.right;
	x_parent: ref Node;
	if(x != nil) {
		x.parent = y.parent;
		x_parent = x.parent;
	} else
		x_parent = y.parent;
	if(y.parent == nil)
		t.root = x;
	else if(y == y.parent.left)
		y.parent.left = x;
	else
		y.parent.right = x;
	if(y != z) {
		if(y.color == BLACK)
			t.remove_fixup(x, x_parent);
		y.parent = z.parent;
		y.color = z.color;
		y.left = z.left;
		y.right = z.right;
		if(z.left != nil)
			z.left.parent = y;
		if(z.right != nil)
			z.right.parent = y;
		if(z.parent != nil) {
			if(z.parent.left == z)
				z.parent.left = y;
			else
				z.parent.right = y;
		} else
			t.root = y;
	} else if(y.color == BLACK)
		t.remove_fixup(x, x_parent);
	return z.value;
}

RedBlackTree.get(t: self ref RedBlackTree, key: ref Key): ref Value
{
	node := t.find_node(key);
	if(node != nil)
		return node.value;
	return nil;
}

# Where the suite's for_each starts; Node.successor goes on.
RedBlackTree.first(t: self ref RedBlackTree): ref Node
{
	if(t.root == nil)
		return nil;
	return tree_minimum(t.root);
}

RedBlackTree.find_node(t: self ref RedBlackTree, key: ref Key): ref Node
{
	current := t.root;
	while(current != nil) {
		comparison_result := key.compare_to(current.key);
		if(comparison_result == 0)
			return current;
		if(comparison_result < 0)
			current = current.left;
		else
			current = current.right;
	}
	return nil;
}

RedBlackTree.tree_insert(t: self ref RedBlackTree, key: ref Key, value: ref Value): (int, ref Node, ref Value)
{
	y: ref Node;
	x := t.root;
	while(x != nil) {
		y = x;
		comparison_result := key.compare_to(x.key);
		if(comparison_result < 0)
			x = x.left;
		else if(comparison_result > 0)
			x = x.right;
		else {
			old_value := x.value;
			x.value = value;
			return (0, nil, old_value);
		}
	}
	z := ref Node(key, value, nil, nil, y, RED);
	if(y == nil)
		t.root = z;
	else if(key.compare_to(y.key) < 0)
		y.left = z;
	else
		y.right = z;
	return (1, z, nil);
}

RedBlackTree.left_rotate(t: self ref RedBlackTree, x: ref Node): ref Node
{
	y := x.right;
	x.right = y.left;
	if(y.left != nil)
		y.left.parent = x;
	y.parent = x.parent;
	if(x.parent == nil)
		t.root = y;
	else if(x == x.parent.left)
		x.parent.left = y;
	else
		x.parent.right = y;
	y.left = x;
	x.parent = y;
	return y;
}

RedBlackTree.right_rotate(t: self ref RedBlackTree, y: ref Node): ref Node
{
	x := y.left;
	y.left = x.right;
	if(x.right != nil)
		x.right.parent = y;
	x.parent = y.parent;
	if(y.parent == nil)
		t.root = x;
	else if(y == y.parent.left)
		y.parent.left = x;
	else
		y.parent.right = x;
	x.right = y;
	y.parent = x;
	return x;
}

RedBlackTree.remove_fixup(t: self ref RedBlackTree, x, x_parent: ref Node)
{
	while(x != t.root && (x == nil || x.color == BLACK)) {
		if(x == x_parent.left) {
			w := x_parent.right;
			if(w.color == RED) {
				w.color = BLACK;
				x_parent.color = RED;
				t.left_rotate(x_parent);
				w = x_parent.right;
			}
			if((w.left == nil || w.left.color == BLACK) && (w.right == nil || w.right.color == BLACK)) {
				w.color = RED;
				x = x_parent;
				x_parent = x.parent;
			} else {
				if(w.right == nil || w.right.color == BLACK) {
					w.left.color = BLACK;
					w.color = RED;
					t.right_rotate(w);
					w = x_parent.right;
				}
				w.color = x_parent.color;
				x_parent.color = BLACK;
				if(w.right != nil)
					w.right.color = BLACK;
				t.left_rotate(x_parent);
				x = t.root;
				x_parent = x.parent;
			}
		} else {
			w := x_parent.left;
			if(w.color == RED) {
				w.color = BLACK;
				x_parent.color = RED;
				t.right_rotate(x_parent);
				w = x_parent.left;
			}
			if((w.right == nil || w.right.color == BLACK) && (w.left == nil || w.left.color == BLACK)) {
				w.color = RED;
				x = x_parent;
				x_parent = x.parent;
			} else {
				if(w.left == nil || w.left.color == BLACK) {
					w.right.color = BLACK;
					w.color = RED;
					t.left_rotate(w);
					w = x_parent.left;
				}
				w.color = x_parent.color;
				x_parent.color = BLACK;
				if(w.left != nil)
					w.left.color = BLACK;
				t.right_rotate(x_parent);
				x = t.root;
				x_parent = x.parent;
			}
		}
	}
	if(x != nil)
		x.color = BLACK;
}

# Motions

Motion.delta(m: self ref Motion): ref Vector3D
{
	return m.pos_two.minus(m.pos_one);
}

Motion.find_intersection(m: self ref Motion, other: ref Motion): ref Vector3D
{
	init1 := m.pos_one;
	init2 := other.pos_one;
	vec1 := m.delta();
	vec2 := other.delta();
	radius := PROXIMITY_RADIUS;

	# The distance between the aircraft over the frame's time t in [0, 1]
	# is a quadratic a*t*t + b*t + c; they meet where it is below radius.
	a := vec2.minus(vec1).squared_magnitude();
	if(a != 0.0) {
		b := 2.0 * init1.minus(init2).dot(vec1.minus(vec2));
		c := -radius * radius + init2.minus(init1).squared_magnitude();
		discr := b * b - 4.0 * a * c;
		if(discr < 0.0)
			return nil;
		v1 := (-b - math->sqrt(discr)) / (2.0 * a);
		v2 := (-b + math->sqrt(discr)) / (2.0 * a);
		if(v1 <= v2 && ((v1 <= 1.0 && 1.0 <= v2) || (v1 <= 0.0 && 0.0 <= v2) || (0.0 <= v1 && v2 <= 1.0))) {
			v := v1;
			if(v1 <= 0.0)
				v = 0.0;
			result1 := init1.plus(vec1.times(v));
			result2 := init2.plus(vec2.times(v));
			result := result1.plus(result2).times(0.5);
			if(result.x >= MIN_X && result.x <= MAX_X && result.y >= MIN_Y && result.y <= MAX_Y &&
			   result.z >= MIN_Z && result.z <= MAX_Z)
				return result;
		}
		return nil;
	}
	# Parallel motions: the distance does not change.
	dist := init2.minus(init1).magnitude();
	if(dist <= radius)
		return init1.plus(init2).times(0.5);
	return nil;
}

# The detector

CollisionDetector.new(): ref CollisionDetector
{
	return ref CollisionDetector(RedBlackTree.new());
}

CollisionDetector.handle_new_frame(d: self ref CollisionDetector, frame: ref AVector): ref CVector
{
	motions := ref MVector(nil, 0);
	seen := RedBlackTree.new();
	for(i := 0; i < frame.last_idx; i++) {
		aircraft := frame.storage[i];
		old_position: ref Vector3D;
		old := d.state.put(aircraft.callsign, ref Value.Position(aircraft.position));
		if(old != nil) {
			pick o := old {
			Position =>
				old_position = o.p;
			}
		}
		new_position := aircraft.position;
		seen.put(aircraft.callsign, TRUE);
		if(old_position == nil)
			old_position = new_position;
		motions.append(ref Motion(aircraft.callsign, old_position, new_position));
	}

	to_remove := ref KVector(nil, 0);
	for(e := d.state.first(); e != nil; e = e.successor()) {
		if(seen.get(e.key) == nil) {
			pick c := e.key {
			CallSign =>
				to_remove.append(c);
			}
		}
	}
	for(i = 0; i < to_remove.last_idx; i++)
		d.state.remove(to_remove.storage[i]);

	all_reduced := d.reduce_collision_set(motions);
	collisions := ref CVector(nil, 0);
	for(r := 0; r < all_reduced.last_idx; r++) {
		reduced := all_reduced.storage[r];
		for(i = 0; i < reduced.size(); i++) {
			motion1 := reduced.at(i);
			for(j := i + 1; j < reduced.size(); j++) {
				motion2 := reduced.at(j);
				collision := motion1.find_intersection(motion2);
				if(collision != nil)
					collisions.append(ref Collision(motion1.callsign, motion2.callsign, collision));
			}
		}
	}
	return collisions;
}

is_in_voxel(voxel: ref Key.Vector2D, motion: ref Motion): int
{
	if(voxel.x > MAX_X || voxel.x < MIN_X || voxel.y > MAX_Y || voxel.y < MIN_Y)
		return 0;
	init := motion.pos_one;
	fin := motion.pos_two;
	v_s := GOOD_VOXEL_SIZE;
	r := PROXIMITY_RADIUS / 2.0;

	v_x := voxel.x;
	x0 := init.x;
	xv := fin.x - init.x;
	v_y := voxel.y;
	y0 := init.y;
	yv := fin.y - init.y;

	low_x := (v_x - r - x0) / xv;
	high_x := (v_x + v_s + r - x0) / xv;
	if(xv < 0.0)
		(low_x, high_x) = (high_x, low_x);
	low_y := (v_y - r - y0) / yv;
	high_y := (v_y + v_s + r - y0) / yv;
	if(yv < 0.0)
		(low_y, high_y) = (high_y, low_y);

	return ((xv == 0.0 && v_x <= x0 + r && x0 - r <= v_x + v_s) ||	# no motion in x
		(low_x <= 1.0 && 1.0 <= high_x) || (low_x <= 0.0 && 0.0 <= high_x) ||
		(0.0 <= low_x && high_x <= 1.0)) &&
	       ((yv == 0.0 && v_y <= y0 + r && y0 - r <= v_y + v_s) ||	# no motion in y
		((low_y <= 1.0 && 1.0 <= high_y) || (low_y <= 0.0 && 0.0 <= high_y) ||
		 (0.0 <= low_y && high_y <= 1.0))) &&
	       (xv == 0.0 || yv == 0.0 ||	# no motion in x or y or both
		(low_y <= high_x && high_x <= high_y) ||
		(low_y <= low_x && low_x <= high_y) ||
		(low_x <= low_y && high_y <= high_x));
}

put_into_map(voxel_map: ref RedBlackTree, voxel: ref Key.Vector2D, motion: ref Motion)
{
	a: ref MVector;
	v := voxel_map.get(voxel);
	if(v != nil) {
		pick m := v {
		Motions =>
			a = m.m;
		}
	}
	if(a == nil) {
		a = ref MVector(nil, 0);
		voxel_map.put(voxel, ref Value.Motions(a));
	}
	a.append(motion);
}

CollisionDetector.recurse(d: self ref CollisionDetector, voxel_map, seen: ref RedBlackTree,
	next_voxel: ref Key.Vector2D, motion: ref Motion)
{
	if(!is_in_voxel(next_voxel, motion))
		return;
	if(seen.put(next_voxel, TRUE) != nil)
		return;
	put_into_map(voxel_map, next_voxel, motion);

	d.recurse(voxel_map, seen, minus2(next_voxel, HORIZONTAL), motion);
	d.recurse(voxel_map, seen, plus2(next_voxel, HORIZONTAL), motion);
	d.recurse(voxel_map, seen, minus2(next_voxel, VERTICAL), motion);
	d.recurse(voxel_map, seen, plus2(next_voxel, VERTICAL), motion);
	d.recurse(voxel_map, seen, minus2(minus2(next_voxel, HORIZONTAL), VERTICAL), motion);
	d.recurse(voxel_map, seen, plus2(minus2(next_voxel, HORIZONTAL), VERTICAL), motion);
	d.recurse(voxel_map, seen, minus2(plus2(next_voxel, HORIZONTAL), VERTICAL), motion);
	d.recurse(voxel_map, seen, plus2(plus2(next_voxel, HORIZONTAL), VERTICAL), motion);
}

CollisionDetector.reduce_collision_set(d: self ref CollisionDetector, motions: ref MVector): ref RVector
{
	voxel_map := RedBlackTree.new();
	for(i := 0; i < motions.last_idx; i++)
		d.draw_motion_on_voxel_map(voxel_map, motions.storage[i]);
	result := ref RVector(nil, 0);
	for(e := voxel_map.first(); e != nil; e = e.successor()) {
		pick v := e.value {
		Motions =>
			if(v.m.size() > 1)
				result.append(v.m);
		}
	}
	return result;
}

voxel_hash(position: ref Vector3D): ref Key.Vector2D
{
	x_div := math->floor(position.x / GOOD_VOXEL_SIZE);
	y_div := math->floor(position.y / GOOD_VOXEL_SIZE);
	x := GOOD_VOXEL_SIZE * x_div;
	y := GOOD_VOXEL_SIZE * y_div;
	if(position.x < 0.0)
		x -= GOOD_VOXEL_SIZE;
	if(position.y < 0.0)
		y -= GOOD_VOXEL_SIZE;
	return vec2(x, y);
}

CollisionDetector.draw_motion_on_voxel_map(d: self ref CollisionDetector, voxel_map: ref RedBlackTree,
	motion: ref Motion)
{
	seen := RedBlackTree.new();
	d.recurse(voxel_map, seen, voxel_hash(motion.pos_one), motion);
}

# The simulator

Simulator.new(num_aircrafts: int): ref Simulator
{
	aircraft := ref KVector(nil, 0);
	for(i := 1; i <= num_aircrafts; i++)
		aircraft.append(call_sign(i));
	return ref Simulator(aircraft);
}

Simulator.simulate(s: self ref Simulator, time: real): ref AVector
{
	frame := ref AVector(nil, 0);
	for(i := 0; i < s.aircraft.size() - 1; i += 2) {
		frame.append(ref Aircraft(s.aircraft.at(i),
			ref Vector3D(time, math->cos(time) * 2.0 + real i * 3.0, 10.0)));
		frame.append(ref Aircraft(s.aircraft.at(i + 1),
			ref Vector3D(time, math->sin(time) * 2.0 + real i * 3.0, 10.0)));
	}
	return frame;
}

# The suite's Vector (append, size, at), for each element type.

MVector.append(v: self ref MVector, x: ref Motion)
{
	if(v.storage == nil)
		v.storage = array[INITIAL_SIZE] of ref Motion;
	else if(v.last_idx >= len v.storage) {
		grown := array[2 * len v.storage] of ref Motion;
		grown[0:] = v.storage;
		v.storage = grown;
	}
	v.storage[v.last_idx++] = x;
}

MVector.size(v: self ref MVector): int
{
	return v.last_idx;
}

MVector.at(v: self ref MVector, idx: int): ref Motion
{
	if(v.storage == nil || idx >= len v.storage)
		return nil;
	return v.storage[idx];
}

AVector.append(v: self ref AVector, x: ref Aircraft)
{
	if(v.storage == nil)
		v.storage = array[INITIAL_SIZE] of ref Aircraft;
	else if(v.last_idx >= len v.storage) {
		grown := array[2 * len v.storage] of ref Aircraft;
		grown[0:] = v.storage;
		v.storage = grown;
	}
	v.storage[v.last_idx++] = x;
}

KVector.append(v: self ref KVector, x: ref Key.CallSign)
{
	if(v.storage == nil)
		v.storage = array[INITIAL_SIZE] of ref Key.CallSign;
	else if(v.last_idx >= len v.storage) {
		grown := array[2 * len v.storage] of ref Key.CallSign;
		grown[0:] = v.storage;
		v.storage = grown;
	}
	v.storage[v.last_idx++] = x;
}

KVector.size(v: self ref KVector): int
{
	return v.last_idx;
}

KVector.at(v: self ref KVector, idx: int): ref Key.CallSign
{
	if(v.storage == nil || idx >= len v.storage)
		return nil;
	return v.storage[idx];
}

CVector.append(v: self ref CVector, x: ref Collision)
{
	if(v.storage == nil)
		v.storage = array[INITIAL_SIZE] of ref Collision;
	else if(v.last_idx >= len v.storage) {
		grown := array[2 * len v.storage] of ref Collision;
		grown[0:] = v.storage;
		v.storage = grown;
	}
	v.storage[v.last_idx++] = x;
}

CVector.size(v: self ref CVector): int
{
	return v.last_idx;
}

RVector.append(v: self ref RVector, x: ref MVector)
{
	if(v.storage == nil)
		v.storage = array[INITIAL_SIZE] of ref MVector;
	else if(v.last_idx >= len v.storage) {
		grown := array[2 * len v.storage] of ref MVector;
		grown[0:] = v.storage;
		v.storage = grown;
	}
	v.storage[v.last_idx++] = x;
}
