#!/usr/bin/env python3
"""Fails each allocation of a program in turn and checks that it ends cleanly.

  python3 scripts/fault_sweep.py --build build-debug               # every program
  python3 scripts/fault_sweep.py --build build-debug --budget 50   # ctest's short slice

Needs a build with fault injection (Debug or DIS_SANITIZE: vm/mem/
fault_injection.h). Each program (samples/*.b, the tests' Limbo programs)
runs once under `dis` to count its cage and host allocations, then once per
chosen k with the kth allocation failing: every k up to --first, and
--spread more spread evenly over the rest. The --gc mode turns with k
(--gc=stress only for programs of at most 5,000 cage allocations). A run
passes when it ends by itself within --timeout with status 0, or with a
non-zero status and a message on stderr; it fails on a signal (a crash, an
abort), a hang, a sanitizer report, an uncaught C++ exception or (with
--verify) a heap the verifier refuses. Failures
are printed with the command that reproduces them; the exit status is 1 if
there was any. With --budget the sweep stops after that many seconds,
having taken the programs' first few k first (breadth before depth).

Inferno's precompiled commands (the command lines of scripts/inferno_sweep.py
with known output, run in its fixture directory under `dis --root TREE`)
join the programs when the tree is there (--corpus; --no-corpus leaves them
out). --tool cost sweeps `cost --count` over a few programs instead: a
failure outside the program's threads must end with a message too.
"""
import argparse
import atexit
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile
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
    oom = os.path.join(ROOT, "tests", "vm", "oom")
    found.append(("tests/vm/oom/spawn.b 300", [os.path.join(oom, "spawn.b"), "300"], MODES, {}))
    for name in ("catch", "refill"):
        found.append((f"tests/vm/oom/{name}.b (1 MiB heap)",
                      ["--heap-limit", "1", os.path.join(oom, name + ".b")], MODES, {}))
    for path in sorted(glob.glob(os.path.join(ROOT, "tests", "limbo", "programs", "*.b"))):
        found.append((os.path.relpath(path, ROOT), [path], MODES, {}))
    if corpus:
        if os.path.isdir(os.path.join(corpus, "dis")):
            found += corpus_programs(os.path.abspath(corpus))
        else:
            print(f"fault_sweep: no Inferno dis/ tree under {corpus}: its commands skipped")
    return found


def run(dis, args, env_extra, timeout, opts):
    env = dict(os.environ)
    env.update(env_extra)
    env.setdefault("ASAN_OPTIONS", "detect_leaks=1")
    stdin = opts.get("stdin")
    try:
        p = subprocess.run([dis] + args, env=env, input=stdin if stdin is not None else b"",
                           cwd=opts.get("cwd"), capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return "hang", ""
    err = p.stderr.decode(errors="replace")
    if p.returncode < 0:
        return f"signal {-p.returncode}", err
    for bad in BAD_OUTPUT:
        if bad in err:
            return f"'{bad}' on stderr", err
    if re.search(r"^gc verify-failures [1-9]", err, re.M):
        return "the heap verifier refused the heap", err
    if p.returncode != 0 and not err.strip():
        return f"status {p.returncode} without a message", err
    return None, err


def count(dis, args, timeout, opts):
    """(cage, host) allocations of one run with nothing failing."""
    with tempfile.NamedTemporaryFile("r", suffix=".faults") as f:
        why, err = run(dis, args, {"DIS_FAULT_REPORT": f.name}, timeout, opts)
        if why:
            return None, why + ": " + err[-400:]
        counts = dict(line.split() for line in f.read().splitlines() if line.strip())
    if "cage" not in counts:
        return None, "no fault report: is this a fault-injection build (Debug or DIS_SANITIZE)?"
    return (int(counts["cage"]), int(counts["host"])), None


def chosen(total, first, spread):
    ks = list(range(1, min(first, total) + 1))
    if total > first and spread > 0:
        step = (total - first) / (spread + 1)
        ks += sorted({first + int(step * (i + 1)) for i in range(spread)})
    return ks


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build-debug"), help="build tree")
    ap.add_argument("--first", type=int, default=1000, help="fail every k up to this")
    ap.add_argument("--spread", type=int, default=50, help="k spread over the rest")
    ap.add_argument("--budget", type=float, default=0, help="stop after seconds (0: none)")
    # longlist.b takes 6 s of CPU under ASan: 30 s was too little on a loaded machine.
    ap.add_argument("--timeout", type=float, default=60, help="seconds before a run is a hang")
    ap.add_argument("--only", default="", help="programs whose name contains this")
    ap.add_argument("--verify", action="store_true",
                    help="run with --gc-verify (the heap verified after every GC step; slow)")
    ap.add_argument("--corpus", default=os.path.join(ROOT, "..", "shared", "corpus", "inferno"),
                    help="tree holding Inferno's dis/ (its commands join the programs)")
    ap.add_argument("--no-corpus", action="store_true", help="leave Inferno's commands out")
    ap.add_argument("--tool", choices=("dis", "cost"), default="dis",
                    help="the tool swept (cost: `cost --count` over a few programs)")
    args = ap.parse_args()
    dis = os.path.abspath(os.path.join(args.build, "bin", args.tool))
    if not os.access(dis, os.X_OK):
        sys.exit(f"fault_sweep: {dis} is not built")
    start = time.monotonic()
    plans, failures, runs = [], [], 0
    if args.tool == "cost":
        listed, prefix, args.verify = cost_programs(), ["--count"], False
    else:
        listed, prefix = programs(None if args.no_corpus else args.corpus), []
    for name, argv, modes, opts in listed:
        if args.only not in name:
            continue
        argv = prefix + argv
        counts, why = count(dis, argv, args.timeout, opts)
        runs += 1
        if why:
            if "fault report" in why:
                sys.exit("fault_sweep: " + why)
            failures.append(f"{name}: without a fault: {why}")
            continue
        if counts[0] > STRESS_MAX:
            # --gc=stress collects fully at every allocation: quadratic.
            modes = tuple(m for m in modes if m != "stress")
        for kind, total in zip(("CAGE", "HOST"), counts):
            plans.append((name, argv, modes, opts, kind, chosen(total, args.first, args.spread)))
    # Breadth first: every program's k = 1, then k = 2, ... so a budget
    # cuts depth, not programs.
    depth = max((len(p[5]) for p in plans), default=0)
    injected, out_of_time = 0, False
    for i in range(depth):
        for name, argv, modes, opts, kind, ks in plans:
            if i >= len(ks):
                continue
            if args.budget and time.monotonic() - start > args.budget:
                out_of_time = True
                break
            k = ks[i]
            mode = modes[k % len(modes)]
            verify = ["--gc-verify", "--gc-stats"] if args.verify else []
            full = [f"--gc={mode}"] + verify + argv
            why, err = run(dis, full, {f"DIS_FAULT_{kind}": str(k)}, args.timeout, opts)
            runs += 1
            injected += 1
            if why:
                cmd = f"DIS_FAULT_{kind}={k} {dis} {' '.join(full)}"
                if opts.get("cwd"):
                    cmd = f"cd {opts['cwd']} && {cmd}"
                failures.append(f"{name}: {kind.lower()} allocation {k}: {why}\n  {cmd}\n"
                                + "".join("  | " + l + "\n" for l in err.splitlines()[-6:]))
        if out_of_time:
            break
    took = time.monotonic() - start
    print(f"fault_sweep: {len(set(p[0] for p in plans))} programs, {injected} injected failures, "
          f"{runs} runs, {len(failures)} failed, {took:.0f} s"
          + (" (budget reached)" if out_of_time else ""))
    for f in failures:
        print("FAIL " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
