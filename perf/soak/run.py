#!/usr/bin/env python3
"""Soak: soak.b's threads allocate and drop cyclic and acyclic structures
for a while under each --gc mode; the RSS must stop growing after warm-up.

  python3 perf/soak/run.py                       # 600 s per mode, 4 threads
  python3 perf/soak/run.py --seconds 20 --modes dis,ms

For each mode it samples the process's RSS (/proc/PID/status) every
--interval seconds and prints the series, then the bound: the highest RSS
after the first tenth of the run may exceed the highest during it by at most
--slack MiB and --factor times. A benchmark, not a test; exit status 1 when
a mode broke its bound or the program failed.
"""
import argparse
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def rss_mib(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return None


def soak(dis, mode, args):
    cmd = [dis, f"--gc={mode}", os.path.join(HERE, "soak.b"), str(args.seconds),
           str(args.threads)]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    start = time.monotonic()
    series = []
    while proc.poll() is None:
        r = rss_mib(proc.pid)
        if r is not None:
            series.append((time.monotonic() - start, r))
        time.sleep(args.interval)
    out, err = proc.communicate()
    if proc.returncode != 0:
        print(f"--gc={mode}: exit {proc.returncode}: {err.strip()}")
        return False
    print(f"--gc={mode}: {out.strip()}")
    for t, r in series:
        print(f"  {t:7.1f} s  {r:8.1f} MiB")
    # Warm-up: the first tenth of the run, at least two samples; a sample
    # taken before the program was loaded (under 1 MiB) is no peak.
    warm_end = max(args.seconds / 10, 2 * args.interval)
    warm = [r for t, r in series if t <= warm_end and r >= 1]
    after = [r for t, r in series if t > warm_end]
    if not warm or not after:
        print(f"  too few samples for a bound (interval {args.interval} s)")
        return True
    bound = max(warm) * args.factor + args.slack
    ok = max(after) <= bound
    print(f"  warm-up peak {max(warm):.1f} MiB, later peak {max(after):.1f} MiB, "
          f"bound {bound:.1f} MiB: {'within' if ok else 'EXCEEDED'}")
    return ok


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"), help="build tree")
    ap.add_argument("--seconds", type=int, default=600, help="run time per mode")
    ap.add_argument("--threads", type=int, default=4, help="allocating threads")
    ap.add_argument("--modes", default="dis,ms,stress", help="--gc modes, comma-separated")
    ap.add_argument("--interval", type=float, default=0, help="seconds between samples "
                    "(0: a sixtieth of the run)")
    ap.add_argument("--factor", type=float, default=1.25, help="bound: warm-up peak times this")
    ap.add_argument("--slack", type=float, default=4, help="bound: plus this many MiB")
    args = ap.parse_args()
    if args.interval <= 0:
        args.interval = max(args.seconds / 60, 0.2)
    dis = os.path.join(args.build, "bin", "dis")
    if not os.access(dis, os.X_OK):
        sys.exit(f"{dis}: not built")
    ok = all([soak(dis, m, args) for m in args.modes.split(",")])
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
