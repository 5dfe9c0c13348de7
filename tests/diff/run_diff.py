#!/usr/bin/env python3
"""Differential runner: programs whose whole output Inferno defines, run on
this VM, each result compared in full with what Inferno prints.

Suites:
  own      tests/diff/programs/NAME.b, compiled by our limbo and run by our
           dis in a directory that also holds programs/lib/*.b compiled (the
           modules they load); stdout must equal NAME.expected. NAME.s (Dis
           assembly, for what our limbo cannot express) runs the same way.
  inferno  ../shared/corpus/difftest (its README): each r_NAME on two paths,
           `ref` (r_NAME.ref.dis, Inferno's compiler's module, on our VM: a
           difference is a VM bug) and `ours` (r_NAME.b through our limbo).
           A program without .expected is one Inferno's compiler refuses:
           ours must refuse it too.

An `.expected` line `[Prog] Broken: "MSG"` is Inferno's report of a thread
that died: our stderr must contain MSG. Inferno's shell reports a failure only
when the main thread dies, so the exit status must be non-zero exactly when
the last line is such a report (an earlier one is another thread's).

Failures that are known (and why) are listed in known_differences.txt as
`SUITE/NAME[.PATH]  reason`; the run fails if any result disagrees with that
list either way, so a fixed program must leave the list.

  run_diff.py --bin BUILD/bin --suite own|inferno [--shared DIR] [--known FILE]
Exit status: 0 as listed, 1 a disagreement, 77 the inferno suite without
its corpus (ctest's skip), 2 usage.
"""
import argparse
import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
BROKEN = re.compile(r'^\[[^\]]*\] Broken: "(.*)"$')
TIMEOUT = 30


def run(cmd, cwd):
    try:
        p = subprocess.run(cmd, cwd=cwd, capture_output=True, timeout=TIMEOUT)
        return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode(
            "utf-8", "replace")
    except subprocess.TimeoutExpired:
        return -1, "", f"timed out after {TIMEOUT}s"


def judge(expected, status, out, err):
    """None when the run prints what Inferno printed, else the difference."""
    want_out, broken = [], []
    for line in expected.splitlines(keepends=True):
        m = BROKEN.match(line.rstrip("\n"))
        (broken.append(m.group(1)) if m else want_out.append(line))
    want = "".join(want_out)
    if out != want:
        return f"stdout {out!r}, Inferno {want!r}"
    for msg in broken:
        if msg not in err:
            return f"no {msg!r} on stderr: {err.strip()!r}"
    lines = expected.splitlines()
    main_died = bool(lines) and BROKEN.match(lines[-1]) is not None
    if main_died and status == 0:
        return "exit status 0 after the main thread died"
    if not main_died and status != 0:
        return f"exit status {status}: {err.strip()[:200]!r}"
    return None


def compile_and_run(bindir, src, work, expected):
    dis = work / (src.stem + ".dis")
    rc, _, err = run([str(bindir / "limbo"), "-o", str(dis), str(src)], work)
    if expected is None:
        return None if rc != 0 else "compiled; Inferno's compiler refuses it"
    if rc != 0:
        return f"refused by limbo: {err.strip()[:300]!r}"
    return judge(expected, *run([str(bindir / "dis"), str(dis)], work))


def own_suite(bindir, work):
    results = {}
    # Modules the programs load, compiled beside them (programs run there).
    for lib in sorted((HERE / "programs" / "lib").glob("*.b")):
        rc, _, err = run([str(bindir / "limbo"), "-o", str(work / (lib.stem + ".dis")),
                          str(lib)], work)
        if rc != 0:
            results[f"own/lib/{lib.stem}"] = f"refused by limbo: {err.strip()[:300]!r}"
    for src in sorted((HERE / "programs").glob("*.[bs]")):
        exp = src.with_suffix(".expected")
        expected = exp.read_text() if exp.exists() else "(no .expected file)"
        if src.suffix == ".s":  # Dis assembly, for what our limbo cannot write yet
            results[f"own/{src.stem}"] = judge(expected, *run([str(bindir / "dis"), str(src)], work))
        else:
            results[f"own/{src.stem}"] = compile_and_run(bindir, src, work, expected)
    return results


def inferno_suite(bindir, corpus, work):
    results = {}
    for src in sorted(corpus.glob("r_*.b")):
        exp_file = src.with_suffix(".expected")
        expected = exp_file.read_text() if exp_file.exists() else None
        ref = corpus / (src.stem + ".ref.dis")
        if ref.exists():
            results[f"inferno/{src.stem}.ref"] = judge(
                expected, *run([str(bindir / "dis"), str(ref)], work))
        results[f"inferno/{src.stem}.ours"] = compile_and_run(bindir, src, work, expected)
    return results


def read_known(path, suite):
    known = {}
    for n, line in enumerate(path.read_text().splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        key, _, reason = line.partition(" ")
        if not reason.strip():
            sys.exit(f"{path}:{n}: {key} has no reason")
        if key.startswith(suite + "/"):
            known[key] = reason.strip()
    return known


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", required=True, type=Path, help="directory of limbo and dis")
    ap.add_argument("--suite", required=True, choices=["own", "inferno"])
    ap.add_argument("--shared", type=Path, default=HERE.parent.parent.parent / "shared")
    ap.add_argument("--known", type=Path, default=HERE / "known_differences.txt")
    a = ap.parse_args()
    a.bin = a.bin.resolve()
    for tool in ("limbo", "dis"):
        if not (a.bin / tool).is_file():
            print(f"run_diff: no {tool} in {a.bin} (build it first)", file=sys.stderr)
            return 2
    corpus = a.shared / "corpus" / "difftest"
    if a.suite == "inferno" and not corpus.is_dir():
        print(f"skipped: {corpus} is absent")
        return 77
    with tempfile.TemporaryDirectory(prefix="diff_") as tmp:
        work = Path(tmp)
        results = (own_suite(a.bin, work)
                   if a.suite == "own" else inferno_suite(a.bin, corpus, work))
    known = read_known(a.known, a.suite)
    bad = 0
    for key, diff in results.items():
        if diff is None and key in known:
            print(f"NOW PASSES {key}: remove it from {a.known.name}")
            bad += 1
        elif diff is None:
            print(f"pass       {key}")
        elif key in known:
            print(f"known      {key}: {known[key]}")
        else:
            print(f"FAIL       {key}: {diff}")
            bad += 1
    for key in sorted(set(known) - set(results)):
        print(f"STALE      {key}: listed in {a.known.name} but no such program")
        bad += 1
    passing = sum(d is None for d in results.values())
    print(f"{a.suite}: {passing} of {len(results)} pass, {len(known)} known differences")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
