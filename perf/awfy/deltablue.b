implement Benchmark;

# Are-We-Fast-Yet: DeltaBlue (the incremental constraint solver of
# Freeman-Benson, Maloney and Borning, after Mario Wolczko's Smalltalk
# version; see NOTICE.md). A chain test and a projection test of size inner.
#
# Dynamic dispatch: the suite's constraint classes (Edit and Stay below
# Unary, Equality and Scale below Binary) are one pick adt; each method
# picks on the variant. Edit and Stay share their members, and so do
# Equality and Scale (Scale's scale and offset are nil in an Equality).
# Closures: the suite's each/inputs_do/has_some blocks are written as loops
# over the vectors here (Limbo has no closures).
# Collections: polymorphic adts are not supported by our compiler yet, so
# the suite's Vector is written for its two element types (CVector of
# constraints, VVector of variables) and its IdentityDictionary for symbol
# keys, with values boxed in a pick adt (SymValue) as Java boxes them.

include "benchmark.m";

NONE:	con 0;
FORWARD:	con 1;
BACKWARD:	con 2;

INITIAL_SIZE:	con 10;
INITIAL_CAPACITY:	con 16;

Sym: adt
{
	hash:	int;

	custom_hash:	fn(s: self ref Sym): int;
};

Strength: adt
{
	symbolic_value:	ref Sym;
	arithmetic_value:	int;

	new:	fn(sym: ref Sym): ref Strength;
	of_sym:	fn(sym: ref Sym): ref Strength;
	same_as:	fn(s: self ref Strength, t: ref Strength): int;
	stronger:	fn(s: self ref Strength, t: ref Strength): int;
	weaker:	fn(s: self ref Strength, t: ref Strength): int;
	strongest:	fn(s: self ref Strength, t: ref Strength): ref Strength;
	weakest:	fn(s: self ref Strength, t: ref Strength): ref Strength;
};

SymValue: adt
{
	pick {
	Int =>
		v:	int;
	Str =>
		s:	ref Strength;
	}
};

SymEntry: adt
{
	hash:	int;
	key:	ref Sym;
	value:	ref SymValue;
	next:	cyclic ref SymEntry;

	match:	fn(e: self ref SymEntry, hash: int, key: ref Sym): int;
};

SymDict: adt
{
	buckets:	array of ref SymEntry;
	size:	int;

	new:	fn(): ref SymDict;
	at:	fn(d: self ref SymDict, key: ref Sym): ref SymValue;
	at_put:	fn(d: self ref SymDict, key: ref Sym, value: ref SymValue);
	keys:	fn(d: self ref SymDict): array of ref Sym;
	resize:	fn(d: self ref SymDict);
	split_bucket:	fn(d: self ref SymDict, old: array of ref SymEntry, i: int, head: ref SymEntry);
};

Variable: adt
{
	value:	int;
	constraints:	ref CVector;
	determined_by:	cyclic ref Constraint;
	walk_strength:	ref Strength;
	stay:	int;
	mark:	int;

	new:	fn(initial_value: int): ref Variable;
	add_constraint:	fn(v: self ref Variable, c: ref Constraint);
	remove_constraint:	fn(v: self ref Variable, c: ref Constraint);
};

Constraint: adt
{
	strength:	ref Strength;
	pick {
	Edit or Stay =>
		output_:	cyclic ref Variable;
		satisfied:	int;
	Equality or Scale =>
		v1, v2:	cyclic ref Variable;
		direction:	int;
		scale, offset:	cyclic ref Variable;
	}

	add_constraint:	fn(c: self ref Constraint, p: ref Planner);
	destroy_constraint:	fn(c: self ref Constraint, p: ref Planner);
	inputs_known:	fn(c: self ref Constraint, mark: int): int;
	satisfy:	fn(c: self ref Constraint, mark: int, p: ref Planner): ref Constraint;
	is_input:	fn(c: self ref Constraint): int;
	is_satisfied:	fn(c: self ref Constraint): int;
	add_to_graph:	fn(c: self ref Constraint);
	remove_from_graph:	fn(c: self ref Constraint);
	choose_method:	fn(c: self ref Constraint, mark: int);
	inputs_do_mark:	fn(c: self ref Constraint, mark: int);
	mark_unsatisfied:	fn(c: self ref Constraint);
	output:	fn(c: self ref Constraint): ref Variable;
	recalculate:	fn(c: self ref Constraint);
	execute:	fn(c: self ref Constraint);
};

CVector: adt
{
	storage:	array of ref Constraint;
	first_idx:	int;
	last_idx:	int;

	new:	fn(size: int): ref CVector;
	with:	fn(c: ref Constraint): ref CVector;
	append:	fn(v: self ref CVector, c: ref Constraint);
	is_empty:	fn(v: self ref CVector): int;
	remove_first:	fn(v: self ref CVector): ref Constraint;
	remove:	fn(v: self ref CVector, c: ref Constraint): int;
	sort_by_strength:	fn(v: self ref CVector);
	sort_range:	fn(v: self ref CVector, i, j: int);
};

VVector: adt
{
	storage:	array of ref Variable;
	first_idx:	int;
	last_idx:	int;

	new:	fn(size: int): ref VVector;
	with:	fn(x: ref Variable): ref VVector;
	at:	fn(v: self ref VVector, idx: int): ref Variable;
	append:	fn(v: self ref VVector, x: ref Variable);
	is_empty:	fn(v: self ref VVector): int;
	remove_first:	fn(v: self ref VVector): ref Variable;
};

Planner: adt
{
	current_mark:	int;

	new:	fn(): ref Planner;
	incremental_add:	fn(p: self ref Planner, c: ref Constraint);
	incremental_remove:	fn(p: self ref Planner, c: ref Constraint);
	extract_plan_from_constraints:	fn(p: self ref Planner, cs: ref CVector): ref CVector;
	make_plan:	fn(p: self ref Planner, sources: ref CVector): ref CVector;
	add_constraints_consuming_to:	fn(p: self ref Planner, v: ref Variable, coll: ref CVector);
	add_propagate:	fn(p: self ref Planner, c: ref Constraint, mark: int): int;
	change_var:	fn(p: self ref Planner, v: ref Variable, val: int);
	new_mark:	fn(p: self ref Planner): int;
	remove_propagate_from:	fn(p: self ref Planner, out: ref Variable): ref CVector;
};

# The suite's symbols and strength tables (module data, set up once).
ABSOLUTE_STRONGEST, REQUIRED, STRONG_PREFERRED, PREFERRED: ref Sym;
STRONG_DEFAULT, DEFAULT, WEAK_DEFAULT, ABSOLUTE_WEAKEST: ref Sym;
strength_table: ref SymDict;
strength_constants: ref SymDict;
S_ABSOLUTE_STRONGEST, S_ABSOLUTE_WEAKEST, S_REQUIRED: ref Strength;

inner_benchmark_loop(inner: int): int
{
	if(strength_table == nil)
		init_strengths();
	chain_test(inner);
	projection_test(inner);
	return 1;
}

init_strengths()
{
	ABSOLUTE_STRONGEST = ref Sym(0);
	REQUIRED = ref Sym(1);
	STRONG_PREFERRED = ref Sym(2);
	PREFERRED = ref Sym(3);
	STRONG_DEFAULT = ref Sym(4);
	DEFAULT = ref Sym(5);
	WEAK_DEFAULT = ref Sym(6);
	ABSOLUTE_WEAKEST = ref Sym(7);

	strength_table = SymDict.new();
	strength_table.at_put(ABSOLUTE_STRONGEST, ref SymValue.Int(-10000));
	strength_table.at_put(REQUIRED, ref SymValue.Int(-800));
	strength_table.at_put(STRONG_PREFERRED, ref SymValue.Int(-600));
	strength_table.at_put(PREFERRED, ref SymValue.Int(-400));
	strength_table.at_put(STRONG_DEFAULT, ref SymValue.Int(-200));
	strength_table.at_put(DEFAULT, ref SymValue.Int(0));
	strength_table.at_put(WEAK_DEFAULT, ref SymValue.Int(500));
	strength_table.at_put(ABSOLUTE_WEAKEST, ref SymValue.Int(10000));

	strength_constants = SymDict.new();
	keys := strength_table.keys();
	for(i := 0; i < len keys; i++)
		strength_constants.at_put(keys[i], ref SymValue.Str(Strength.new(keys[i])));

	S_ABSOLUTE_STRONGEST = Strength.of_sym(ABSOLUTE_STRONGEST);
	S_ABSOLUTE_WEAKEST = Strength.of_sym(ABSOLUTE_WEAKEST);
	S_REQUIRED = Strength.of_sym(REQUIRED);
}

Sym.custom_hash(s: self ref Sym): int
{
	return s.hash;
}

Strength.new(sym: ref Sym): ref Strength
{
	pick v := strength_table.at(sym) {
	Int =>
		return ref Strength(sym, v.v);
	}
	raise "strength table";
}

Strength.of_sym(sym: ref Sym): ref Strength
{
	pick v := strength_constants.at(sym) {
	Str =>
		return v.s;
	}
	raise "strength constants";
}

Strength.same_as(s: self ref Strength, t: ref Strength): int
{
	return s.arithmetic_value == t.arithmetic_value;
}

Strength.stronger(s: self ref Strength, t: ref Strength): int
{
	return s.arithmetic_value < t.arithmetic_value;
}

Strength.weaker(s: self ref Strength, t: ref Strength): int
{
	return s.arithmetic_value > t.arithmetic_value;
}

Strength.strongest(s: self ref Strength, t: ref Strength): ref Strength
{
	if(t.stronger(s))
		return t;
	return s;
}

Strength.weakest(s: self ref Strength, t: ref Strength): ref Strength
{
	if(t.weaker(s))
		return t;
	return s;
}

# The suite's IdentityDictionary, for symbol keys.

dict_hash(key: ref Sym): int
{
	if(key == nil)
		return 0;
	hash := key.custom_hash();
	return hash ^ (hash >> 16);
}

SymEntry.match(e: self ref SymEntry, hash: int, key: ref Sym): int
{
	return e.hash == hash && e.key == key;
}

SymDict.new(): ref SymDict
{
	return ref SymDict(array[INITIAL_CAPACITY] of ref SymEntry, 0);
}

SymDict.at(d: self ref SymDict, key: ref Sym): ref SymValue
{
	hash := dict_hash(key);
	for(e := d.buckets[(len d.buckets - 1) & hash]; e != nil; e = e.next)
		if(e.match(hash, key))
			return e.value;
	return nil;
}

SymDict.at_put(d: self ref SymDict, key: ref Sym, value: ref SymValue)
{
	hash := dict_hash(key);
	i := (len d.buckets - 1) & hash;
	current := d.buckets[i];
	if(current == nil) {
		d.buckets[i] = ref SymEntry(hash, key, value, nil);
		d.size++;
	} else {
		for(;;) {
			if(current.match(hash, key)) {
				current.value = value;
				break;
			}
			if(current.next == nil) {
				d.size++;
				current.next = ref SymEntry(hash, key, value, nil);
				break;
			}
			current = current.next;
		}
	}
	if(d.size > len d.buckets)
		d.resize();
}

SymDict.resize(d: self ref SymDict)
{
	old := d.buckets;
	d.buckets = array[2 * len old] of ref SymEntry;
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

SymDict.split_bucket(d: self ref SymDict, old: array of ref SymEntry, i: int, head: ref SymEntry)
{
	lo_head, lo_tail, hi_head, hi_tail: ref SymEntry;
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

SymDict.keys(d: self ref SymDict): array of ref Sym
{
	keys := array[d.size] of ref Sym;
	n := 0;
	for(i := 0; i < len d.buckets; i++)
		for(current := d.buckets[i]; current != nil; current = current.next)
			keys[n++] = current.key;
	return keys;
}

# Constraints

new_edit(v: ref Variable, strength: ref Sym, p: ref Planner): ref Constraint
{
	c := ref Constraint.Edit(Strength.of_sym(strength), v, 0);
	c.add_constraint(p);
	return c;
}

new_stay(v: ref Variable, strength: ref Sym, p: ref Planner): ref Constraint
{
	c := ref Constraint.Stay(Strength.of_sym(strength), v, 0);
	c.add_constraint(p);
	return c;
}

new_equality(v1, v2: ref Variable, strength: ref Sym, p: ref Planner): ref Constraint
{
	c := ref Constraint.Equality(Strength.of_sym(strength), v1, v2, NONE, nil, nil);
	c.add_constraint(p);
	return c;
}

new_scale(src, scale, offset, dest: ref Variable, strength: ref Sym, p: ref Planner): ref Constraint
{
	c := ref Constraint.Scale(Strength.of_sym(strength), src, dest, NONE, scale, offset);
	c.add_constraint(p);
	return c;
}

Constraint.add_constraint(c: self ref Constraint, p: ref Planner)
{
	c.add_to_graph();
	p.incremental_add(c);
}

Constraint.destroy_constraint(c: self ref Constraint, p: ref Planner)
{
	if(c.is_satisfied())
		p.incremental_remove(c);
	c.remove_from_graph();
}

# Unary constraints have no inputs; a binary one's input is the variable
# its direction reads (Scale's scale and offset are not looked at here, as
# in the suite).
Constraint.inputs_known(c: self ref Constraint, mark: int): int
{
	pick b := c {
	Equality or Scale =>
		v := b.v2;
		if(b.direction == FORWARD)
			v = b.v1;
		return v.mark == mark || v.stay || v.determined_by == nil;
	}
	return 1;
}

Constraint.satisfy(c: self ref Constraint, mark: int, p: ref Planner): ref Constraint
{
	overridden: ref Constraint;
	c.choose_method(mark);
	if(c.is_satisfied()) {
		c.inputs_do_mark(mark);
		out := c.output();
		overridden = out.determined_by;
		if(overridden != nil)
			overridden.mark_unsatisfied();
		out.determined_by = c;
		if(!p.add_propagate(c, mark))
			raise "Cycle encountered adding: Constraint removed";
		out.mark = mark;
	} else {
		overridden = nil;
		if(c.strength.same_as(S_REQUIRED))
			raise "Failed to satisfy a required constraint";
	}
	return overridden;
}

Constraint.is_input(c: self ref Constraint): int
{
	pick u := c {
	Edit =>
		return 1;
	}
	return 0;
}

Constraint.is_satisfied(c: self ref Constraint): int
{
	pick x := c {
	Edit or Stay =>
		return x.satisfied;
	Equality or Scale =>
		return x.direction != NONE;
	}
	return 0;
}

Constraint.add_to_graph(c: self ref Constraint)
{
	pick x := c {
	Edit or Stay =>
		x.output_.add_constraint(c);
		x.satisfied = 0;
	Equality or Scale =>
		x.v1.add_constraint(c);
		x.v2.add_constraint(c);
		if(tagof c == tagof Constraint.Scale) {
			x.scale.add_constraint(c);
			x.offset.add_constraint(c);
		}
		x.direction = NONE;
	}
}

Constraint.remove_from_graph(c: self ref Constraint)
{
	pick x := c {
	Edit or Stay =>
		if(x.output_ != nil)
			x.output_.remove_constraint(c);
		x.satisfied = 0;
	Equality or Scale =>
		if(x.v1 != nil)
			x.v1.remove_constraint(c);
		if(x.v2 != nil)
			x.v2.remove_constraint(c);
		if(tagof c == tagof Constraint.Scale) {
			if(x.scale != nil)
				x.scale.remove_constraint(c);
			if(x.offset != nil)
				x.offset.remove_constraint(c);
		}
		x.direction = NONE;
	}
}

Constraint.choose_method(c: self ref Constraint, mark: int)
{
	pick x := c {
	Edit or Stay =>
		x.satisfied = x.output_.mark != mark && x.strength.stronger(x.output_.walk_strength);
	Equality or Scale =>
		if(x.v1.mark == mark) {
			if(x.v2.mark != mark && x.strength.stronger(x.v2.walk_strength))
				x.direction = FORWARD;
			else
				x.direction = NONE;
		} else if(x.v2.mark == mark) {
			if(x.v1.mark != mark && x.strength.stronger(x.v1.walk_strength))
				x.direction = BACKWARD;
			else
				x.direction = NONE;
		} else if(x.v1.walk_strength.weaker(x.v2.walk_strength)) {
			if(x.strength.stronger(x.v1.walk_strength))
				x.direction = BACKWARD;
			else
				x.direction = NONE;
		} else {
			if(x.strength.stronger(x.v2.walk_strength))
				x.direction = FORWARD;
			else
				x.direction = NONE;
		}
	}
}

# The suite's inputs_do with the block that sets each input's mark.
Constraint.inputs_do_mark(c: self ref Constraint, mark: int)
{
	pick x := c {
	Equality or Scale =>
		if(x.direction == FORWARD)
			x.v1.mark = mark;
		else
			x.v2.mark = mark;
		if(tagof c == tagof Constraint.Scale) {
			x.scale.mark = mark;
			x.offset.mark = mark;
		}
	}
}

Constraint.mark_unsatisfied(c: self ref Constraint)
{
	pick x := c {
	Edit or Stay =>
		x.satisfied = 0;
	Equality or Scale =>
		x.direction = NONE;
	}
}

Constraint.output(c: self ref Constraint): ref Variable
{
	pick x := c {
	Edit or Stay =>
		return x.output_;
	Equality or Scale =>
		if(x.direction == FORWARD)
			return x.v2;
		return x.v1;
	}
	return nil;
}

Constraint.recalculate(c: self ref Constraint)
{
	pick x := c {
	Edit or Stay =>
		x.output_.walk_strength = x.strength;
		x.output_.stay = !c.is_input();
		if(x.output_.stay)
			c.execute();
	Equality or Scale =>
		ihn, out: ref Variable;
		if(x.direction == FORWARD) {
			ihn = x.v1;
			out = x.v2;
		} else {
			ihn = x.v2;
			out = x.v1;
		}
		out.walk_strength = x.strength.weakest(ihn.walk_strength);
		if(tagof c == tagof Constraint.Scale)
			out.stay = ihn.stay && x.scale.stay && x.offset.stay;
		else
			out.stay = ihn.stay;
		if(out.stay)
			c.execute();
	}
}

Constraint.execute(c: self ref Constraint)
{
	pick x := c {
	Equality =>
		if(x.direction == FORWARD)
			x.v2.value = x.v1.value;
		else
			x.v1.value = x.v2.value;
	Scale =>
		if(x.direction == FORWARD)
			x.v2.value = x.v1.value * x.scale.value + x.offset.value;
		else
			x.v1.value = (x.v2.value - x.offset.value) / x.scale.value;
	}
}

# Variables

Variable.new(initial_value: int): ref Variable
{
	return ref Variable(initial_value, CVector.new(2), nil, S_ABSOLUTE_WEAKEST, 1, 0);
}

Variable.add_constraint(v: self ref Variable, c: ref Constraint)
{
	v.constraints.append(c);
}

Variable.remove_constraint(v: self ref Variable, c: ref Constraint)
{
	v.constraints.remove(c);
	if(v.determined_by == c)
		v.determined_by = nil;
}

# The suite's Vector, for constraints.

CVector.new(size: int): ref CVector
{
	storage: array of ref Constraint;
	if(size > 0)
		storage = array[size] of ref Constraint;
	return ref CVector(storage, 0, 0);
}

CVector.with(c: ref Constraint): ref CVector
{
	v := CVector.new(1);
	v.append(c);
	return v;
}

CVector.append(v: self ref CVector, c: ref Constraint)
{
	if(v.storage == nil)
		v.storage = array[INITIAL_SIZE] of ref Constraint;
	else if(v.last_idx >= len v.storage) {
		storage := array[2 * len v.storage] of ref Constraint;
		for(i := 0; i < len v.storage; i++)
			storage[i] = v.storage[i];
		v.storage = storage;
	}
	v.storage[v.last_idx++] = c;
}

CVector.is_empty(v: self ref CVector): int
{
	return v.last_idx == v.first_idx;
}

CVector.remove_first(v: self ref CVector): ref Constraint
{
	if(v.is_empty())
		return nil;
	return v.storage[v.first_idx++];
}

CVector.remove(v: self ref CVector, c: ref Constraint): int
{
	if(v.storage == nil || v.is_empty())
		return 0;
	storage := array[len v.storage] of ref Constraint;
	last := 0;
	found := 0;
	for(i := v.first_idx; i < v.last_idx; i++) {
		it := v.storage[i];
		if(it == c)
			found = 1;
		else
			storage[last++] = it;
	}
	v.storage = storage;
	v.last_idx = last;
	v.first_idx = 0;
	return found;
}

# The suite's sort with the block c1.strength stronger than c2.strength.
CVector.sort_by_strength(v: self ref CVector)
{
	if(v.last_idx - v.first_idx > 0)
		v.sort_range(v.first_idx, v.last_idx - 1);
}

CVector.sort_range(v: self ref CVector, i, j: int)
{
	n := j + 1 - i;
	if(n <= 1)
		return;
	storage := v.storage;
	di := storage[i];
	dj := storage[j];
	if(!di.strength.stronger(dj.strength)) {
		storage[i] = dj;
		storage[j] = di;
		(di, dj) = (dj, di);
	}
	if(n > 2) {
		ij := (i + j) / 2;
		dij := storage[ij];
		if(di.strength.stronger(dij.strength)) {
			if(!dij.strength.stronger(dj.strength)) {
				storage[j] = dij;
				storage[ij] = dj;
				dij = dj;
			}
		} else {
			storage[i] = dij;
			storage[ij] = di;
			dij = di;
		}
		if(n > 3) {
			k := i;
			l := j - 1;
			for(;;) {
				while(k <= l && dij.strength.stronger(storage[l].strength))
					l--;
				k++;
				while(k <= l && storage[k].strength.stronger(dij.strength))
					k++;
				if(k > l)
					break;
				(storage[k], storage[l]) = (storage[l], storage[k]);
			}
			v.sort_range(i, l);
			v.sort_range(k, j);
		}
	}
}

# The suite's Vector, for variables.

VVector.new(size: int): ref VVector
{
	storage: array of ref Variable;
	if(size > 0)
		storage = array[size] of ref Variable;
	return ref VVector(storage, 0, 0);
}

VVector.with(x: ref Variable): ref VVector
{
	v := VVector.new(1);
	v.append(x);
	return v;
}

VVector.at(v: self ref VVector, idx: int): ref Variable
{
	if(v.storage == nil || idx >= len v.storage)
		return nil;
	return v.storage[idx];
}

VVector.append(v: self ref VVector, x: ref Variable)
{
	if(v.storage == nil)
		v.storage = array[INITIAL_SIZE] of ref Variable;
	else if(v.last_idx >= len v.storage) {
		storage := array[2 * len v.storage] of ref Variable;
		for(i := 0; i < len v.storage; i++)
			storage[i] = v.storage[i];
		v.storage = storage;
	}
	v.storage[v.last_idx++] = x;
}

VVector.is_empty(v: self ref VVector): int
{
	return v.last_idx == v.first_idx;
}

VVector.remove_first(v: self ref VVector): ref Variable
{
	if(v.is_empty())
		return nil;
	return v.storage[v.first_idx++];
}

# The planner

Planner.new(): ref Planner
{
	return ref Planner(1);
}

Planner.incremental_add(p: self ref Planner, c: ref Constraint)
{
	mark := p.new_mark();
	overridden := c.satisfy(mark, p);
	while(overridden != nil)
		overridden = overridden.satisfy(mark, p);
}

Planner.incremental_remove(p: self ref Planner, c: ref Constraint)
{
	out := c.output();
	c.mark_unsatisfied();
	c.remove_from_graph();
	unsatisfied := p.remove_propagate_from(out);
	for(i := unsatisfied.first_idx; i < unsatisfied.last_idx; i++)
		p.incremental_add(unsatisfied.storage[i]);
}

Planner.extract_plan_from_constraints(p: self ref Planner, cs: ref CVector): ref CVector
{
	sources := CVector.new(0);
	for(i := cs.first_idx; i < cs.last_idx; i++) {
		c := cs.storage[i];
		if(c.is_input() && c.is_satisfied())
			sources.append(c);
	}
	return p.make_plan(sources);
}

Planner.make_plan(p: self ref Planner, sources: ref CVector): ref CVector
{
	mark := p.new_mark();
	plan := CVector.new(15);
	todo := sources;
	while(!todo.is_empty()) {
		c := todo.remove_first();
		if(c.output().mark != mark && c.inputs_known(mark)) {
			plan.append(c);
			c.output().mark = mark;
			p.add_constraints_consuming_to(c.output(), todo);
		}
	}
	return plan;
}

# The suite's Plan.execute.
execute_plan(plan: ref CVector)
{
	for(i := plan.first_idx; i < plan.last_idx; i++)
		plan.storage[i].execute();
}

Planner.add_constraints_consuming_to(nil: self ref Planner, v: ref Variable, coll: ref CVector)
{
	determining := v.determined_by;
	cs := v.constraints;
	for(i := cs.first_idx; i < cs.last_idx; i++) {
		c := cs.storage[i];
		if(c != determining && c.is_satisfied())
			coll.append(c);
	}
}

Planner.add_propagate(p: self ref Planner, c: ref Constraint, mark: int): int
{
	todo := CVector.with(c);
	while(!todo.is_empty()) {
		d := todo.remove_first();
		if(d.output().mark == mark) {
			p.incremental_remove(c);
			return 0;
		}
		d.recalculate();
		p.add_constraints_consuming_to(d.output(), todo);
	}
	return 1;
}

Planner.change_var(p: self ref Planner, v: ref Variable, val: int)
{
	edit := new_edit(v, PREFERRED, p);
	plan := p.extract_plan_from_constraints(CVector.with(edit));
	for(i := 0; i < 10; i++) {
		v.value = val;
		execute_plan(plan);
	}
	edit.destroy_constraint(p);
}

Planner.new_mark(p: self ref Planner): int
{
	return p.current_mark++;
}

Planner.remove_propagate_from(nil: self ref Planner, out: ref Variable): ref CVector
{
	unsatisfied := CVector.new(0);
	out.determined_by = nil;
	out.walk_strength = S_ABSOLUTE_WEAKEST;
	out.stay = 1;
	todo := VVector.with(out);
	while(!todo.is_empty()) {
		v := todo.remove_first();
		cs := v.constraints;
		for(i := cs.first_idx; i < cs.last_idx; i++) {
			c := cs.storage[i];
			if(!c.is_satisfied())
				unsatisfied.append(c);
		}
		# The suite's constraints_consuming with its block.
		determining := v.determined_by;
		for(i = cs.first_idx; i < cs.last_idx; i++) {
			c := cs.storage[i];
			if(c != determining && c.is_satisfied()) {
				c.recalculate();
				todo.append(c.output());
			}
		}
	}
	unsatisfied.sort_by_strength();
	return unsatisfied;
}

chain_test(n: int)
{
	planner := Planner.new();
	vars := array[n + 1] of ref Variable;
	for(i := 0; i <= n; i++)
		vars[i] = Variable.new(0);
	for(i = 0; i < n; i++)
		new_equality(vars[i], vars[i + 1], REQUIRED, planner);
	new_stay(vars[n], STRONG_DEFAULT, planner);
	edit := new_edit(vars[0], PREFERRED, planner);
	plan := planner.extract_plan_from_constraints(CVector.with(edit));
	for(v := 1; v <= 100; v++) {
		vars[0].value = v;
		execute_plan(plan);
		if(vars[n].value != v)
			raise "Chain test failed!";
	}
	edit.destroy_constraint(planner);
}

projection_test(n: int)
{
	planner := Planner.new();
	dests := VVector.new(0);
	scale := Variable.new(10);
	offset := Variable.new(1000);
	src, dst: ref Variable;
	for(i := 1; i <= n; i++) {
		src = Variable.new(i);
		dst = Variable.new(i);
		dests.append(dst);
		new_stay(src, DEFAULT, planner);
		new_scale(src, scale, offset, dst, REQUIRED, planner);
	}
	planner.change_var(src, 17);
	if(dst.value != 1170)
		raise "Projection 1 failed";
	planner.change_var(dst, 1050);
	if(src.value != 5)
		raise "Projection 2 failed";
	planner.change_var(scale, 5);
	for(i = 1; i < n; i++)
		if(dests.at(i - 1).value != i * 5 + 1000)
			raise "Projection 3 failed";
	planner.change_var(offset, 2000);
	for(i = 1; i < n; i++)
		if(dests.at(i - 1).value != i * 5 + 2000)
			raise "Projection 4 failed";
}
