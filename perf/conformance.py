#!/usr/bin/env python3
"""Compile Inferno's own programs with our limbo and compare with Inferno's.

Every program of corpus/inferno/index.tsv that Inferno's compiler accepts is
compiled the way Inferno's mkfiles do it: from the program's own directory,
with -I the corpus module/ directory (and for appl/collab/* also -I
appl/collab/lib -I appl/collab). Our module is compared with the reference
module in corpus/inferno/ref/ by instruction count and opcode sequence.

Prints: programs compiled / accepted by Inferno; crashes (the compiler died,
hung, or exited with a status other than 0 and 2); programs whose instruction
count is identical, within 2%, within 5% of the reference; programs whose
opcode sequence is identical; the ten largest differences; the most common
first errors. Writes the per-program table as TSV (--tsv).

--check fails (exit 1) on a crash, or when a program listed in the
checked-in list (--list) no longer compiles. --update-list rewrites that
list with the programs that compile now. Without the corpus it says so and
exits 0 (a user's clone has no ../shared).

  python3 perf/conformance.py [--build build] [--check] [--update-list]
"""
import argparse
import collections
import concurrent.futures
import os
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"),
                    help="build directory holding bin/limbo and bin/disdump")
    ap.add_argument("--limbo", help="the compiler to test (default BUILD/bin/limbo)")
    ap.add_argument("--corpus", default=os.path.join(ROOT, "..", "shared", "corpus", "inferno"))
    ap.add_argument("--tsv", default=None, help="per-program table (default BUILD/conformance.tsv)")
    ap.add_argument("--list", default=os.path.join(HERE, "conformance_compiled.txt"),
                    help="checked-in list of programs that compile")
    ap.add_argument("--check", action="store_true",
                    help="exit 1 on a crash or a listed program that no longer compiles")
    ap.add_argument("--update-list", action="store_true", help="rewrite --list")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--timeout", type=float, default=60.0, help="seconds per compilation")
    ap.add_argument("--only", help="regular expression selecting sources")
    return ap.parse_args()


def read_index(corpus):
    rows = []
    with open(os.path.join(corpus, "index.tsv")) as f:
        header = f.readline().rstrip("\n").split("\t")
        for line in f:
            fields = dict(zip(header, line.rstrip("\n").split("\t")))
            if fields.get("inferno_limbo") == "accepted":
                rows.append(fields)
    return rows


OP_LINE = re.compile(r"^\t(\S+)(?:\t.*)?\t# \d+$")


def opcodes(disdump, path):
    """The opcode mnemonics of a .dis file, in pc order (None if unreadable)."""
    r = subprocess.run([disdump, "--pc", path], capture_output=True, text=True, timeout=60)
    if r.returncode != 0:
        return None
    ops = []
    for line in r.stdout.splitlines():
        m = OP_LINE.match(line)
        if m:
            ops.append(m.group(1))
    return ops


def compile_one(args, limbo, disdump, src, workdir):
    corpus = os.path.abspath(args.corpus)
    path = os.path.join(corpus, src)
    srcdir = os.path.dirname(path)
    out = os.path.join(workdir, src.replace("/", "_") + ".dis")
    cmd = [limbo, "-I", os.path.join(corpus, "module")]
    if src.startswith("appl/collab/"):
        cmd += ["-I", os.path.join(corpus, "appl", "collab", "lib"),
                "-I", os.path.join(corpus, "appl", "collab")]
    cmd += ["-o", out, os.path.basename(path)]
    t0 = time.monotonic()
    try:
        r = subprocess.run(cmd, cwd=srcdir, capture_output=True, text=True,
                           timeout=args.timeout)
    except subprocess.TimeoutExpired:
        return {"status": "crash", "error": "timeout", "seconds": args.timeout}
    seconds = time.monotonic() - t0
    if r.returncode == 0 and os.path.exists(out):
        ops = opcodes(disdump, out)
        os.unlink(out)
        if ops is None:
            return {"status": "crash", "error": "unreadable .dis", "seconds": seconds}
        return {"status": "compiled", "ops": ops, "error": "", "seconds": seconds}
    first = (r.stderr.strip().splitlines() or ["(no message)"])[0]
    if r.returncode == 2:
        return {"status": "refused", "error": first, "seconds": seconds}
    return {"status": "crash", "error": f"exit {r.returncode}: {first}", "seconds": seconds}


def error_kind(msg):
    """A refusal's message with names and numbers blanked, for grouping."""
    msg = re.sub(r"^[^:]*:\d+(:\d+)?: ", "", msg)
    msg = re.sub(r"'[^']*'", "'_'", msg)
    msg = re.sub(r"\b\d+\b", "N", msg)
    return msg[:90]


def main():
    args = parse_args()
    args.corpus = os.path.abspath(args.corpus)
    if not os.path.isdir(args.corpus):
        print(f"conformance: skipped: no corpus at {args.corpus} (it comes with ../shared)")
        return 0
    # Compilations run inside each program's own directory, so the tools
    # must be named by absolute paths.
    limbo = os.path.abspath(args.limbo or os.path.join(args.build, "bin", "limbo"))
    disdump = os.path.abspath(os.path.join(args.build, "bin", "disdump"))
    for tool in (limbo, disdump):
        if not os.access(tool, os.X_OK):
            print(f"conformance: {tool} not built", file=sys.stderr)
            return 2
    rows = read_index(args.corpus)
    if args.only:
        rows = [r for r in rows if re.search(args.only, r["source"])]
    refops = {}
    t0 = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="conformance-") as work, \
            concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futs = {r["source"]: pool.submit(compile_one, args, limbo, disdump, r["source"], work)
                for r in rows}
        for r in rows:
            ref = os.path.join(args.corpus, "ref", r["source"][len("appl/"):-2] + ".dis")
            refops[r["source"]] = opcodes(disdump, ref) if os.path.exists(ref) else None
        results = {s: f.result() for s, f in futs.items()}
    wall = time.monotonic() - t0
    return report(args, rows, results, refops, wall)


def report(args, rows, results, refops, wall):
    accepted = len(rows)
    compiled = [s for s, r in results.items() if r["status"] == "compiled"]
    crashes = sorted(s for s, r in results.items() if r["status"] == "crash")
    table = []
    same = within2 = within5 = sameops = both = 0
    diffs = []
    for row in rows:
        s = row["source"]
        r = results[s]
        ref = refops.get(s)
        ours_n = len(r["ops"]) if r["status"] == "compiled" else ""
        ref_n = len(ref) if ref is not None else int(row.get("instructions") or 0)
        rel = ""
        ident_ops = ""
        if r["status"] == "compiled" and ref is not None:
            both += 1
            d = ours_n - ref_n
            relv = abs(d) / ref_n if ref_n else (0.0 if d == 0 else 1.0)
            rel = f"{100 * relv:.1f}"
            same += d == 0
            within2 += relv <= 0.02
            within5 += relv <= 0.05
            ident_ops = "yes" if r["ops"] == ref else "no"
            sameops += r["ops"] == ref
            diffs.append((abs(d), d, ref_n, s))
        table.append([s, r["status"], str(ours_n), str(ref_n), rel, ident_ops,
                      f"{r['seconds']:.2f}", r["error"].replace("\t", " ")])
    tsv = args.tsv or os.path.join(args.build, "conformance.tsv")
    os.makedirs(os.path.dirname(os.path.abspath(tsv)), exist_ok=True)
    with open(tsv, "w") as f:
        f.write("source\tstatus\tinstructions\treference\tdiff_percent\tsame_opcodes\t"
                "seconds\terror\n")
        for t in table:
            f.write("\t".join(t) + "\n")

    def pct(n, d):
        return f"{100 * n / d:.1f}%" if d else "-"

    print(f"programs compiled: {len(compiled)} / {accepted} accepted by Inferno "
          f"({pct(len(compiled), accepted)})")
    print(f"crashes: {len(crashes)}")
    for s in crashes[:20]:
        print(f"  crash: {s}: {results[s]['error']}")
    print(f"compared with the reference module: {both}")
    print(f"  identical instruction count: {same} ({pct(same, both)})")
    print(f"  within 2%: {within2} ({pct(within2, both)})")
    print(f"  within 5%: {within5} ({pct(within5, both)})")
    print(f"  identical opcode sequence: {sameops} ({pct(sameops, both)})")
    print("ten largest differences (ours - Inferno's instructions):")
    for _, d, ref_n, s in sorted(diffs, reverse=True)[:10]:
        print(f"  {d:+6d} of {ref_n:6d}  {s}")
    kinds = collections.Counter(error_kind(r["error"]) for r in results.values()
                                if r["status"] == "refused")
    if kinds:
        print("most common first errors (programs):")
        for k, n in kinds.most_common(15):
            print(f"  {n:4d}  {k}")
    cpu = sum(r["seconds"] for r in results.values())
    print(f"compile time: {cpu:.1f} s summed over programs, {wall:.1f} s wall "
          f"({args.jobs} jobs, comparison included)")
    print(f"table: {tsv}")

    status = 0
    listed = []
    if os.path.exists(args.list):
        with open(args.list) as f:
            listed = [l.strip() for l in f if l.strip() and not l.startswith("#")]
    lost = [s for s in listed if s in results and results[s]["status"] != "compiled"]
    if lost:
        print(f"regressions: {len(lost)} listed programs no longer compile")
        for s in lost[:30]:
            print(f"  {s}: {results[s]['error']}")
    if args.update_list:
        with open(args.list, "w") as f:
            f.write("# Programs of corpus/inferno that our limbo compiles; perf/conformance.py\n")
            f.write("# --check fails when one of them no longer does (--update-list rewrites).\n")
            for s in sorted(compiled):
                f.write(s + "\n")
        print(f"list: {len(compiled)} programs written to {args.list}")
    if args.check and (crashes or lost):
        status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
