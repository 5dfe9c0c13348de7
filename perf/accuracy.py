#!/usr/bin/env python3
"""Are cost's times true? Repeats `cost --accuracy` over the classic programs.

Each repeat runs `cost --accuracy --format json` on every classic program
(perf/programs/NAME.b at its "accuracy" size in programs.json) and on the
paper's BASE sample (samples/base.b, module Base), and on BASE again with
the VM on one processor (BASE-1cpu, cost --cpus 1), one after the other, so a
host event falls on one repeat rather than on one program. Per program and
base policy it prints the range and median of the ratio of the attributed
time to the plain run (CPU time for the classic programs, preemption and
interrupts left out; wall time for BASE, as the paper compares it), how many
repeats were within the target, and how many repeats had every classic
program within it at once.

A benchmark, not a test: it prints figures and exits 0 whatever they are
(1 only when a run fails or prints the wrong checksum).
Standard library only. See perf/README.md.
"""

import argparse
import datetime
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

# The harness's paths (run.py runs nothing when imported).
from run import PROGRAMS_DIR, REPO_DIR, RESULTS_DIR, SPEC_FILE

SCHEMA = "disvm-accuracy/1"

# The targets (issue 39, with cost's default base): attributed within 10% of
# the plain run on each classic program, within 25% on BASE.
CLASSIC_TOLERANCE = 0.10
BASE_TOLERANCE = 0.25
BASE_SAMPLE = "BASE"
# The same sample with the whole VM on one processor, as on the paper's
# uniprocessor: a blocking read's handover is then a context switch, not a
# trip between two spinning host threads that varies run to run (README,
# 2026-12-02).
BASE_ONE_CPU = "BASE-1cpu"
BASE_SAMPLES = (BASE_SAMPLE, BASE_ONE_CPU)
POLICIES = ["min", "median", "mean", "stream"]


def within(ratio, tolerance):
    return ratio is not None and abs(ratio - 1.0) <= tolerance


def run_cost(cost, args, timeout):
    """Runs cost with --accuracy --format json; returns (program output, report)."""
    with tempfile.TemporaryDirectory(prefix="disvm-accuracy-") as tmp:
        out = Path(tmp) / "report.json"
        argv = [str(cost), "--accuracy", "--format", "json", "--out", str(out)] + args
        p = subprocess.run(argv, capture_output=True, text=True, timeout=timeout, cwd=tmp)
        if p.returncode != 0:
            raise RuntimeError(f"{' '.join(argv)}: exit {p.returncode}: {p.stderr.strip()[:400]}")
        return p.stdout, json.loads(out.read_text())


def steal_seconds():
    """The host's steal time so far, all processors (/proc/stat), or None.

    Time a hypervisor gave our virtual processors to another guest: no clock
    inside the guest sees it as anything but a slower program."""
    try:
        with open("/proc/stat") as f:
            fields = f.readline().split()
        return int(fields[8]) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return None


def ratios(report, key):
    """{policy: ratio} of a report's accuracy section."""
    return {p["base"]: p[key] for p in report["accuracy"]["policies"]}


def summarize(values):
    if not values:
        return None
    return {"min": min(values), "median": statistics.median(values), "max": max(values)}


def ratio_cell(values, tolerance):
    """(JSON entry, table cell) of one program's ratios: min..max median, repeats within."""
    s = summarize(values)
    ok = sum(within(v, tolerance) for v in values)
    entry = {"values": values, "within": ok, **(s or {})}
    text = ("n/a" if s is None else
            f"{s['min']:.2f}..{s['max']:.2f} {s['median']:.2f} {ok}/{len(values)}")
    return entry, text


def main():
    ap = argparse.ArgumentParser(
        description="Repeat cost --accuracy over the classic programs and the BASE sample; "
                    "print the ratio of attributed to plain time per base policy.")
    ap.add_argument("--build", default=str(REPO_DIR / "build"),
                    help="our build directory, holding bin/cost (default build/)")
    ap.add_argument("--repeats", type=int, default=5, help="repeats (default 5)")
    ap.add_argument("--size", choices=["accuracy", "tiny"], default="accuracy",
                    help="program sizes: accuracy (a plain run of 30-150 ms here) or tiny (for CI)")
    ap.add_argument("--only", metavar="NAME[,NAME]",
                    help=f"run only these programs ({BASE_SAMPLE} is the BASE sample, "
                         f"{BASE_ONE_CPU} the same on one processor)")
    ap.add_argument("--timer", choices=["rdtsc", "rdtscp", "clock"],
                    help="cost's --timer (default: cost's own)")
    ap.add_argument("--json", metavar="FILE",
                    help="write the JSON here (default perf/results/<date>-<time>-accuracy[-tiny].json)")
    ap.add_argument("--timeout", type=float, default=600, help="seconds before a run is killed")
    args = ap.parse_args()
    if args.repeats < 1:
        ap.error("--repeats must be at least 1")

    cost = Path(args.build).resolve() / "bin" / "cost"  # runs from a scratch directory
    if not cost.exists():
        sys.exit(f"accuracy.py: {cost} is not built (cmake --build {args.build})")
    spec = json.loads(SPEC_FILE.read_text())["programs"]
    names = list(spec) + list(BASE_SAMPLES)
    if args.only:
        wanted = [n.strip() for n in args.only.split(",") if n.strip()]
        unknown = [n for n in wanted if n not in names]
        if unknown:
            sys.exit(f"accuracy.py: --only: unknown program {', '.join(unknown)} "
                     f"(known: {', '.join(names)})")
        names = [n for n in names if n in wanted]
    timer = ["--timer", args.timer] if args.timer else []

    # name -> policy -> [ratio per repeat]
    results = {n: {p: [] for p in POLICIES} for n in names}
    # name -> [the plain runs' (max - min) / median per repeat]: the host's own noise
    spreads = {n: [] for n in names}
    # name -> [the stream ratio's uncertainty per repeat: two standard errors of the calibration]
    uncertain = {n: [] for n in names}
    # name -> [seconds of steal (/proc/stat) during its cost run, per repeat]
    stolen = {n: [] for n in names}
    # name -> [the host gauge's drift per repeat: the plain streams' ticks per
    # instruction beside the costed run over those beside the plain runs]
    drifts = {n: [] for n in names}
    # name -> [the stream policy's ratio over the drift, per repeat]
    hosted = {n: [] for n in names}
    reported = {}
    failed = False
    for r in range(args.repeats):
        for name in names:
            print(f"repeat {r + 1}/{args.repeats} {name}", file=sys.stderr, flush=True)
            if name in BASE_SAMPLES:
                cost_args = timer + ["-f", str(REPO_DIR / "samples" / "base.b"), "-s", "Base"]
                if name == BASE_ONE_CPU:
                    cost_args += ["--cpus", "1"]
                key, expected = "ratio", None
            else:
                size = spec[name]["sizes"][args.size]
                cost_args = timer + [str(PROGRAMS_DIR / f"{name}.b"), str(size)]
                key, expected = "cpu_ratio", spec[name]["expected"][str(size)]
            steal0 = steal_seconds()
            try:
                output, report = run_cost(cost, cost_args, args.timeout)
            except (RuntimeError, subprocess.TimeoutExpired, ValueError) as e:
                print(f"accuracy.py: {name}: {e}", file=sys.stderr)
                failed = True
                continue
            if expected is not None and output.strip() != expected:
                print(f"accuracy.py: {name}: printed {output.strip()!r}, expected {expected!r}",
                      file=sys.stderr)
                failed = True
            steal1 = steal_seconds()
            if steal0 is not None and steal1 is not None:
                stolen[name].append(steal1 - steal0)
            reported[name] = report["accuracy"]["base"]
            acc = report["accuracy"]
            lo, hi, mid = ((acc.get("plain_min_ns"), acc.get("plain_max_ns"), acc.get("plain_ns"))
                           if name in BASE_SAMPLES else
                           (acc.get("plain_cpu_min_ns"), acc.get("plain_cpu_max_ns"),
                            acc.get("plain_cpu_ns")))
            if lo is not None and hi is not None and mid:
                spreads[name].append((hi - lo) / mid)
            for p in acc["policies"]:
                u = p.get("ratio_uncertainty" if name in BASE_SAMPLES else "cpu_ratio_uncertainty")
                if p["base"] == "stream" and u is not None:
                    uncertain[name].append(u)
            for policy, ratio in ratios(report, key).items():
                results[name].setdefault(policy, []).append(ratio)
            drift = acc.get("host_drift") or 0
            if drift > 0:
                drifts[name].append(drift)
                hosted[name].append(ratios(report, key)["stream"] / drift)

    classic = [n for n in names if n not in BASE_SAMPLES]
    print(f"\nAttributed time / plain run time, {args.repeats} repeats, size {args.size}, "
          f"{datetime.datetime.now().astimezone().isoformat(timespec='seconds')}")
    print("(classic programs: CPU time, target within "
          f"{CLASSIC_TOLERANCE:.0%}; {BASE_SAMPLE} and {BASE_ONE_CPU}: wall time, target within "
          f"{BASE_TOLERANCE:.0%};"
          " each cell: min..max median, then repeats within the target;"
          " plain spread: the plain runs' (max - min) / median, median and largest over the"
          " repeats: the host's own noise; stream +/-: median over the repeats of two standard"
          " errors of the stream base's calibration, as a share of the plain run; steal: the"
          " hypervisor's steal time during the cost run, median and largest, ms)")
    print("(drift: the plain calibration streams' ticks per instruction beside the costed run over"
          " those beside the plain runs, min..max median: above 1 the costed run met a slower host;"
          " stream/drift: the stream ratio had it met the plain runs' host)")
    header = (f"{'program':10}" + "".join(f"{p:>26}" for p in POLICIES) + f"{'plain spread':>16}"
              + f"{'stream +/-':>12}" + f"{'steal':>14}" + f"{'drift':>20}"
              + f"{'stream/drift':>24}")
    print(header)
    print("-" * len(header))
    table = {}
    for name in names:
        tol = BASE_TOLERANCE if name in BASE_SAMPLES else CLASSIC_TOLERANCE
        cells = []
        table[name] = {}
        for policy in POLICIES:
            table[name][policy], cell = ratio_cell(results[name].get(policy, []), tol)
            cells.append(cell)
        sp = spreads[name]
        table[name]["plain_spread"] = sp
        spread = f"{statistics.median(sp):.0%} ({max(sp):.0%})" if sp else "n/a"
        un = uncertain[name]
        table[name]["stream_uncertainty"] = un
        band = f"{statistics.median(un):.2f}" if un else "n/a"
        st = stolen[name]
        table[name]["steal_s"] = st
        steal = f"{statistics.median(st) * 1e3:.0f} ({max(st) * 1e3:.0f})" if st else "n/a"
        dr = drifts[name]
        table[name]["host_drift"] = dr
        drift = f"{min(dr):.2f}..{max(dr):.2f} {statistics.median(dr):.2f}" if dr else "n/a"
        table[name]["stream_over_drift"], adjusted = ratio_cell(hosted[name], tol)
        print(f"{name:10}" + "".join(f"{c:>26}" for c in cells) + f"{spread:>16}{band:>12}"
              f"{steal:>14}{drift:>20}{adjusted:>24}")

    all_within = {}
    for policy in POLICIES:
        count = 0
        for r in range(args.repeats):
            if classic and all(r < len(results[n][policy]) and
                               within(results[n][policy][r], CLASSIC_TOLERANCE) for n in classic):
                count += 1
        all_within[policy] = count
    if classic:
        hosted_all = sum(
            1 for r in range(args.repeats)
            if all(r < len(hosted[n]) and within(hosted[n][r], CLASSIC_TOLERANCE) for n in classic))
        all_within["stream_over_drift"] = hosted_all
        print("\nRepeats with every classic program within "
              f"{CLASSIC_TOLERANCE:.0%} at once: " +
              ", ".join(f"{p} {all_within[p]}/{args.repeats}" for p in POLICIES) +
              f"; stream/drift {hosted_all}/{args.repeats}")

    result = {
        "schema": SCHEMA,
        "date": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
        "host": platform.node(),
        "size": args.size,
        "repeats": args.repeats,
        "timer": args.timer,
        "sizes": {n: spec[n]["sizes"][args.size] for n in classic},
        "targets": {"classic": CLASSIC_TOLERANCE, "base_sample": BASE_TOLERANCE},
        "reported_base": reported,
        "programs": table,
        "all_classic_within": all_within,
    }
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    out = Path(args.json) if args.json else RESULTS_DIR / (f"{stamp}-accuracy.json" if args.size == "accuracy" else f"{stamp}-accuracy-{args.size}.json")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=2) + "\n")
    print(f"\nJSON written to {out}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
