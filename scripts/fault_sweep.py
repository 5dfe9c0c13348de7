#!/usr/bin/env python3
"""Fails each allocation of a program in turn and checks that it ends cleanly.

  python3 scripts/fault_sweep.py --build build-asan --jobs 2 --verify   # the full run
  python3 scripts/fault_sweep.py --build build-debug --budget 50        # a short slice

Needs a build with fault injection (Debug or DIS_SANITIZE: vm/mem/
fault_injection.h). Each program (samples/*.b, the tests' Limbo programs)
runs once under `dis` to count its cage and host allocations, then once per
chosen k with the kth allocation failing. The allocations before the
program starts (the options, the VM's construction: some 2,500 host
allocations, the same for every program) are all failed once, with the
first program; each program's own are numbered from its start: every k up
to --first, and --spread more spread evenly over the rest. The --gc mode
turns from block to block of k's (--gc=stress only for programs of at most
5,000 cage allocations). A run passes when it ends by itself within
--timeout with status 0, or with a non-zero status and a message on stderr;
it fails on a signal (a crash, an abort), a hang, a sanitizer report
(LeakSanitizer's included), an uncaught C++ exception or (with --verify) a
heap the verifier refuses. --verify runs the sampled verifier (`dis
--gc-verify=N`, N from --verify-every: at every epoch's end, every full
collection, the one after an out-of-memory error included, the program's
end, and every Nth collector step); a run that exits 0 without a verification
fails too (the one at the end is missing). Failures are printed with the command that
reproduces them; the exit status is 1 if there was any. With --budget the
sweep stops after that many seconds, having taken the programs' first k's
first (breadth before depth). --journal FILE records every finished run, and
a later sweep with the same FILE, the same tool binary and the same plan
options skips them and counts their results: the full run (some hours of
this 2-core host) can span several sittings.

What a run costs, and what is done about it: under ASan a new process pays
some 40-60 ms of CPU to start, compiling a .b tens of ms more, and
LeakSanitizer's check at exit 15-20 ms (it scans the 36 MB of data the
sanitizers add to the binary). So each .b is compiled once into a scratch
directory (--source: not), and used when the .dis prints and exits as the
.b does; and the runs are children of a fork server (vm/mem/
fault_server.h; --no-server: not) that started the tool once and ran it up
to the program's start, so a child pays only the program, its own exit and
the leak check. --jobs runs that many servers side by side.

Inferno's precompiled commands (the command lines of scripts/inferno_sweep.py
with known output, run in its fixture directory under `dis --root TREE`)
join the programs when the tree is there (--corpus; --no-corpus leaves them
out). --tool cost sweeps `cost --count` over a few programs instead: a
failure outside the program's threads must end with a message too.
"""
import argparse
import atexit
import glob
import hashlib
import os
import queue
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODES = ("dis", "ms", "stress")
STRESS_MAX = 5000  # cage allocations past which a program skips --gc=stress
BAD_OUTPUT = ("AddressSanitizer", "LeakSanitizer", "runtime error:", "terminate called",
              "Assertion", "std::logic_error")


def corpus_programs(root):
    """Inferno's command lines with known output, as programs(): each runs in
    a fixture directory made for the sweep, with its stdin."""
    sys.path.insert(0, os.path.join(ROOT, "scripts"))
    import inferno_sweep  # the same lines and fixture as that sweep's second part
    fixture = tempfile.mkdtemp(prefix="fault_sweep_inferno_")
    atexit.register(shutil.rmtree, fixture, True)
    inferno_sweep.make_fixture(fixture)
    found = []
    for name, argv, stdin, _ in inferno_sweep.known_lines(fixture):
        if name in inferno_sweep.KNOWN_GAPS:
            continue
        # A run whose injected failure stops the shell before its kill waits
        # out the sleeper: at 100 s, a few hundred such runs were most of a
        # full sweep's time. 5 s still outlasts the kill's normal path.
        argv = [re.sub(r"\bsleep 100\b", "sleep 5", a) for a in argv]
        dis = os.path.join(root, "dis", argv[0] + ".dis")
        found.append((f"inferno: {name}", ["--root", root, dis] + argv[1:], MODES,
                      {"stdin": stdin.encode(), "cwd": fixture}))
    return found


def cost_programs():
    """The programs `--tool cost` runs (cost --count: nothing timed)."""
    gc = os.path.join(ROOT, "tests", "vm", "gc")
    return [("cost: tests/vm/gc/cycles.b 20", [os.path.join(gc, "cycles.b"), "20"], MODES, {}),
            ("cost: tests/vm/gc/chanptr.b 100", [os.path.join(gc, "chanptr.b"), "100"], MODES, {})]


def programs(corpus):
    """(name, argv after dis's options, --gc modes, run options) of every
    program the sweep runs."""
    found = []
    for path in sorted(glob.glob(os.path.join(ROOT, "samples", "*.b"))):
        if os.path.basename(path) in ("samples.b",):
            continue  # a module of the paper's samples, not a program
        found.append((os.path.relpath(path, ROOT), [path], MODES, {}))
    for path in sorted(glob.glob(os.path.join(ROOT, "tests", "vm", "gc", "*.b"))):
        found.append((os.path.relpath(path, ROOT), [path], MODES, {}))
    # Files: builtins that run with the interpreter released, on kernel
    # processes; their own directory, made once for the sweep. (Not
    # tests/vm/sysfs/io.b: when its writer thread dies of the injected
    # failure, its reader waits on the pipe forever, as it would in Inferno.)
    scratch = tempfile.mkdtemp(prefix="fault_sweep_")
    atexit.register(shutil.rmtree, scratch, True)
    found.append(("tests/vm/gc/files.b 200",
                  [os.path.join(ROOT, "tests", "vm", "gc", "files.b"), scratch, "200"], MODES, {}))
    # dirread builds its array of Dir records while it fills them (issue 41).
    many = os.path.join(scratch, "many")
    os.mkdir(many)
    found.append(("tests/vm/sysfs/many.b 200",
                  [os.path.join(ROOT, "tests", "vm", "sysfs", "many.b"), many, "200"], MODES, {}))
    oom = os.path.join(ROOT, "tests", "vm", "oom")
    found.append(("tests/vm/oom/spawn.b 300", [os.path.join(oom, "spawn.b"), "300"], MODES, {}))
    for name in ("catch", "refill"):
        found.append((f"tests/vm/oom/{name}.b (1 MiB heap)",
                      ["--heap-limit", "1", os.path.join(oom, name + ".b")], MODES, {}))
    for path in sorted(glob.glob(os.path.join(ROOT, "tests", "limbo", "programs", "*.b"))):
        found.append((os.path.relpath(path, ROOT), [path], MODES, {}))
    # $Keyring's constructors: records and host crypto state made together.
    for path in sorted(glob.glob(os.path.join(ROOT, "tests", "limbo", "keyring", "*.b"))):
        found.append((os.path.relpath(path, ROOT), [path], MODES, {}))
    if corpus:
        if os.path.isdir(os.path.join(corpus, "dis")):
            found += corpus_programs(os.path.abspath(corpus))
        else:
            print(f"fault_sweep: no Inferno dis/ tree under {corpus}: its commands skipped")
    return found


class Job:
    """One run: the tool's arguments, the kth failure of a kind (None: none)."""

    def __init__(self, name, argv, opts, kind=None, k=0, report=None, stdout=False, base=0):
        self.name, self.argv, self.opts, self.kind, self.k = name, argv, opts, kind, k
        self.report, self.stdout = report, stdout
        # k counts from the program's start (base allocations before it, as
        # the count run saw; a server at the start says its own), or from
        # the process's (base None)
        self.base = base

    def absolute(self):
        """k counted from the process's start (DIS_FAULT_CAGE/HOST)."""
        return self.k + (self.base or 0)


class Fresh:
    """Runs each job in a new process (--no-server)."""

    def __init__(self, tool, scratch, start=None):
        self.tool = tool

    def run(self, job, timeout):
        env = dict(os.environ)
        if job.kind:
            env[f"DIS_FAULT_{job.kind}"] = str(job.absolute())
        if job.report:
            env["DIS_FAULT_REPORT"] = job.report
        stdin = job.opts.get("stdin")
        try:
            p = subprocess.run([self.tool] + job.argv, env=env,
                               input=stdin if stdin is not None else b"",
                               cwd=job.opts.get("cwd"), capture_output=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            return "hang", "", ""
        status = f"signal {-p.returncode}" if p.returncode < 0 else f"exit {p.returncode}"
        return status, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")

    def close(self):
        pass


class Server:
    """Runs each job in a child forked by one long-lived tool process
    (vm/mem/fault_server.h), its allocations numbered as in a fresh process.
    With start=(argv, opts) the tool runs that program up to its start once
    (DIS_FAULT_SERVER=program) and each child goes on from there, so it
    skips process and sanitizer start-up, the options and the VM's
    construction; without, it forks at the tool's main (DIS_FAULT_SERVER=1)
    and each job brings its arguments."""

    def __init__(self, tool, scratch, start=None):
        self.tool, self.start_at = tool, start
        self.out = os.path.join(scratch, "stdout")
        self.err = os.path.join(scratch, "stderr")
        self.scratch = scratch
        self.proc = None

    def start(self):
        argv, cwd, mode = [], None, "1"
        if self.start_at:
            argv, opts = self.start_at
            cwd, mode = opts.get("cwd"), "program"
        env = {k: v for k, v in os.environ.items() if not k.startswith("DIS_FAULT_")}
        env["DIS_FAULT_SERVER"] = mode
        self.proc = subprocess.Popen([self.tool] + argv, env=env, cwd=cwd, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True)
        self.starts = None
        if self.start_at:
            words = self.proc.stdout.readline().split()  # "start CAGE HOST"
            if len(words) == 3 and words[0] == "start":
                self.starts = {"CAGE": int(words[1]), "HOST": int(words[2])}

    def stdin_file(self, data):
        if data is None:
            return "-"
        path = os.path.join(self.scratch, "stdin%08x" % (hash(data) & 0xffffffff))
        if not os.path.exists(path):
            with open(path, "wb") as f:
                f.write(data)
        return path

    def run(self, job, timeout):
        k = str(job.k if self.start_at else job.absolute())
        fields = [k if job.kind == "CAGE" else "0", k if job.kind == "HOST" else "0",
                  job.report or "-", str(timeout), job.opts.get("cwd") or "-",
                  self.stdin_file(job.opts.get("stdin")), self.out if job.stdout else "-",
                  self.err] + ([] if self.start_at else job.argv)
        if any("\t" in f or "\n" in f for f in fields):
            sys.exit(f"fault_sweep: an argument holds a tab or newline: {job.argv}")
        status = ""
        for attempt in range(2):
            if self.proc is None or self.proc.poll() is not None:
                self.start()
            if self.start_at and job.kind:
                if self.starts is None:
                    break  # the tool ended before the program started
                job.base = self.starts[job.kind]
            try:
                self.proc.stdin.write("\t".join(fields) + "\n")
                self.proc.stdin.flush()
                status = self.proc.stdout.readline().strip()
            except BrokenPipeError:
                status = ""
            if status.startswith(("exit ", "signal ")) or status == "hang":
                break
            self.close()  # the server died or was refused: a new one, once
        else:
            return f"no fork server ({status!r}): it ended before the program started", "", ""
        out = read_text(self.out) if job.stdout else ""
        return status, out, read_text(self.err)

    def close(self):
        if self.proc:
            try:
                self.proc.stdin.close()
            except BrokenPipeError:
                pass
            self.proc.wait()
            self.proc = None


def read_text(path):
    with open(path, "rb") as f:
        return f.read().decode(errors="replace")


def judge(status, err, verify=False):
    """Why a run failed, or None; `verify`: the run had --gc-verify."""
    if status == "hang":
        return "hang"
    if status.startswith(("signal", "no fork server")):
        return status
    for bad in BAD_OUTPUT:
        if bad in err:
            return f"'{bad}' on stderr"
    if re.search(r"^gc verify-failures [1-9]", err, re.M):
        return "the heap verifier refused the heap"
    if status != "exit 0" and not err.strip():
        return f"status {status.split()[1]} without a message"
    if verify and status == "exit 0" and not re.search(r"^gc verify-runs [1-9]", err, re.M):
        return "no heap verification (the one at the program's end is missing)"
    return None


class Pool:
    """--jobs workers taking batches of jobs in order (breadth first). A
    batch is (start, jobs): start None runs them on the worker's own
    server (forking at main), (argv, opts) on a server started for them."""

    def __init__(self, kind, tool, jobs, scratch):
        self.kind, self.tool, self.slots = kind, tool, []
        for i in range(jobs):
            d = os.path.join(scratch, f"runner{i}")
            os.makedirs(d)
            self.slots.append((d, kind(tool, d)))

    def map(self, batches, timeout, stop=lambda: False, done=lambda job, result: None):
        """Runs the batches; done(job, result) is called as each job ends,
        one at a time, with result (status, stdout, stderr)."""
        q = queue.Queue()
        lock = threading.Lock()
        for b in batches:
            q.put(b)

        def work(slot):
            scratch, own = slot
            while not stop():
                try:
                    start, jobs = q.get_nowait()
                except queue.Empty:
                    return
                runner = own if start is None else self.kind(self.tool, scratch, start)
                for job in jobs:
                    if stop():
                        break
                    result = runner.run(job, timeout)
                    with lock:
                        done(job, result)
                if runner is not own:
                    runner.close()

        threads = [threading.Thread(target=work, args=(s,)) for s in self.slots]
        for t in threads:
            t.start()
        for t in threads:
            t.join()

    def close(self):
        for _, r in self.slots:
            r.close()


def precompile(limbo, listed, into):
    """Compiles each program's .b once into `into` (and the other .b files
    of its directory, modules it may load beside it); gives program name ->
    argv with the .dis in place of the .b."""
    done, argvs = {}, {}
    for name, argv, _, _ in listed:
        srcs = [a for a in argv if a.endswith(".b") and os.path.isfile(a)]
        if not srcs:
            continue
        src = os.path.abspath(srcs[0])
        for b in glob.glob(os.path.join(os.path.dirname(src), "*.b")):
            if b in done:
                continue
            rel = os.path.relpath(b, ROOT) if b.startswith(ROOT) else b.lstrip("/")
            out = os.path.join(into, rel[:-2] + ".dis")
            os.makedirs(os.path.dirname(out), exist_ok=True)
            p = subprocess.run([limbo, "-o", out, b], capture_output=True)
            done[b] = out if p.returncode == 0 and os.path.exists(out) else None
        if done[src]:
            argvs[name] = [done[src] if a == srcs[0] else a for a in argv]
    return argvs


def count_all(pool, listed, args, scratch, precompiled):
    """(name, argv, modes, opts, counts) of each program, counts a dict of
    the fault report (cage, host, cage_start, host_start), and the
    failures of the runs without a fault. A precompiled program is swept as
    its .dis when that prints and exits as the .b does."""
    jobs, results = [], {}
    # with the verifier's flags: it allocates (host) as the injected runs will
    verifying = flags(args, "dis")[1:]
    for name, argv, modes, opts in listed:
        for form, a in (("b", argv), ("dis", precompiled.get(name))):
            if a is not None:
                report = os.path.join(scratch, f"count{len(jobs)}.faults")
                jobs.append(Job((name, form), verifying + a, opts, report=report, stdout=True))

    def done(job, result):
        results[job.name] = (job, result)

    pool.map([(None, [job]) for job in jobs], args.timeout, done=done)
    counted, failures = [], []
    for name, argv, modes, opts in listed:
        job, (status, out, err) = results[(name, "b")]
        why = judge(status, err, args.verify)
        if why:
            failures.append(f"{name}: without a fault: {why}: {err[-400:]}")
            continue
        if (name, "dis") in results:
            djob, (dstatus, dout, derr) = results[(name, "dis")]
            if (dstatus, dout) == (status, out) and not judge(dstatus, derr, args.verify):
                job = djob
        if not os.path.exists(job.report):
            sys.exit("fault_sweep: no fault report: is this a fault-injection build "
                     "(Debug or DIS_SANITIZE)?")
        with open(job.report) as f:
            c = {k: int(v) for k, v in (l.split() for l in f.read().splitlines() if l.strip())}
        counted.append((name, job.argv[len(verifying):], modes, opts, c))
    return counted, failures


def shortest(counted):
    return min(counted, key=lambda p: p[4]["cage"] + p[4]["host"] - p[4]["host_start"])


def count_prefix(pool, counted, args, scratch):
    """(cage, host) allocations before the program starts, with the
    injected runs' options (they allocate too), in the shortest program."""
    name, argv, modes, opts, _ = shortest(counted)
    report = os.path.join(scratch, "prefix.faults")
    found = {}
    pool.map([(None, [Job(name, flags(args, modes[0]) + argv, opts, report=report)])],
             args.timeout, done=lambda job, result: found.update(result=result))
    with open(report) as f:
        c = {k: int(v) for k, v in (l.split() for l in f.read().splitlines() if l.strip())}
    return c["cage_start"], c["host_start"]


def chosen(total, first, spread):
    ks = list(range(1, min(first, total) + 1))
    if total > first and spread > 0:
        step = (total - first) / (spread + 1)
        ks += sorted({first + int(step * (i + 1)) for i in range(spread)})
    return ks


def flags(args, mode):
    verify = [f"--gc-verify={args.verify_every}", "--gc-stats"] if args.verify else []
    return [f"--gc={mode}"] + verify


def injections(counted, args, prefix_counts):
    """The batches of injected runs. The allocations before the program
    starts (the options, the VM's construction) are the same for every
    program: all of them are failed once, with the shortest program. Each
    program's own allocations are numbered from its start: every k up to
    --first, --spread beyond. Breadth first, --block k's of every program at
    a time (one fork server each, so one --gc mode, turning from block to
    block and program to program), so a budget cuts depth, not programs."""
    plans = []
    for name, argv, modes, opts, c in counted:
        if c["cage"] > STRESS_MAX:
            # --gc=stress collects fully at every allocation: quadratic.
            modes = tuple(m for m in modes if m != "stress")
        kinds = []
        for kind in ("CAGE", "HOST"):
            start = c[kind.lower() + "_start"]
            kinds.append((kind, start, chosen(c[kind.lower()] - start, args.first, args.spread)))
        plans.append((name, argv, modes, opts, kinds))
    depth = max((len(ks) for p in plans for _, _, ks in p[4]), default=0)
    blocks = max(1, -(-depth // args.block))
    prefix = []
    if counted:
        name, argv, modes, opts, c = shortest(counted)
        modes = tuple(m for m in modes if m != "stress")  # a failure swallowed runs it all
        prefix = [Job(f"{name} (before the program starts)",
                      flags(args, modes[k % len(modes)]) + argv, opts, kind, k, base=None)
                  for kind, start in zip(("CAGE", "HOST"), prefix_counts)
                  for k in range(1, start + 1)]
    chunk = -(-len(prefix) // blocks)
    batches = []
    for b in range(blocks):
        if prefix[b * chunk:(b + 1) * chunk]:
            batches.append((None, prefix[b * chunk:(b + 1) * chunk]))
        lo = b * args.block
        for i, (name, argv, modes, opts, kinds) in enumerate(plans):
            full = flags(args, modes[(b + i) % len(modes)]) + argv
            jobs = [Job(name, full, opts, kind, k, base=start) for kind, start, ks in kinds
                    for k in ks[lo:lo + args.block]]
            if jobs:
                batches.append(((full, opts), jobs))
    return batches


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build-debug"), help="build tree")
    ap.add_argument("--first", type=int, default=1000, help="fail every k up to this")
    ap.add_argument("--spread", type=int, default=50, help="k spread over the rest")
    ap.add_argument("--budget", type=float, default=0, help="stop after seconds (0: none)")
    # longlist.b takes 6 s of CPU under ASan: 30 s was too little on a loaded machine.
    ap.add_argument("--timeout", type=float, default=60, help="seconds before a run is a hang")
    ap.add_argument("--only", default="", help="programs whose name contains this")
    ap.add_argument("--verify", action="store_true",
                    help="run with the sampled heap verifier (dis --gc-verify=N)")
    # Every epoch's end already samples in proportion to the heap (an epoch
    # walks it all); an Nth step does not: at 64, tests/vm/gc/dropbig.b
    # (49 MB) took 48 s of CPU under ASan against 5 plain.
    ap.add_argument("--verify-every", type=int, default=1000000,
                    help="with --verify, N: the heap verified after every Nth GC step too (1: "
                    "every step, slow), besides every epoch's end, full collection and the end")
    ap.add_argument("--corpus", default=os.path.join(ROOT, "..", "shared", "corpus", "inferno"),
                    help="tree holding Inferno's dis/ (its commands join the programs)")
    ap.add_argument("--no-corpus", action="store_true", help="leave Inferno's commands out")
    ap.add_argument("--tool", choices=("dis", "cost"), default="dis",
                    help="the tool swept (cost: `cost --count` over a few programs)")
    ap.add_argument("--jobs", type=int, default=1, help="runs at a time")
    ap.add_argument("--no-server", action="store_true",
                    help="a new process per run, not children of a fork server")
    ap.add_argument("--source", action="store_true",
                    help="run the .b (compiled in each run), not a .dis compiled once")
    ap.add_argument("--limbo", default="",
                    help="the compiler making the .dis files (default: the build's)")
    ap.add_argument("--block", type=int, default=30,
                    help="k's of each program taken at a time (one fork server each)")
    ap.add_argument("--progress", type=float, default=0,
                    help="print the figures every this many seconds (0: at the end)")
    ap.add_argument("--journal", default="",
                    help="file recording finished runs: a sweep with the same file, tool "
                    "binary and plan skips those and counts their results")
    return ap.parse_args()


class Journal:
    """Finished runs, one line each after a header naming the tool binary (its
    SHA-256) and the plan's options; a header that differs is refused, since
    the k's of another build or plan are other allocations."""

    def __init__(self, path, tool, args, scratch):
        self.scratch = scratch
        digest = hashlib.sha256()
        with open(tool, "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                digest.update(block)
        self.header = (f"# fault_sweep journal: tool {digest.hexdigest()} first {args.first} "
                       f"spread {args.spread} block {args.block} verify {args.verify} "
                       f"every {args.verify_every} corpus {not args.no_corpus} "
                       f"source {args.source} only {args.only!r}")
        self.done = {}  # key -> failure text ("" when it passed)
        if os.path.exists(path) and os.path.getsize(path) > 0:
            with open(path) as f:
                lines = f.read().split("\n")
            if lines[0] != self.header:
                sys.exit(f"fault_sweep: {path}: written for another build or plan\n"
                         f"  it has:   {lines[0]}\n  this run: {self.header}")
            for line in lines[1:]:
                fields = line.split("\x1f")
                if len(fields) == 3:  # (a sitting cut short may leave half a line)
                    status, key, why = fields
                    self.done[key] = "" if status == "ok" else why.replace("\x1e", "\n")
            self.file = open(path, "a")
        else:
            self.file = open(path, "w")
            self.file.write(self.header + "\n")
            self.file.flush()

    def key(self, job):
        """The run, the same in every sitting (the scratch directory's name
        in precompiled programs' paths is not)."""
        argv = " ".join(job.argv).replace(self.scratch, "SCRATCH")
        return "\t".join([job.name, argv, job.kind or "", str(job.k)])

    def record(self, job, failure):
        status = "fail" if failure else "ok"
        self.file.write(f"{status}\x1f{self.key(job)}\x1f{failure.replace(chr(10), chr(0x1e))}\n")
        self.file.flush()


def main():
    args = parse_args()
    tool = os.path.abspath(os.path.join(args.build, "bin", args.tool))
    limbo = os.path.abspath(args.limbo or os.path.join(args.build, "bin", "limbo"))
    if not os.access(tool, os.X_OK):
        sys.exit(f"fault_sweep: {tool} is not built")
    os.environ.setdefault("ASAN_OPTIONS", "detect_leaks=1")
    start = time.monotonic()
    scratch = tempfile.mkdtemp(prefix="fault_sweep_runs_")
    if args.tool == "cost":
        listed, prefix, args.verify = cost_programs(), ["--count"], False
    else:
        listed, prefix = programs(None if args.no_corpus else args.corpus), []
    listed = [(n, prefix + a, m, o) for n, a, m, o in listed if args.only in n]
    precompiled = {}
    if not args.source and os.access(limbo, os.X_OK):
        precompiled = precompile(limbo, listed, os.path.join(scratch, "dis"))
    pool = Pool(Fresh if args.no_server else Server, tool, max(1, args.jobs), scratch)
    counted, failures = count_all(pool, listed, args, scratch, precompiled)
    counting = time.monotonic() - start
    if args.progress:
        for f in failures:
            print("FAIL " + f, flush=True)
    batches = injections(counted, args,
                         count_prefix(pool, counted, args, scratch) if counted else (0, 0))
    if args.no_server:
        batches = [(None, jobs) for _, jobs in batches]
    total = sum(len(jobs) for _, jobs in batches)
    journal = Journal(args.journal, tool, args, scratch) if args.journal else None
    earlier = 0
    if journal:
        kept = []
        for server, jobs in batches:
            left = []
            for job in jobs:
                why = journal.done.get(journal.key(job))
                if why is None:
                    left.append(job)
                else:
                    earlier += 1
                    if why:
                        failures.append(why)
            if left:
                kept.append((server, left))
        batches = kept
        print(f"fault_sweep: {args.journal}: {earlier} of {total} injected failures run "
              f"before, {len(failures)} failed", flush=True)
    state = {"last": time.monotonic(), "injected": earlier}

    def stop():
        return args.budget and time.monotonic() - start > args.budget

    def done(job, result):
        state["injected"] += 1
        status, _, err = result
        why = judge(status, err, args.verify)
        if why:
            cmd = f"DIS_FAULT_{job.kind}={job.absolute()} {tool} {' '.join(job.argv)}"
            if job.opts.get("cwd"):
                cmd = f"cd {job.opts['cwd']} && {cmd}"
            where = f"{job.k}" if job.base is None else f"{job.k} after the start"
            failures.append(f"{job.name}: {job.kind.lower()} allocation {where}: {why}\n  {cmd}\n"
                            + "".join("  | " + l + "\n" for l in err.splitlines()[-6:]))
            if args.progress:
                print("FAIL " + failures[-1], flush=True)
        if journal:
            journal.record(job, failures[-1] if why else "")
        now = time.monotonic()
        if args.progress and now - state["last"] > args.progress:
            state["last"] = now
            print(f"fault_sweep: {now - start:.0f} s, {state['injected']} of {total} injected "
                  f"failures run (last: {job.name} {job.kind.lower()} {job.k}), "
                  f"{len(failures)} failed", flush=True)

    pool.map(batches, args.timeout, stop, done)
    pool.close()
    injected = state["injected"]
    took = time.monotonic() - start
    sweeping = took - counting
    print(f"fault_sweep: {len(counted)} programs ({len(precompiled)} precompiled), "
          f"{injected} of {total} injected failures"
          + (f" ({earlier} of them in the journal)" if earlier else "")
          + f", {len(failures)} failed, {took:.0f} s "
          f"(counting {counting:.0f} s; {(injected - earlier) / max(sweeping, 1e-9):.1f} "
          "injected runs/s)" + (" (budget reached)" if injected < total else ""))
    if not args.progress:
        for f in failures:
            print("FAIL " + f)
    if failures and precompiled:
        print(f"fault_sweep: the precompiled .dis files are kept in {scratch}/dis")
    else:
        shutil.rmtree(scratch, True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
