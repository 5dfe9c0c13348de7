#!/usr/bin/env bash
# Test of samples/paper/run.sh: a --quick run into a temporary directory must
# write report.md with every section, every figure it references present (an
# SVG drawn by plot), a bstat verdict for every comparison and a summary row
# per claim of the paper. With REPORT_DIR it checks that report instead of
# running (e.g. after a full run).
#   samples/paper/check.sh [--build DIR] [REPORT_DIR]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build_args=()
dir=
while [ $# -gt 0 ]; do
  case $1 in
    --build)
      [ $# -ge 2 ] || { echo "check: --build needs a directory" >&2; exit 2; }
      build_args=(--build "$2")
      shift
      ;;
    *) dir=$1 ;;
  esac
  shift
done
if [ -z "$dir" ]; then
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  dir="$tmp/report"
  "$here/run.sh" --quick "${build_args[@]}" "$dir" 2>"$tmp/run.log" || {
    cat "$tmp/run.log" >&2
    echo "check: run.sh failed" >&2
    exit 1
  }
fi

python3 - "$dir" <<'EOF'
import re
import sys
from pathlib import Path

out = Path(sys.argv[1])
report = out / "report.md"
errors = []
if not report.is_file():
    sys.exit(f"check: {report} is missing")
text = report.read_text()

sections = [
    "## Setup",
    "## Summary",
    "## BASE with tstamp() through /dev/busec, old policy, one processor (Figures 1-4)",
    "## The cost of the loop, and where the time goes",
    "### The profile",
    "### Idle collections during the reads, run after run",
    "## GCSCHED: single GC steps while another thread allocates (Figures 5-6)",
    "## GCIDLE: idle collections of three epochs (Figure 7)",
    "## The fixed policy (Figures 8-9)",
    "## The builtin timestamp bench->microsec() (Figures 10-11)",
    "## GC disabled (Figure 12)",
]
lines = text.splitlines()
for s in sections:
    if s not in lines:
        errors.append(f"section missing: {s}")

# Every figure of the paper, drawn here.
figures = re.findall(r"!\[Figure (\w+)\]\(([^)]+)\)", text)
numbers = {n for n, _ in figures}
for n in [str(i) for i in range(1, 13)]:
    if n not in numbers:
        errors.append(f"Figure {n} missing")
for f in sorted({f for _, f in figures} | set(re.findall(r"\[[^]]+\]\(([^)]+\.svg)\)", text))):
    p = out / f
    if not p.is_file():
        errors.append(f"figure file missing: {f}")
    elif "<svg" not in p.read_text(errors="replace")[:2000]:
        errors.append(f"not an SVG: {f}")

# Each paper figure is quoted beside ours, and each section says whether the
# paper's conclusion holds.
if text.count("> **Paper, ") != 15:
    errors.append(f"paper quotes: {text.count('> **Paper, ')} (expected 15)")
verdicts = re.findall(r"\*\*Does the paper's conclusion hold here\? (Yes|No)\.\*\*", text)
if len(verdicts) != 9:
    errors.append(f"conclusion paragraphs: {len(verdicts)} (expected 9)")
rows = [l for l in lines if re.match(r"^\| (Figs?|Cost|Profile|Idle)\b.*\| (yes|no) \|$", l)]
if len(rows) != 9:
    errors.append(f"summary rows: {len(rows)} (expected 9)")
if text.count("bstat: ") < 12:
    errors.append(f"bstat verdicts: {text.count('bstat: ')} (expected at least 12)")
# The cost listing shows the mcall of sys->read.
if not re.search(r"sys->read\(tsfd, buf, len buf\);\n(- .*\n)*- mcall\s+\d+", text):
    errors.append("cost listing without the mcall of sys->read")

if errors:
    print("\n".join("check: " + e for e in errors), file=sys.stderr)
    sys.exit(1)
print(f"check: {report} complete: {len(figures)} figures, {len(verdicts)} verdicts")
EOF
