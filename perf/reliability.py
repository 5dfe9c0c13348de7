#!/usr/bin/env python3
"""Are cost's per-line times reproducible? Runs `cost -f PROG` N times apart.

Each run is a separate `cost --format json -f perf/programs/NAME.b SIZE`
with no other option (the default view and base, as a new user runs it).
Per program it prints the hottest line (by attributed total, the same line
in every run or it says so), that line's total in each run, and the
coefficient of variation (sample standard deviation over mean) of those
totals against the target (issue 39: under 5% for fib). `cost --repeat N`
gives the same figure within one process; this measures it across
processes, which is what a user comparing two runs sees.

A benchmark, not a test: it prints figures and exits 0 whatever they are
(1 only when a run fails). Standard library only. See perf/README.md.
"""

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from run import PROGRAMS_DIR, REPO_DIR, SPEC_FILE

TARGET_CV = 0.05


def hottest_line(report):
    """(total ns, "module:line") of the line with the largest attributed total."""
    best = (0.0, "")
    for m in report["modules"]:
        for line in m["lines"]:
            total = sum(op.get("total_ns", 0.0) for op in line["ops"])
            best = max(best, (total, f'{m["name"]}:{line["line"]}'))
    return best


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", default="build", help="our build directory, holding bin/cost (default build/)")
    ap.add_argument("--runs", type=int, default=10, help="separate cost runs per program (default 10)")
    ap.add_argument("--only", default="fib", metavar="NAME[,NAME]",
                    help="programs of perf/programs (default fib)")
    ap.add_argument("--size", default="accuracy", choices=("accuracy", "tiny"),
                    help="program size from programs.json (default accuracy)")
    ap.add_argument("--timeout", type=float, default=600, help="seconds before a run is killed")
    a = ap.parse_args()
    if a.runs < 2:
        ap.error("--runs must be at least 2")
    cost = (REPO_DIR / a.build / "bin" / "cost").resolve()
    if not cost.exists():
        sys.exit(f"reliability: {cost}: no such file (build first: cmake --build {a.build})")
    spec = json.loads(SPEC_FILE.read_text())["programs"]
    status = 0
    for name in a.only.split(","):
        if name not in spec:
            sys.exit(f"reliability: --only: no program {name!r} in {SPEC_FILE}")
        size = str(spec[name]["sizes"][a.size])
        prog = PROGRAMS_DIR / f"{name}.b"
        totals, lines = [], set()
        for i in range(a.runs):
            print(f"run {i + 1}/{a.runs} {name} {size}", file=sys.stderr, flush=True)
            with tempfile.TemporaryDirectory(prefix="disvm-reliability-") as tmp:
                out = Path(tmp) / "report.json"
                argv = [str(cost), "--format", "json", "--out", str(out), "-f", str(prog), size]
                p = subprocess.run(argv, capture_output=True, text=True, timeout=a.timeout, cwd=tmp)
                if p.returncode != 0:
                    print(f"reliability: {' '.join(argv)}: exit {p.returncode}: {p.stderr.strip()[:400]}",
                          file=sys.stderr)
                    status = 1
                    break
                total, line = hottest_line(json.loads(out.read_text()))
            totals.append(total)
            lines.add(line)
        if len(totals) < 2:
            continue
        mean = statistics.mean(totals)
        cv = statistics.stdev(totals) / mean if mean > 0 else float("nan")
        verdict = "met" if cv < TARGET_CV else "NOT met"
        where = ", ".join(sorted(lines)) + ("" if len(lines) == 1 else " (the hottest line changed)")
        print(f"{name} {size}: hottest line {where}; totals "
              + " ".join(f"{t / 1e6:.3f}" for t in totals)
              + f" ms; mean {mean / 1e6:.3f} ms, CV {100 * cv:.1f}% (target under {100 * TARGET_CV:.0f}%: {verdict})")
    return status


if __name__ == "__main__":
    sys.exit(main())
