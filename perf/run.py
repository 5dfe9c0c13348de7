#!/usr/bin/env python3
"""Benchmark harness: our Dis VM against peer interpreters.

Runs every classic program (perf/programs/NAME.{b,lua,py}) under our VM
(build/bin/dis, after compiling with build/bin/limbo) and under lua5.4,
luajit -joff, luajit and python3; warm-up, then N rounds in which the
interpreters alternate; medians, the ratio of each to Lua 5.4 per program and
as a geometric mean, peak RSS, and a checksum check on every run.

With --probes it instead measures the probe overhead of `cost`: the count
view, the timed view and the sampled view against the plain run of `dis`.

Standard library only. See perf/README.md for the table and JSON formats.
"""

import argparse
import datetime
import json
import math
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import awfy_suite
import runners as child
from runners import (PERF_DIR, PROGRAMS_DIR, REPO_DIR, OursRunner, PeerRunner, ProbeRunner,
                     is_executable, run_once, tool_version)

SPEC_FILE = PROGRAMS_DIR / "programs.json"
RESULTS_DIR = PERF_DIR / "results"
SCHEMA = "disvm-perf/1"

# Peer interpreters: column name, command prefix, source extension, Debian package.
PEERS = [
    ("lua5.4", ["lua5.4"], "lua", "lua5.4"),
    ("luajit-joff", ["luajit", "-joff"], "lua", "luajit"),
    ("luajit", ["luajit"], "lua", "luajit"),
    ("python3", ["python3"], "py", "python3"),
]
BASELINE = "lua5.4"
OURS = "ours"
TARGET_GEOMEAN = 0.6

# Probe views of `cost` measured against the plain run (--probes).
PROBE_VIEWS = [
    ("count", ["--count"]),
    ("time", []),
    ("sample100", ["--sample", "100"]),
]


class HarnessError(Exception):
    """A usage or set-up error: reported on stderr, exit status 2."""


def note(msg):
    print(msg, file=sys.stderr, flush=True)


# --------------------------------------------------------------------------
# Programs


def load_programs(size):
    try:
        spec = json.loads(SPEC_FILE.read_text())
    except (OSError, ValueError) as e:
        raise HarnessError(f"{SPEC_FILE}: {e}")
    programs = []
    for name, p in spec["programs"].items():
        if size not in p["sizes"]:
            raise HarnessError(f"{SPEC_FILE}: program {name} has no size '{size}'")
        n = p["sizes"][size]
        expected = p["expected"].get(str(n))
        if expected is None:
            raise HarnessError(f"{SPEC_FILE}: program {name} has no expected output for size {n}")
        programs.append({"name": name, "size": n, "expected": expected, "what": p["what"]})
    return programs


def suite_programs(suite, size, only):
    """The suite's programs at size; only: --only's NAME[,NAME] items (None: all)."""
    if suite == "awfy":
        try:
            programs = awfy_suite.load_programs(size)
        except awfy_suite.SuiteError as e:
            raise HarnessError(str(e))
    else:
        programs = load_programs(size)
    if only:
        wanted = [w for item in only for w in item.split(",") if w]
        known = {p["name"] for p in programs}
        unknown = [w for w in wanted if w not in known]
        if unknown:
            raise HarnessError(f"unknown program(s): {', '.join(unknown)} (known: {', '.join(sorted(known))})")
        programs = [p for p in programs if p["name"] in wanted]
    return programs


# Keys looked for (anywhere in the JSON report of `cost --format json`) to turn
# the timed view's overhead into a cost per executed instruction.
INSTRUCTION_KEYS = ("total_instructions", "instructions_executed", "instructions", "total_count")
TIMER_READ_KEYS = ("timer_read_ns", "timestamp_read_ns", "timer_cost_ns", "read_cost_ns")


def find_number(tree, keys):
    """First numeric value stored under one of keys, breadth first."""
    queue = [tree]
    while queue:
        node = queue.pop(0)
        if isinstance(node, dict):
            for k in keys:
                if isinstance(node.get(k), (int, float)) and not isinstance(node.get(k), bool):
                    return node[k]
            queue.extend(node.values())
        elif isinstance(node, list):
            queue.extend(node)
    return None


def probe_details(programs, runners, records, workdir, timeout, metric):
    """Per program: instructions executed (count view) and the timer read cost
    (timed view), from cost's JSON; then the timed view's overhead per
    instruction, in ns and in timer reads. Also in probe steps: the mean of
    the empty instructions timed through the probe (cost's base samples),
    where each read waits for the one before, as the timed view's do. Where a
    read's latency exceeds its back-to-back cost (AMD: 15 against 10 ns), a
    step costs more than a read. Missing figures stay None."""
    by_name = {r.name: r for r in runners if r.available}
    plain, count, timed = by_name.get("plain"), by_name.get("count"), by_name.get("time")
    details = {}
    for prog in programs:
        d = {"instructions": None, "timer_read_ns": None, "time_overhead_ns_per_instruction": None,
             "time_overhead_in_timer_reads": None, "probe_step_ns": None,
             "time_overhead_in_probe_steps": None}
        details[prog["name"]] = d
        if not (plain and count and timed):
            continue
        for runner, keys, field in ((count, INSTRUCTION_KEYS, "instructions"),
                                    (timed, TIMER_READ_KEYS, "timer_read_ns")):
            out = workdir / f"{prog['name']}.{runner.name}.json"
            r = run_once(runner.command(prog, ["--format", "json", "--out", str(out)]),
                         runner.cwd or workdir, timeout)
            try:
                report = json.loads(out.read_text()) if r.status == 0 else None
            except (OSError, ValueError):
                report = None
            d[field] = find_number(report, keys) if report is not None else None
            if runner is timed and report is not None:
                d["probe_step_ns"] = probe_step_ns(report)
        recs = records[prog["name"]]
        p, t = recs.get("plain", {}), recs.get("time", {})
        if d["instructions"] and p.get("ok") and t.get("ok") and p.get(metric) and t.get(metric):
            per = (t[metric] - p[metric]) * 1e9 / d["instructions"]
            d["time_overhead_ns_per_instruction"] = per
            if d["timer_read_ns"]:
                d["time_overhead_in_timer_reads"] = per / d["timer_read_ns"]
            if d["probe_step_ns"]:
                d["time_overhead_in_probe_steps"] = per / d["probe_step_ns"]
    return details


def probe_step_ns(report):
    """The mean empty instruction through the probe, ns, from a timed report."""
    base, timer = report.get("base"), report.get("timer")
    if not isinstance(base, dict) or not isinstance(timer, dict):
        return None
    mean, rate = base.get("mean_ticks"), timer.get("ticks_per_ns")
    if not isinstance(mean, (int, float)) or not isinstance(rate, (int, float)) or rate <= 0:
        return None
    return mean / rate



# --------------------------------------------------------------------------
# Installing missing peers


def ensure_peers(wanted, allow_install):
    """Installs the Debian packages of missing peer commands; returns {name: note} for those still missing."""
    missing = {}
    for name, prefix, _, package in PEERS:
        if name in wanted and shutil.which(prefix[0]) is None:
            missing[name] = package
    if missing and allow_install:
        packages = sorted(set(missing.values()))
        install(packages)
    notes = {}
    for name, package in missing.items():
        prefix = next(p for n, p, _, _ in PEERS if n == name)
        if shutil.which(prefix[0]) is None:
            notes[name] = f"{prefix[0]} not available (Debian package {package}); column skipped"
    return notes


def install(packages):
    apt = shutil.which("apt-get")
    if apt is None:
        note(f"note: apt-get not found; cannot install {' '.join(packages)}")
        return
    prefix = []
    if os.geteuid() != 0:
        if shutil.which("sudo") is None:
            note(f"note: not root and no sudo; cannot install {' '.join(packages)}")
            return
        prefix = ["sudo", "-n"]
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    cmd = prefix + [apt, "install", "-y", "--no-install-recommends"] + packages
    note(f"installing: {' '.join(cmd)}")
    if subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL).returncode != 0:
        # A fresh container often has no package lists yet.
        subprocess.run(prefix + [apt, "update"], env=env, stdout=subprocess.DEVNULL)
        if subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL).returncode != 0:
            note(f"note: installing {' '.join(packages)} failed")


def python_command():
    # Debian's interpreter when present, so the figures name a packaged version.
    if is_executable(Path("/usr/bin/python3")):
        return ["/usr/bin/python3"]
    return [sys.executable]


# --------------------------------------------------------------------------
# Environment header


def read_first(path, key):
    try:
        for line in Path(path).read_text().splitlines():
            if line.startswith(key):
                return line.split("=" if "=" in line else ":", 1)[1].strip().strip('"')
    except OSError:
        pass
    return ""


def cmake_cache(build_dir):
    values = {}
    try:
        for line in (build_dir / "CMakeCache.txt").read_text().splitlines():
            if ":" in line and "=" in line and not line.startswith(("#", "//")):
                key, rest = line.split(":", 1)
                values[key] = rest.split("=", 1)[1]
    except OSError:
        pass
    return values


def git_state():
    try:
        head = subprocess.run(["git", "-C", str(REPO_DIR), "rev-parse", "HEAD"],
                              capture_output=True, text=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(REPO_DIR), "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True).stdout.strip()
        return head + ("-dirty" if dirty else "")
    except OSError:
        return ""


def environment(build_dirs, runners):
    env = {
        "date": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
        "command": " ".join([sys.argv[0]] + sys.argv[1:]),
        "cpu": read_first("/proc/cpuinfo", "model name") or platform.processor(),
        "cpus": os.cpu_count(),
        "kernel": f"{platform.system()} {platform.release()}",
        "os": read_first("/etc/os-release", "PRETTY_NAME"),
        "loadavg_start": list(os.getloadavg()),
        "git": git_state(),
        "harness_python": platform.python_version(),
        "builds": {},
        "runners": {r.name: {"command": r.argv({"name": "NAME", "size": "SIZE"}) if r.available else [],
                             "version": r.version, "available": r.available, "note": r.note}
                    for r in runners},
    }
    for label, build_dir in build_dirs.items():
        cache = cmake_cache(build_dir)
        compiler = cache.get("CMAKE_CXX_COMPILER", "")
        env["builds"][label] = {
            "dir": str(build_dir),
            "build_type": cache.get("CMAKE_BUILD_TYPE", ""),
            "cxx_compiler": compiler,
            "cxx_version": tool_version([compiler, "--version"]) if compiler else "",
            "cxx_flags": cache.get("CMAKE_CXX_FLAGS", ""),
        }
    return env


# --------------------------------------------------------------------------
# Measuring


def measure(programs, runners, rounds, warmup, timeout, workdir):
    """Returns {prog: {runner: record}} and the list of failures."""
    failures = []
    records = {p["name"]: {} for p in programs}
    active = {}  # prog name -> runners that prepared and passed warm-up

    def fail(prog, runner, what):
        msg = f"FAIL {prog['name']} [{runner.name}]: {what}"
        failures.append(msg)
        note("\n" + "!" * 72 + "\n" + msg + "\n" + "!" * 72)
        records[prog["name"]].setdefault(runner.name, new_record())["failures"].append(what)

    def run_and_check(prog, runner):
        r = run_once(runner.argv(prog), runner.cwd or workdir, timeout)
        if r.timed_out:
            fail(prog, runner, f"timed out after {timeout} s")
            return None
        if r.status != 0:
            fail(prog, runner, f"exit status {r.status}: {r.stderr.strip()[-500:]}")
            return None
        if not runner.check_output(r, prog):
            fail(prog, runner, f"CHECKSUM MISMATCH: expected {prog['expected']!r}, got {r.stdout.strip()[:200]!r}")
            return None
        return r

    for prog in programs:
        active[prog["name"]] = []
        for runner in runners:
            if not runner.available:
                continue
            err = runner.prepare(prog, workdir)
            if err:
                fail(prog, runner, err)
                continue
            ok = True
            for _ in range(warmup):
                note(f"warm-up  {prog['name']:<9} {runner.name}")
                if run_and_check(prog, runner) is None:
                    ok = False
                    break
            if ok:
                active[prog["name"]].append(runner)
                records[prog["name"]].setdefault(runner.name, new_record())

    for rnd in range(rounds):
        for prog in programs:
            order = active[prog["name"]]
            if not order:
                continue
            shift = rnd % len(order)  # rotate so no runner always goes first
            for runner in order[shift:] + order[:shift]:
                note(f"round {rnd + 1}/{rounds} {prog['name']:<9} {runner.name}")
                r = run_and_check(prog, runner)
                if r is None:
                    continue
                rec = records[prog["name"]][runner.name]
                rec["wall_s"].append(round(r.wall, 6))
                rec["user_s"].append(round(r.user, 6))
                rec["sys_s"].append(round(r.sys, 6))
                rec["maxrss_kb"].append(r.maxrss_kb)
                for field, value in runner.extras(r, prog).items():
                    rec.setdefault(field, []).append(value)

    for prog_records in records.values():
        for rec in prog_records.values():
            summarise(rec)
    return records, failures


def new_record():
    return {"wall_s": [], "user_s": [], "sys_s": [], "maxrss_kb": [], "failures": []}


def summarise(rec):
    walls = rec["wall_s"]
    rec["ok"] = bool(walls) and not rec["failures"]
    if walls:
        med = statistics.median(walls)
        rec["median_s"] = med
        rec["min_s"] = min(walls)
        rec["max_s"] = max(walls)
        rec["spread"] = (max(walls) - min(walls)) / (2 * med) if med > 0 else 0.0
        rec["median_cpu_s"] = statistics.median(u + s for u, s in zip(rec["user_s"], rec["sys_s"]))
        rec["peak_rss_kb"] = max(rec["maxrss_kb"])


def ratios(programs, records, columns, base, metric):
    """Per program and geometric mean of median(column) / median(base) for metric."""
    per_prog = {}
    geo = {}
    for col in columns:
        if col == base:
            continue
        key = f"{col}/{base}"
        logs = []
        for prog in programs:
            recs = records[prog["name"]]
            a, b = recs.get(col, {}), recs.get(base, {})
            if a.get("ok") and b.get("ok") and b[metric] > 0:
                ratio = a[metric] / b[metric]
                per_prog.setdefault(prog["name"], {})[key] = ratio
                logs.append(math.log(ratio))
        if logs and len(logs) == len(programs):
            geo[key] = math.exp(sum(logs) / len(logs))
        elif logs:
            geo[key + " (partial)"] = math.exp(sum(logs) / len(logs))
    return per_prog, geo


# --------------------------------------------------------------------------
# Output


def fmt_time(metric):
    def fmt(rec):
        if not rec:
            return "-"
        if not rec.get("ok"):
            return "FAIL"
        if metric == "median_cpu_s":
            return f"{rec['median_cpu_s']:.3f}"
        return f"{rec['median_s']:.3f}±{100 * rec['spread']:.0f}%"
    return fmt


def fmt_rss(rec):
    if not rec:
        return "-"
    if not rec.get("ok"):
        return "FAIL"
    return f"{rec['peak_rss_kb'] / 1024:.1f}"


def print_table(title, programs, records, columns, per_prog, geo, ratio_keys, value_fmt, out):
    headers = ["program", "size"] + columns + ratio_keys
    rows = []
    for prog in programs:
        recs = records[prog["name"]]
        row = [prog["name"], str(prog["size"])]
        row += [value_fmt(recs.get(c)) for c in columns]
        row += [fmt_ratio(per_prog.get(prog["name"], {}).get(k)) for k in ratio_keys]
        rows.append(row)
    if ratio_keys:
        row = ["geomean", ""] + [""] * len(columns)
        row += [fmt_ratio(geo.get(k, geo.get(k + " (partial)"))) + ("*" if k not in geo and k + " (partial)" in geo else "")
                for k in ratio_keys]
        rows.append(row)
    widths = [max(len(r[i]) for r in rows + [headers]) for i in range(len(headers))]
    print(title, file=out)
    line = "  ".join(h.ljust(w) if i < 2 else h.rjust(w) for i, (h, w) in enumerate(zip(headers, widths)))
    print(line, file=out)
    print("-" * len(line), file=out)
    for r in rows:
        print("  ".join(c.ljust(w) if i < 2 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths))), file=out)


def target_verdict(programs, per_prog, geo):
    """The speed issue's target: faster than Lua 5.4 on every program, geomean at most 0.6."""
    key = f"{OURS}/{BASELINE}"
    got = [per_prog.get(p["name"], {}).get(key) for p in programs]
    if key not in geo or None in got:
        return ""
    slower = [p["name"] for p, r in zip(programs, got) if r >= 1.0]
    ok = not slower and geo[key] <= TARGET_GEOMEAN
    return (f"Target (ours faster than {BASELINE} on every program, geomean <= {TARGET_GEOMEAN}): "
            + ("MET" if ok else "NOT MET")
            + (f"; slower on {', '.join(slower)}" if slower else "")
            + f"; geomean {geo[key]:.2f}")


def fmt_opt(v, fmt):
    return "n/a" if v is None else fmt.format(v)


def fmt_ratio(v):
    return "-" if v is None else f"{v:.2f}"


def write_observations(path, programs, records, columns):
    """Raw times as observation lines (DESIGN.md Formats), for bstat and plot."""
    with open(path, "w") as f:
        for prog in programs:
            for col in columns:
                rec = records[prog["name"]].get(col)
                if rec and rec["wall_s"]:
                    name = f"{prog['name']}-{col}".replace(":", "_").replace(" ", "_")
                    values = " ".join(f"{1000 * w:.3f}" for w in rec["wall_s"])
                    f.write(f"{name}:1l:Round::Time:ms {values}\n")


def fastest(rec, metric_name):
    """The fastest round of a runner's record (CPU or wall seconds), or None."""
    if not rec.get("ok"):
        return None
    if metric_name == "cpu":
        times = [u + s for u, s in zip(rec.get("user_s", []), rec.get("sys_s", []))]
    else:
        times = list(rec.get("wall_s", []))
    return min(times) if times else None


def print_fastest(programs, records, columns, base, metric_name, out):
    """Each view's fastest round over the plain run's: on a host that runs
    at two speeds from one second to the next, the medians of a few rounds
    can fall at different speeds for the two runners; the fastest rounds are
    likelier to fall at the same one."""
    print("Fastest round over the plain run's fastest (the same ratios, less moved by a host "
          "whose speed changes from one round to the next)", file=out)
    for col in columns:
        if col == base:
            continue
        cells = []
        for prog in programs:
            a, b = fastest(records[prog["name"]].get(col, {}), metric_name), fastest(
                records[prog["name"]].get(base, {}), metric_name)
            cells.append(f"{prog['name']} {a / b:.2f}" if a and b else f"{prog['name']} n/a")
        print(f"  {col + '/' + base:<17} " + ", ".join(cells), file=out)


def fastest_overhead_ns(plain_rec, time_rec, metric_name, instructions):
    """The timed view's overhead per instruction from the fastest rounds of
    each (see print_fastest), ns; None when a figure is missing."""
    a, b = fastest(time_rec, metric_name), fastest(plain_rec, metric_name)
    if not (a and b and instructions):
        return None
    return (a - b) * 1e9 / instructions


def report(result, metric_name, out):
    """Prints the tables of a result (fresh, or loaded from its JSON with --show)."""
    settings = result["settings"]
    programs = result["programs"]
    records = {p["name"]: p["runs"] for p in programs}
    columns = settings["columns"]
    base = settings["baseline"]
    probes = result["mode"] == "probes"
    metric = "median_cpu_s" if metric_name == "cpu" else "median_s"
    per_prog, geo = ratios(programs, records, columns, base, metric)
    if probes:
        ratio_keys = [f"{c}/{base}" for c in columns if c != base]
    else:
        ratio_keys = [f"{c}/{base}" for c in columns if c.startswith(OURS)] if base in columns else []
    rounds, size, date = settings["rounds"], settings["size"], result["environment"]["date"]
    if metric_name == "cpu":
        title = f"Median CPU time (user+system) in seconds over {rounds} rounds, size {size}, {date}"
    else:
        title = f"Median wall time in seconds (±: half the range over {rounds} rounds), size {size}, {date}"
    if settings.get("suite") == "awfy":
        # One table: beside each time, that column's peak memory.
        title = f"Are-We-Fast-Yet (outer x inner iterations). {title}; beside it the peak RSS in MiB"
        time_fmt = fmt_time(metric)
        print_table(title, programs, records, columns, per_prog, geo, ratio_keys,
                    lambda rec: time_fmt(rec) + ("" if not rec or not rec.get("ok") else f" {fmt_rss(rec)}M"),
                    out)
    else:
        print_table(title, programs, records, columns, per_prog, geo, ratio_keys, fmt_time(metric), out)
        print(file=out)
        print_table("Peak resident memory in MiB (largest over the rounds)", programs, records, columns,
                    per_prog, geo, [], fmt_rss, out)
    if probes:
        print(file=out)
        print_fastest(programs, records, columns, base, metric_name, out)
        if "time" in columns:
            print(file=out)
            print("Timed view overhead per executed instruction (from cost --format json; "
                  "target: at most 1.5 timer reads; medians, then fastest rounds)", file=out)
            for prog in programs:
                d = prog.get("probe") or {}
                recs = records[prog["name"]]
                fast = fastest_overhead_ns(recs.get(base, {}), recs.get("time", {}), metric_name,
                                           d.get("instructions"))
                read = d.get("timer_read_ns")
                print(f"  {prog['name']:<9} instructions {fmt_opt(d.get('instructions'), '{:.0f}')}"
                      f"  timer read {fmt_opt(read, '{:.1f} ns')}"
                      f"  overhead {fmt_opt(d.get('time_overhead_ns_per_instruction'), '{:.1f} ns')}"
                      f" = {fmt_opt(d.get('time_overhead_in_timer_reads'), '{:.2f}')} reads"
                      f"  (probe step {fmt_opt(d.get('probe_step_ns'), '{:.1f} ns')}:"
                      f" {fmt_opt(d.get('time_overhead_in_probe_steps'), '{:.2f}')} steps)"
                      f"; fastest {fmt_opt(fast, '{:.1f} ns')}"
                      f" = {fmt_opt(fast / read if fast is not None and read else None, '{:.2f}')}"
                      f" reads", file=out)
    elif base in columns:
        print(file=out)
        print(f"Geometric mean of {metric_name} time relative to {base}: " +
              (", ".join(f"{k.split('/')[0]} {v:.2f}" for k, v in geo.items()) or "n/a"), file=out)
        verdict = target_verdict(programs, per_prog, geo)
        if verdict:
            print(verdict, file=out)


# --------------------------------------------------------------------------
# Main


def parse_args(argv):
    ap = argparse.ArgumentParser(
        description="Benchmark our Dis VM against lua5.4, luajit -joff, luajit and python3 "
                    "(or, with --probes, cost's probe views against the plain run).")
    ap.add_argument("--suite", default="classic", choices=["classic", "awfy"],
                    help="classic: perf/programs; awfy: the Are-We-Fast-Yet benchmarks (perf/awfy)")
    ap.add_argument("--size", default="default", choices=["default", "tiny"],
                    help="program sizes: default (about 1 s for Lua 5.4) or tiny (for CI)")
    ap.add_argument("--rounds", type=int, default=5, help="timed rounds (default 5)")
    ap.add_argument("--warmup", type=int, default=1, help="untimed warm-up runs per program and runner (default 1)")
    ap.add_argument("--only", action="append", metavar="NAME[,NAME]", help="run only these programs")
    ap.add_argument("--json", metavar="FILE", help="write the JSON here (default perf/results/<date>-<size>[-probes].json)")
    ap.add_argument("--obs", metavar="FILE", help="also write raw times as observation lines (for bstat)")
    ap.add_argument("--build", default=str(REPO_DIR / "build"), metavar="DIR",
                    help="our build directory, holding bin/dis, bin/limbo, bin/cost (default build/)")
    ap.add_argument("--compare-build", action="append", default=[], metavar="LABEL=DIR",
                    help="add a column 'ours:LABEL' run from another build (e.g. one without probes)")
    ap.add_argument("--dis-arg", action="append", default=[], metavar="ARG",
                    help="extra option passed to every dis run (before the module)")
    ap.add_argument("--skip-ours", action="store_true", help="only the peer interpreters")
    ap.add_argument("--peers", help="comma-separated peers to run (default all the suite has; empty for none)")
    ap.add_argument("--no-install", action="store_true", help="never call apt-get for missing peers")
    ap.add_argument("--probes", action="store_true",
                    help="measure cost --count, the timed cost view and cost --sample 100 against plain dis")
    ap.add_argument("--views", default=",".join(v for v, _ in PROBE_VIEWS), metavar="VIEW[,VIEW]",
                    help="with --probes: the views to run (default all: "
                         f"{', '.join(v for v, _ in PROBE_VIEWS)}; the timed view takes the longest)")
    ap.add_argument("--metric", default="wall", choices=["wall", "cpu"],
                    help="time compared: wall (default) or user+system CPU of the child")
    ap.add_argument("--timeout", type=float, default=600, help="seconds before a run is killed (default 600)")
    ap.add_argument("--show", metavar="FILE", help="print the tables of a saved JSON result (with --metric), run nothing")
    ap.add_argument("--list", action="store_true", help="list the programs and their sizes, then exit")
    args = ap.parse_args(argv)
    if args.rounds < 1 or args.warmup < 0:
        ap.error("--rounds must be at least 1 and --warmup at least 0")
    views = [v for v in args.views.split(",") if v]
    unknown = [v for v in views if v not in dict(PROBE_VIEWS)]
    if unknown or not views:
        ap.error(f"--views: unknown view(s) {', '.join(unknown) or '(none given)'}; "
                 f"known: {', '.join(v for v, _ in PROBE_VIEWS)}")
    args.views = views
    if args.peers is None:
        args.peers = ",".join(n for n, _, _, _ in PEERS if args.suite == "classic" or n in awfy_suite.LUA_PEERS)
    return args


def build_runners(args, workdir):
    build = Path(args.build).resolve()
    build_dirs = {OURS: build}
    runners = []
    awfy = args.suite == "awfy"
    if args.probes:
        plain = (awfy_suite.AwfyOursRunner if awfy else OursRunner)("plain", build, args.dis_arg)
        runners.append(plain)
        probe_runner = awfy_suite.AwfyProbeRunner if awfy else ProbeRunner
        for view, view_args in PROBE_VIEWS:
            if view not in args.views:
                continue
            runners.append(probe_runner(view, build / "bin" / "cost", view_args, plain, workdir))
        return runners, build_dirs, "plain"

    ours_runner = awfy_suite.AwfyOursRunner if awfy else OursRunner
    if not args.skip_ours:
        runners.append(ours_runner(OURS, build, args.dis_arg))
        for spec in args.compare_build:
            label, sep, d = spec.partition("=")
            if not sep or not label or not d:
                raise HarnessError(f"--compare-build wants LABEL=DIR, got {spec!r}")
            build_dirs[f"{OURS}:{label}"] = Path(d).resolve()
            runners.append(ours_runner(f"{OURS}:{label}", Path(d).resolve(), args.dis_arg))

    wanted = [p for p in args.peers.split(",") if p]
    known = [n for n, _, _, _ in PEERS if not awfy or n in awfy_suite.LUA_PEERS]
    bad = [p for p in wanted if p not in known]
    if bad:
        raise HarnessError(f"unknown peer(s) for suite {args.suite}: {', '.join(bad)} (known: {', '.join(known)})")
    missing = ensure_peers(wanted, not args.no_install)
    for name, prefix, ext, _ in PEERS:
        if name not in wanted:
            continue
        if name == "python3":
            prefix = python_command()
        r = awfy_suite.AwfyLuaRunner(name, prefix) if awfy else PeerRunner(name, prefix, ext)
        if name in missing:
            r.available = False
            r.note = missing[name]
        runners.append(r)
    return runners, build_dirs, BASELINE


def set_versions(runners):
    for r in runners:
        if not r.available:
            continue
        if isinstance(r, PeerRunner):
            r.version = tool_version([r.prefix[0], "-v"] if r.ext == "lua" else [r.prefix[0], "--version"])
        elif isinstance(r, OursRunner):
            r.version = tool_version([str(r.dis), "--version"])
        elif isinstance(r, ProbeRunner):
            r.version = tool_version([str(r.cost), "--version"])


def main(argv):
    args = parse_args(argv)
    if args.list:
        for p in suite_programs(args.suite, args.size, None):
            print(f"{p['name']:<9} {args.size} size {p['size']:<10} {p['what']}")
        return 0
    if args.show:
        try:
            saved = json.loads(Path(args.show).read_text())
        except (OSError, ValueError) as e:
            raise HarnessError(f"{args.show}: {e}")
        if saved.get("schema") != SCHEMA:
            raise HarnessError(f"{args.show}: not a {SCHEMA} result")
        report(saved, args.metric, sys.stdout)
        return 1 if saved.get("failures") else 0
    programs = suite_programs(args.suite, args.size, args.only)

    with tempfile.TemporaryDirectory(prefix="disvm-perf-") as tmp:
        workdir = Path(tmp)
        runners, build_dirs, base = build_runners(args, workdir)
        child.GNU_TIME = child.find_gnu_time()
        if child.GNU_TIME is None and not args.no_install:
            install(["time"])
            child.GNU_TIME = child.find_gnu_time()
        if child.GNU_TIME is None:
            note("note: GNU time (Debian package time) not available: peak RSS comes from wait4 "
                 "and includes this harness's own high-water mark")
        set_versions(runners)
        for r in runners:
            if not r.available:
                note(f"note: {r.name} skipped: {r.note}")
            elif r.note:
                note(f"note: {r.name}: {r.note}")
        if not any(r.available for r in runners):
            raise HarnessError("nothing to run: no interpreter is available")
        env = environment(build_dirs, runners)
        busy = env["loadavg_start"][0]
        if busy > 0.5 * (os.cpu_count() or 1):
            note(f"note: the machine is busy (load average {busy:.2f}); figures will be noisy")

        records, failures = measure(programs, runners, args.rounds, args.warmup, args.timeout, workdir)
        env["loadavg_end"] = list(os.getloadavg())
        metric = "median_cpu_s" if args.metric == "cpu" else "median_s"
        # While the work directory (and the compiled modules in it) still exists.
        details = (probe_details(programs, runners, records, workdir, args.timeout, metric)
                   if args.probes else None)

    columns = [r.name for r in runners if r.available]
    per_prog, geo = ratios(programs, records, columns, base, metric)
    result = {
        "schema": SCHEMA,
        "mode": "probes" if args.probes else "peers",
        "environment": env,
        "settings": {"suite": args.suite, "size": args.size, "rounds": args.rounds, "warmup": args.warmup, "metric": args.metric,
                     "baseline": base, "timeout_s": args.timeout, "columns": columns},
        "programs": [
            {"name": p["name"], "size": p["size"], "expected": p["expected"],
             "runs": records[p["name"]], "ratios": per_prog.get(p["name"], {}),
             **({"probe": details[p["name"]]} if details else {})}
            for p in programs
        ],
        "geomean": geo,
        "failures": failures,
    }
    report(result, args.metric, sys.stdout)

    if args.json:
        out_path = Path(args.json)
    else:
        stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
        suite = "-awfy" if args.suite == "awfy" else ""
        out_path = RESULTS_DIR / f"{stamp}{suite}-{args.size}{'-probes' if args.probes else ''}.json"
    out_path.parent.mkdir(parents=True, exist_ok=True)
    out_path.write_text(json.dumps(result, indent=1) + "\n")
    print(f"\nJSON written to {out_path}")
    if args.obs:
        write_observations(args.obs, programs, records, columns)
        print(f"observation lines written to {args.obs}")

    if failures:
        print(f"\n{len(failures)} FAILURE(S):", file=sys.stderr)
        for f in failures:
            print("  " + f.splitlines()[0], file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except HarnessError as e:
        print(f"run.py: {e}", file=sys.stderr)
        sys.exit(2)
    except KeyboardInterrupt:
        sys.exit(130)
