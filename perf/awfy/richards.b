implement Benchmark;

# Are-We-Fast-Yet: Richards (Martin Richards' operating system simulation,
# after Mario Wolczko's Smalltalk version; see NOTICE.md). Six tasks (idler,
# worker, two handlers, two devices) exchange packets through a priority
# scheduler; the queue and hold counts are checked (23246 and 9297).
#
# Dynamic dispatch: the suite gives each task a closure over the scheduler
# and its private data record. Here the data record is a pick adt (one
# variant per task kind) and run_task chooses the task's function with a
# pick statement, passing the scheduler explicitly. The suite's class
# hierarchy (RBObject, TaskState, TaskControlBlock) becomes plain adts:
# TaskControlBlock carries the task state's three flags itself.

include "benchmark.m";
include "sys.m";
	sys: Sys;

IDLER:	con 0;
WORKER:	con 1;
HANDLER_A:	con 2;
HANDLER_B:	con 3;
DEVICE_A:	con 4;
DEVICE_B:	con 5;
NUM_TYPES:	con 6;

DEVICE_PACKET_KIND:	con 0;
WORK_PACKET_KIND:	con 1;
DATA_SIZE:	con 4;

TRACING:	con 0;

Packet: adt
{
	link:	cyclic ref Packet;
	identity:	int;
	kind:	int;
	datum:	int;
	data:	array of int;

	new:	fn(link: ref Packet, identity, kind: int): ref Packet;
};

# A task's private data: the suite's four data record classes.
TaskData: adt
{
	pick {
	Device =>
		pending:	ref Packet;
	Handler =>
		work_in:	ref Packet;
		device_in:	ref Packet;
	Idle =>
		control:	int;
		count:	int;
	Worker =>
		destination:	int;
		count:	int;
	}
};

TaskState: adt
{
	packet_pending:	int;
	task_waiting:	int;
	task_holding:	int;
};

TaskControlBlock: adt
{
	link:	cyclic ref TaskControlBlock;
	identity:	int;
	priority:	int;
	input:	ref Packet;
	handle:	ref TaskData;
	packet_pending:	int;
	task_waiting:	int;
	task_holding:	int;

	new:	fn(link: ref TaskControlBlock, identity, priority: int, initial_work_queue: ref Packet,
		initial_state: ref TaskState, private_data: ref TaskData): ref TaskControlBlock;
	add_input_and_check_priority:	fn(t: self ref TaskControlBlock, packet: ref Packet,
		old_task: ref TaskControlBlock): ref TaskControlBlock;
	run_task:	fn(t: self ref TaskControlBlock, s: ref Scheduler): ref TaskControlBlock;
	is_task_holding_or_waiting:	fn(t: self ref TaskControlBlock): int;
	is_waiting_with_packet:	fn(t: self ref TaskControlBlock): int;
	set_packet_pending:	fn(t: self ref TaskControlBlock);
	set_running:	fn(t: self ref TaskControlBlock);
};

Scheduler: adt
{
	layout:	int;
	task_list:	ref TaskControlBlock;
	current_task:	ref TaskControlBlock;
	current_task_identity:	int;
	task_table:	array of ref TaskControlBlock;
	queue_count:	int;
	hold_count:	int;

	new:	fn(): ref Scheduler;
	start:	fn(s: self ref Scheduler): int;
	create_task:	fn(s: self ref Scheduler, identity, priority: int, work: ref Packet,
		state: ref TaskState, data: ref TaskData);
	find_task:	fn(s: self ref Scheduler, identity: int): ref TaskControlBlock;
	hold_self:	fn(s: self ref Scheduler): ref TaskControlBlock;
	queue_packet:	fn(s: self ref Scheduler, packet: ref Packet): ref TaskControlBlock;
	release:	fn(s: self ref Scheduler, identity: int): ref TaskControlBlock;
	trace:	fn(s: self ref Scheduler, id: int);
	wait:	fn(s: self ref Scheduler): ref TaskControlBlock;
	schedule:	fn(s: self ref Scheduler);
};

inner_benchmark_loop(inner: int): int
{
	for(i := 0; i < inner; i++)
		if(!Scheduler.new().start())
			return 0;
	return 1;
}

# The suite's RBObject.append: packet goes to the end of the queue.
append(packet, queue_head: ref Packet): ref Packet
{
	packet.link = nil;
	if(queue_head == nil)
		return packet;
	mouse := queue_head;
	link := mouse.link;
	while(link != nil) {
		mouse = link;
		link = mouse.link;
	}
	mouse.link = packet;
	return queue_head;
}

Packet.new(link: ref Packet, identity, kind: int): ref Packet
{
	return ref Packet(link, identity, kind, 0, array[DATA_SIZE] of {* => 0});
}

create_running(): ref TaskState
{
	return ref TaskState(0, 0, 0);
}

create_waiting(): ref TaskState
{
	return ref TaskState(0, 1, 0);
}

create_waiting_with_packet(): ref TaskState
{
	return ref TaskState(1, 1, 0);
}

TaskControlBlock.new(link: ref TaskControlBlock, identity, priority: int, initial_work_queue: ref Packet,
	initial_state: ref TaskState, private_data: ref TaskData): ref TaskControlBlock
{
	return ref TaskControlBlock(link, identity, priority, initial_work_queue, private_data,
		initial_state.packet_pending, initial_state.task_waiting, initial_state.task_holding);
}

TaskControlBlock.add_input_and_check_priority(t: self ref TaskControlBlock, packet: ref Packet,
	old_task: ref TaskControlBlock): ref TaskControlBlock
{
	if(t.input == nil) {
		t.input = packet;
		t.packet_pending = 1;
		if(t.priority > old_task.priority)
			return t;
	} else
		t.input = append(packet, t.input);
	return old_task;
}

TaskControlBlock.run_task(t: self ref TaskControlBlock, s: ref Scheduler): ref TaskControlBlock
{
	message: ref Packet;
	if(t.is_waiting_with_packet()) {
		message = t.input;
		t.input = message.link;
		if(t.input == nil)
			t.set_running();
		else
			t.set_packet_pending();
	}
	pick d := t.handle {
	Device =>
		return device_fn(s, message, d);
	Handler =>
		return handler_fn(s, message, d);
	Idle =>
		return idle_fn(s, d);
	Worker =>
		return worker_fn(s, message, d);
	}
	return nil;
}

TaskControlBlock.is_task_holding_or_waiting(t: self ref TaskControlBlock): int
{
	return t.task_holding || (!t.packet_pending && t.task_waiting);
}

TaskControlBlock.is_waiting_with_packet(t: self ref TaskControlBlock): int
{
	return t.packet_pending && t.task_waiting && !t.task_holding;
}

TaskControlBlock.set_packet_pending(t: self ref TaskControlBlock)
{
	t.packet_pending = 1;
	t.task_waiting = 0;
	t.task_holding = 0;
}

TaskControlBlock.set_running(t: self ref TaskControlBlock)
{
	t.packet_pending = 0;
	t.task_waiting = 0;
	t.task_holding = 0;
}

device_fn(s: ref Scheduler, packet: ref Packet, data: ref TaskData.Device): ref TaskControlBlock
{
	if(packet == nil) {
		packet = data.pending;
		if(packet == nil)
			return s.wait();
		data.pending = nil;
		return s.queue_packet(packet);
	}
	data.pending = packet;
	if(TRACING)
		s.trace(packet.datum);
	return s.hold_self();
}

handler_fn(s: ref Scheduler, packet: ref Packet, data: ref TaskData.Handler): ref TaskControlBlock
{
	if(packet != nil) {
		if(packet.kind == WORK_PACKET_KIND)
			data.work_in = append(packet, data.work_in);
		else
			data.device_in = append(packet, data.device_in);
	}
	work_packet := data.work_in;
	if(work_packet == nil)
		return s.wait();
	count := work_packet.datum;
	if(count >= DATA_SIZE) {
		data.work_in = work_packet.link;
		return s.queue_packet(work_packet);
	}
	device_packet := data.device_in;
	if(device_packet == nil)
		return s.wait();
	data.device_in = device_packet.link;
	device_packet.datum = work_packet.data[count];
	work_packet.datum = count + 1;
	return s.queue_packet(device_packet);
}

idle_fn(s: ref Scheduler, data: ref TaskData.Idle): ref TaskControlBlock
{
	data.count--;
	if(data.count == 0)
		return s.hold_self();
	if((data.control & 1) == 0) {
		data.control /= 2;
		return s.release(DEVICE_A);
	}
	data.control = ((data.control - 1) / 2) ^ 53256;
	return s.release(DEVICE_B);
}

worker_fn(s: ref Scheduler, packet: ref Packet, data: ref TaskData.Worker): ref TaskControlBlock
{
	if(packet == nil)
		return s.wait();
	if(data.destination == HANDLER_A)
		data.destination = HANDLER_B;
	else
		data.destination = HANDLER_A;
	packet.identity = data.destination;
	packet.datum = 0;
	for(i := 0; i < DATA_SIZE; i++) {
		data.count++;
		if(data.count > 26)
			data.count = 1;
		packet.data[i] = 'A' + data.count - 1;
	}
	return s.queue_packet(packet);
}

Scheduler.new(): ref Scheduler
{
	return ref Scheduler(0, nil, nil, 0, array[NUM_TYPES] of ref TaskControlBlock, 0, 0);
}

Scheduler.start(s: self ref Scheduler): int
{
	s.create_task(IDLER, 0, nil, create_running(), ref TaskData.Idle(1, 10000));
	queue := Packet.new(nil, WORKER, WORK_PACKET_KIND);
	queue = Packet.new(queue, WORKER, WORK_PACKET_KIND);
	s.create_task(WORKER, 1000, queue, create_waiting_with_packet(), ref TaskData.Worker(HANDLER_A, 0));

	queue = Packet.new(nil, DEVICE_A, DEVICE_PACKET_KIND);
	queue = Packet.new(queue, DEVICE_A, DEVICE_PACKET_KIND);
	queue = Packet.new(queue, DEVICE_A, DEVICE_PACKET_KIND);
	s.create_task(HANDLER_A, 2000, queue, create_waiting_with_packet(), ref TaskData.Handler(nil, nil));

	queue = Packet.new(nil, DEVICE_B, DEVICE_PACKET_KIND);
	queue = Packet.new(queue, DEVICE_B, DEVICE_PACKET_KIND);
	queue = Packet.new(queue, DEVICE_B, DEVICE_PACKET_KIND);
	s.create_task(HANDLER_B, 3000, queue, create_waiting_with_packet(), ref TaskData.Handler(nil, nil));

	s.create_task(DEVICE_A, 4000, nil, create_waiting(), ref TaskData.Device(nil));
	s.create_task(DEVICE_B, 5000, nil, create_waiting(), ref TaskData.Device(nil));

	s.schedule();
	return s.queue_count == 23246 && s.hold_count == 9297;
}

Scheduler.create_task(s: self ref Scheduler, identity, priority: int, work: ref Packet,
	state: ref TaskState, data: ref TaskData)
{
	tcb := TaskControlBlock.new(s.task_list, identity, priority, work, state, data);
	s.task_list = tcb;
	s.task_table[identity] = tcb;
}

Scheduler.find_task(s: self ref Scheduler, identity: int): ref TaskControlBlock
{
	t := s.task_table[identity];
	if(t == nil)
		raise "find_task failed";
	return t;
}

Scheduler.hold_self(s: self ref Scheduler): ref TaskControlBlock
{
	s.hold_count++;
	s.current_task.task_holding = 1;
	return s.current_task.link;
}

Scheduler.queue_packet(s: self ref Scheduler, packet: ref Packet): ref TaskControlBlock
{
	t := s.find_task(packet.identity);
	if(t == nil)
		return nil;
	s.queue_count++;
	packet.link = nil;
	packet.identity = s.current_task_identity;
	return t.add_input_and_check_priority(packet, s.current_task);
}

Scheduler.release(s: self ref Scheduler, identity: int): ref TaskControlBlock
{
	t := s.find_task(identity);
	if(t == nil)
		return nil;
	t.task_holding = 0;
	if(t.priority > s.current_task.priority)
		return t;
	return s.current_task;
}

Scheduler.trace(s: self ref Scheduler, id: int)
{
	if(sys == nil)
		sys = load Sys Sys->PATH;
	s.layout--;
	if(s.layout <= 0) {
		sys->print("\n");
		s.layout = 50;
	}
	sys->print("%d", id);
}

Scheduler.wait(s: self ref Scheduler): ref TaskControlBlock
{
	s.current_task.task_waiting = 1;
	return s.current_task;
}

Scheduler.schedule(s: self ref Scheduler)
{
	s.current_task = s.task_list;
	while(s.current_task != nil) {
		if(s.current_task.is_task_holding_or_waiting())
			s.current_task = s.current_task.link;
		else {
			s.current_task_identity = s.current_task.identity;
			if(TRACING)
				s.trace(s.current_task_identity);
			s.current_task = s.current_task.run_task(s);
		}
	}
}
