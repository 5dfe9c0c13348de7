// Kernel processes (vm/core/kproc.h): a blocking builtin releases the interpreter
// and another Dis thread runs meanwhile, in both idle-GC policies, on all
// processors and confined to one. Each wait that would hang without a
// release is bounded on the host side, so a broken release fails the test
// (with different output) instead of hanging it. In-process only: the
// ThreadSanitizer stage of scripts/test.sh builds and runs this binary.
#include <dirent.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sched.h>
#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>

#include "compiler.h"
#include "cost_probe.h"
#include "diag.h"
#include "vm.h"

namespace {

namespace fs = std::filesystem;
using dis::vm::IdleGc;

struct Config {
  IdleGc policy;
  unsigned cpus;  // 0: as the test process started
};

void PrintTo(const Config& c, std::ostream* os) {
  *os << (c.policy == IdleGc::Old ? "--idle-gc=old" : "--idle-gc=fixed");
  if (c.cpus) *os << " --cpus " << c.cpus;
}

std::string config_name(const ::testing::TestParamInfo<Config>& i) {
  return std::string(i.param.policy == IdleGc::Old ? "Old" : "Fixed") +
         (i.param.cpus ? "Cpus" + std::to_string(i.param.cpus) : "AllCpus");
}

// Restores the process's CPU affinity (every thread) when the test ends.
class AffinityGuard {
 public:
  AffinityGuard() { sched_getaffinity(0, sizeof saved_, &saved_); }
  ~AffinityGuard() {
    if (DIR* d = opendir("/proc/self/task")) {
      while (dirent* e = readdir(d))
        if (e->d_name[0] != '.')
          sched_setaffinity(static_cast<pid_t>(std::atoi(e->d_name)), sizeof saved_, &saved_);
      closedir(d);
    }
  }

 private:
  cpu_set_t saved_;
};

std::string write_source(const std::string& name, const std::string& text) {
  fs::path p = fs::temp_directory_path() / (name + "_" + std::to_string(::getpid()) + ".b");
  std::ofstream(p) << text;
  return p.string();
}

struct Outcome {
  int status = 0;
  std::string out, err;
  dis::vm::Stats stats;
};

class Kproc : public ::testing::TestWithParam<Config> {
 protected:
  dis::vm::Options options() {
    dis::vm::Options o;
    o.out = &out_;
    o.err = &err_;
    o.idle_gc = GetParam().policy;
    o.cpus = GetParam().cpus;
    o.compile = [](const std::string& path) { return dis::limbo::compile_file(path, {}); };
    return o;
  }
  Outcome run(dis::vm::VM& vm, const std::string& name, const std::string& source,
              std::vector<std::string> args = {}) {
    std::string path = write_source(name, source);
    args.insert(args.begin(), path);
    dis::vm::RunResult r = vm.run_file(path, args);
    fs::remove(path);
    return {r.status, out_.str(), err_.str(), vm.stats()};
  }
  AffinityGuard affinity_;
  std::ostringstream out_, err_;
};

// A host event the Dis program waits for: tick() sets the progress, wait()
// blocks until it reaches n (or gives up after a few seconds: -1).
struct HostEvent {
  std::mutex m;
  std::condition_variable cv;
  int progress = 0;
  int wait_for(int n) {
    std::unique_lock lk(m);
    if (!cv.wait_for(lk, std::chrono::seconds(5), [&] { return progress >= n; })) return -1;
    return progress;
  }
  void tick(int i) {
    std::lock_guard lk(m);
    progress = i;
    cv.notify_all();
  }
};

const char* kHostProgram = R"(implement KprocHost;
include "sys.m";
	sys: Sys;
include "draw.m";
Host: module {
	PATH: con "$Host";
	wait: fn(n: int): int;
	waitmsg: fn(n: int): string;
	tick: fn(i: int);
};
host: Host;
KprocHost: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};

ticker(first, last: int, done: chan of int)
{
	for(i := first; i <= last; i++)
		host->tick(i);
	done <-= last;
}

init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;
	host = load Host Host->PATH;
	done := chan of int;
	spawn ticker(1, 5, done);
	got := host->wait(5);
	sys->print("waited for %d, ticker sent %d\n", got, <-done);
	spawn ticker(6, 9, done);
	msg := host->waitmsg(9);
	sys->print("%s, ticker sent %d\n", msg, <-done);
}
)";

std::vector<dis::vm::NativeFunction> host_module(HostEvent& ev) {
  dis::vm::NativeFunction wait{
      "wait", "f(i)i", 0,
      40,     {},      [&ev](dis::vm::Call& c) { c.ret_int(ev.wait_for(c.arg_int(32))); }};
  wait.blocking = true;  // the whole function runs with the interpreter released
  dis::vm::NativeFunction waitmsg{"waitmsg", "f(i)s", 0, 40, {}, [&ev](dis::vm::Call& c) {
                                    const int n = c.arg_int(32);
                                    int got = 0;
                                    c.blocking([&] { got = ev.wait_for(n); });
                                    c.ret_string("message after " + std::to_string(got));
                                  }};
  dis::vm::NativeFunction tick{
      "tick", "f(i)n", 0, 40, {}, [&ev](dis::vm::Call& c) { ev.tick(c.arg_int(32)); }};
  return {wait, waitmsg, tick};
}

TEST_P(Kproc, BlockingHostBuiltinLetsAnotherThreadRun) {
  HostEvent ev;
  dis::vm::VM vm(options());
  vm.register_module("$Host", host_module(ev));
  Outcome r = run(vm, "kproc_host", kHostProgram);
  EXPECT_EQ(r.out, "waited for 5, ticker sent 5\nmessage after 9, ticker sent 9\n") << r.err;
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_GE(r.stats.releases, 2u);
  EXPECT_GE(r.stats.kprocs, 1u);
}

TEST_P(Kproc, BlockingBuiltinMustNotTouchTheHeap) {
  dis::vm::VM vm(options());
  dis::vm::NativeFunction bad{
      "wait", "f(i)i", 0, 40, {}, [](dis::vm::Call& c) { c.ret_string("needs the heap"); }};
  bad.blocking = true;
  dis::vm::NativeFunction waitmsg = bad, tick = bad;
  waitmsg.name = "waitmsg";
  waitmsg.type = "f(i)s";
  tick.name = "tick";
  tick.type = "f(i)n";
  vm.register_module("$Host", {bad, waitmsg, tick});
  EXPECT_THROW(run(vm, "kproc_bad", kHostProgram), std::logic_error);
}

// The reader blocks in sys->read on a host pipe (opened by its /proc name:
// Dis descriptors are the VM's own, fildes reaches no host one) that only
// the other Dis thread writes to: without a release the read would never return (the host
// watchdog then writes "late" into the pipe).
// A module whose thread `reader` reads one message from fd and sends it on c;
// each test adds its own init.
const char* kReaderModule = R"(implement KprocReader;
include "sys.m";
	sys: Sys;
include "draw.m";
KprocReader: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};

reader(fd: ref Sys->FD, c: chan of string)
{
	buf := array[16] of byte;
	n := sys->read(fd, buf, len buf);
	c <-= string buf[0:n];
}
)";

const std::string kPipeProgram = std::string(kReaderModule) + R"(
init(nil: ref Draw->Context, args: list of string)
{
	sys = load Sys Sys->PATH;
	args = tl args;
	rfd := sys->open("/proc/self/fd/" + hd args, Sys->OREAD);
	wfd := sys->open("/proc/self/fd/" + hd tl args, Sys->OWRITE);
	c := chan of string;
	spawn reader(rfd, c);
	sum := 0;
	for(i := 0; i < 20000; i++)
		sum += i;
	sys->print("worked %d\n", sum);
	b := array of byte "ping";
	sys->write(wfd, b, len b);
	sys->print("read %s\n", <-c);
}
)";

TEST_P(Kproc, ReaderBlockedOnPipeDoesNotStopAnotherThread) {
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  std::mutex m;
  std::condition_variable cv;
  bool done = false;
  std::thread watchdog([&] {
    std::unique_lock lk(m);
    if (!cv.wait_for(lk, std::chrono::seconds(10), [&] { return done; }))
      (void)!::write(fds[1], "late", 4);
  });
  Outcome r;
  {
    dis::vm::VM vm(options());
    r = run(vm, "kproc_pipe", kPipeProgram, {std::to_string(fds[0]), std::to_string(fds[1])});
  }
  {
    std::lock_guard lk(m);
    done = true;
  }
  cv.notify_all();
  watchdog.join();
  ::close(fds[0]);
  ::close(fds[1]);
  EXPECT_EQ(r.out, "worked 199990000\nread ping\n") << r.err;
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_GE(r.stats.releases, 2u);  // the read and the write
}

// Under the cost tool's timing probe, the mcall of a read that blocked
// (released) while init slept and then wrote holds the whole wait, though
// other threads' slices and idle GC ran meanwhile (the paper's observation).
TEST_P(Kproc, CostedReadMcallContainsTheWait) {
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  dis::vm::timer();  // calibrated before the first read
  dis::vm::VM vm(options());
  // Declared after the VM: destroyed first, while the VM it hooks is alive.
  dis::vm::CostRecorder rec(dis::vm::ProbeMode::Time, dis::vm::Base{});
  rec.install(vm);
  Outcome r = run(vm, "kproc_costed", std::string(kReaderModule) + R"(
init(nil: ref Draw->Context, args: list of string)
{
	sys = load Sys Sys->PATH;
	args = tl args;
	c := chan of string;
	spawn reader(sys->open("/proc/self/fd/" + hd args, Sys->OREAD), c);
	sys->sleep(150);
	b := array of byte "ping";
	sys->write(sys->open("/proc/self/fd/" + hd tl args, Sys->OWRITE), b, len b);
	sys->print("read %s\n", <-c);
}
)",
                  {std::to_string(fds[0]), std::to_string(fds[1])});
  ::close(fds[0]);
  ::close(fds[1]);
  EXPECT_EQ(r.out, "read ping\n") << r.err;
  // The reader starts its read soon after init starts sleeping (150 ms);
  // a third of that leaves room for a loaded machine.
  const double wait_ns = 50e6;
  EXPECT_GE(dis::vm::to_ns(rec.builtins().at("Sys->read").max), wait_ns);
  EXPECT_GE(dis::vm::to_ns(rec.builtins().at("Sys->sleep").max), wait_ns);
  // The two mcalls (read and sleep) each hold their wait; nothing else does.
  int long_records = 0;
  for (const auto& pr : rec.programs())
    for (const auto& record : pr.records)
      if (record.count && dis::vm::to_ns(record.max) >= wait_ns) ++long_records;
  EXPECT_EQ(long_records, 2);
}

// init waits on a channel whose sender is sleeping (released): not a
// deadlock. A receive nobody can satisfy still is one.
TEST_P(Kproc, ReleasedThreadIsNotDeadlockedButABlockedOneIs) {
  dis::vm::VM vm(options());
  Outcome r = run(vm, "kproc_sleep", R"(implement KprocSleep;
include "sys.m";
	sys: Sys;
include "draw.m";
KprocSleep: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};

sender(c: chan of int)
{
	sys->sleep(30);
	c <-= 7;
}

init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;
	c := chan of int;
	spawn sender(c);
	t0 := sys->millisec();
	v := <-c;
	sys->print("got %d after sleeping %d\n", v, sys->millisec() - t0 >= 30);
	<-c;
}
)");
  EXPECT_EQ(r.out, "got 7 after sleeping 1\n");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("deadlock"), std::string::npos) << r.err;
  EXPECT_GE(r.stats.releases, 1u);
}

// Idle GC runs while every thread is released, and the program still ends
// with its output complete.
TEST_P(Kproc, IdleCollectionRunsWhileThreadsAreReleased) {
  dis::vm::VM vm(options());
  Outcome r = run(vm, "kproc_idle", R"(implement KprocIdle;
include "sys.m";
	sys: Sys;
include "draw.m";
KprocIdle: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};
Node: adt {
	next: cyclic ref Node;
};

sleeper(id: int, done: chan of int)
{
	for(i := 0; i < 5; i++) {
		a := ref Node(nil);
		a.next = ref Node(a);
		sys->sleep(2);
	}
	done <-= id;
}

init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;
	done := chan of int;
	for(i := 0; i < 4; i++)
		spawn sleeper(i, done);
	sum := 0;
	for(i = 0; i < 4; i++)
		sum += <-done;
	sys->print("sum %d\n", sum);
}
)");
  EXPECT_EQ(r.out, "sum 6\n") << r.err;
  EXPECT_EQ(r.status, 0);
  EXPECT_GE(r.stats.releases, 20u);
  EXPECT_GE(r.stats.gc.idle_episodes, 1u);
}

INSTANTIATE_TEST_SUITE_P(Policies, Kproc,
                         ::testing::Values(Config{IdleGc::Old, 0}, Config{IdleGc::Fixed, 0},
                                           Config{IdleGc::Old, 1}, Config{IdleGc::Fixed, 1}),
                         config_name);

TEST(KprocOptions, IdleGcNamesParse) {
  IdleGc p = IdleGc::Fixed;
  EXPECT_TRUE(dis::vm::parse_idle_gc("old", p));
  EXPECT_EQ(p, IdleGc::Old);
  EXPECT_TRUE(dis::vm::parse_idle_gc("fixed", p));
  EXPECT_EQ(p, IdleGc::Fixed);
  EXPECT_FALSE(dis::vm::parse_idle_gc("new", p));
  EXPECT_EQ(dis::vm::Options{}.idle_gc, IdleGc::Fixed);  // the paper's fix is the default
}

TEST(KprocOptions, TooManyCpusIsAnInputError) {
  AffinityGuard guard;
  dis::vm::Options o;
  o.cpus = CPU_SETSIZE;
  try {
    dis::vm::VM vm(o);
    FAIL() << "no error";
  } catch (const dis::InputError& e) {
    EXPECT_NE(
        std::string(e.what()).find("--cpus " + std::to_string(CPU_SETSIZE) + ": cannot confine"),
        std::string::npos)
        << e.what();
  }
}

TEST(KprocOptions, OneCpuConfinesEveryThread) {
  AffinityGuard guard;
  std::thread other([] { std::this_thread::sleep_for(std::chrono::milliseconds(200)); });
  dis::vm::Options o;
  o.cpus = 1;
  dis::vm::VM vm(o);
  cpu_set_t set;
  ASSERT_EQ(sched_getaffinity(0, sizeof set, &set), 0);
  EXPECT_EQ(CPU_COUNT(&set), 1);
  cpu_set_t theirs;
  ASSERT_EQ(pthread_getaffinity_np(other.native_handle(), sizeof theirs, &theirs), 0);
  EXPECT_EQ(CPU_COUNT(&theirs), 1);
  other.join();
}

}  // namespace
