#!/usr/bin/env python3
"""Threads at scale: what a blocked thread costs, how fast threads are made
and ended, and the thread-ring against Lua 5.4 coroutines.

  python3 perf/threads/run.py                    # 1,000,000 threads, 5,000,000 passes
  python3 perf/threads/run.py --threads 100000 --passes 500000

Each figure is a difference of two runs (N and N/10 threads, or passes), so
start-up and compilation cancel out: bytes per blocked thread from the peak
RSS (getrusage of the child), spawn+exit time per thread from its CPU time
(user + system; --metric wall for elapsed time, which a shared host
inflates). A benchmark, not a test: one round, figures on stdout. Lua 5.4 is skipped with
a note when `lua5.4` is not on PATH.
"""
import argparse
import os
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


METRIC = "cpu"


def measured(cmd):
    """Runs cmd in a fresh Python child so RUSAGE_CHILDREN is its alone: its
    time (CPU or wall, METRIC), peak RSS in bytes and stdout."""
    probe = (
        "import resource,subprocess,sys,time\n"
        "t=time.perf_counter()\n"
        "p=subprocess.run(sys.argv[1:],stdout=subprocess.PIPE,stderr=subprocess.PIPE)\n"
        "w=time.perf_counter()-t\n"
        "sys.stderr.write(p.stderr.decode())\n"
        "u=resource.getrusage(resource.RUSAGE_CHILDREN)\n"
        "print(p.returncode,w,u.ru_utime+u.ru_stime,u.ru_maxrss)\n"
        "sys.stdout.write(p.stdout.decode())\n"
    )
    res = subprocess.run([sys.executable, "-c", probe] + cmd, capture_output=True, text=True)
    first, _, rest = res.stdout.partition("\n")
    rc, wall, cpu, rss_kb = first.split()
    if int(rc) != 0:
        sys.exit(f"{' '.join(cmd)}: exit {rc}\n{res.stderr}")
    return float(cpu if METRIC == "cpu" else wall), int(rss_kb) * 1024, rest


def per_unit(cmd_for, n):
    """Per-unit time and RSS growth between n/10 and n units."""
    small = max(n // 10, 1)
    w0, r0, _ = measured(cmd_for(small))
    w1, r1, out = measured(cmd_for(n))
    return (w1 - w0) / (n - small), (r1 - r0) / (n - small), r1, out.strip()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"), help="build tree")
    ap.add_argument("--threads", type=int, default=1000000, help="blocked threads (N)")
    ap.add_argument("--spawns", type=int, default=1000000, help="threads spawned and ended")
    ap.add_argument("--passes", type=int, default=5000000, help="thread-ring passes")
    ap.add_argument("--heap-limit", type=int, default=1024, help="dis --heap-limit, MiB")
    ap.add_argument("--metric", choices=["cpu", "wall"], default="cpu",
                    help="time as CPU (user + system, the default) or wall")
    args = ap.parse_args()
    global METRIC
    METRIC = args.metric
    dis = os.path.join(args.build, "bin", "dis")
    if not os.access(dis, os.X_OK):
        sys.exit(f"{dis}: not built")
    lua = shutil.which("lua5.4")

    def prog(name):
        return os.path.join(HERE, name)

    def dis_cmd(name):
        return lambda n: [dis, f"--heap-limit={args.heap_limit}", prog(name), str(n)]

    t, b, peak, out = per_unit(dis_cmd("blocked.b"), args.threads)
    print(f"dis blocked threads: {args.threads}: {b:.0f} bytes each "
          f"(peak RSS {peak / 2**20:.0f} MiB) [{out}]")
    if lua:
        t, b, peak, out = per_unit(lambda n: [lua, prog("blocked.lua"), str(n)], args.threads)
        print(f"lua5.4 suspended coroutines: {args.threads}: {b:.0f} bytes each "
              f"(peak RSS {peak / 2**20:.0f} MiB) [{out}]")
    t, b, peak, out = per_unit(dis_cmd("spawnexit.b"), args.spawns)
    print(f"dis spawn+exit: {args.spawns}: {t * 1e9:.0f} ns {METRIC} per thread [{out}]")
    w, _, out = measured(dis_cmd("threadring.b")(args.passes))
    print(f"dis threadring 503 threads, {args.passes} passes: {w:.2f} s {METRIC} "
          f"[{out.strip()}]")
    if lua:
        w, _, out = measured([lua, prog("threadring.lua"), str(args.passes)])
        print(f"lua5.4 threadring 503 coroutines, {args.passes} passes: {w:.2f} s {METRIC} "
              f"[{out.strip()}]")
    else:
        print("lua5.4: not installed (apt-get install lua5.4), its columns skipped")


if __name__ == "__main__":
    main()
