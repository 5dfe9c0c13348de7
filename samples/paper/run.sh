#!/usr/bin/env bash
# Reproduces the experiments of "Reliable Benchmarking with Limbo on Inferno"
# (../shared/reference/perform.txt) on this VM and writes OUTDIR/report.md
# with SVG figures beside it (Figures 1-12 of the paper, the cost listing and
# the profile), every number computed from this run's observations.
#
#   samples/paper/run.sh [--quick] [--build DIR] [--live N] [OUTDIR]
#
#   --quick      few rounds (about 15 s): checks the pipeline, not the VM
#   --live N     blocks of live heap under BASE and GCIDLE (default 50000;
#                5000 with --quick),
#                the stand-in for the heap of the paper's running system
#   --build DIR  build tree whose bin/ holds dis, bench, cost, plot, bstat
#                (default: $DIS_BUILD or build/; when a tool is missing the
#                packages come from scripts/setup.sh and the five tools are
#                built there, Release unless the tree is configured already)
#   OUTDIR       where report.md, the figures and data/ go
#                (default: the build tree's paper-report/, which git ignores)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
here="$root/samples/paper"

usage() { sed -n '2,18s/^# \{0,1\}//p' "$0"; }

quick=0
live=50000
live_given=0
build=${DIS_BUILD:-$root/build}
out=
while [ $# -gt 0 ]; do
  case $1 in
    --quick) quick=1 ;;
    --build)
      [ $# -ge 2 ] || { echo "run.sh: --build needs a directory" >&2; exit 2; }
      build=$2
      shift
      ;;
    --live)
      if [ $# -lt 2 ] || ! [[ $2 =~ ^[0-9]+$ ]]; then
        echo "run.sh: --live needs a number" >&2
        exit 2
      fi
      live=$2
      live_given=1
      shift
      ;;
    -h | --help) usage; exit 0 ;;
    -*) echo "run.sh: unknown option $1" >&2; usage >&2; exit 2 ;;
    *)
      [ -z "$out" ] || { echo "run.sh: one OUTDIR only" >&2; exit 2; }
      out=$1
      ;;
  esac
  shift
done
case $build in /*) ;; *) build="$PWD/$build" ;; esac
bin="$build/bin"
out=${out:-$build/paper-report}

# Missing tools: the packages as scripts/setup.sh installs them, then only
# the five tools (a clean clone builds them in minutes, not the whole tree).
tools=(dis bench cost plot bstat)
for tool in "${tools[@]}"; do
  if [ ! -x "$bin/$tool" ]; then
    echo "run.sh: $bin/$tool is missing: building ${tools[*]} in $build" >&2
    "$root/scripts/setup.sh"
    if [ ! -f "$build/CMakeCache.txt" ]; then
      cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
    fi
    cmake --build "$build" -j "$(nproc)" --target "${tools[@]}"
    break
  fi
done

# Sizes. A round is one run of each policy, interleaved so that a change in
# the machine's load falls on both. The paper's figures rest on 1000
# observations each; the rounds give the tails (maxima, 99th percentiles)
# something to be compared with.
if [ $quick -eq 1 ]; then
  rounds=3 nobs=1000 gcsched_n=300 gcidle_n=20 cost_rounds=3
  # A smaller live heap, so that three idle epochs fit in GCIDLE's 20 ms
  # sleep even in a Debug or sanitizer build (the check runs in those).
  [ "$live_given" -eq 1 ] || live=5000
else
  rounds=50 nobs=1000 gcsched_n=1000 gcidle_n=100 cost_rounds=15
fi

# The kernel-process options (--idle-gc, --cpus). Without them the script
# still runs, on the VM's only behaviour, and the report says so.
policy_flags=1
for tool in bench cost; do
  if ! "$bin/$tool" --help | grep -q -- '--idle-gc'; then policy_flags=0; fi
done
# vmopts POLICY CPUS: the options selecting an idle-GC policy and processors.
vmopts() {
  [ $policy_flags -eq 1 ] || return 0
  printf '%s\n' "--idle-gc=$1"
  [ "$2" = all ] || printf '%s\n' --cpus "$2"
}

# Replace only an earlier report (or an empty directory), never other files.
if [ -e "$out" ] && [ -n "$(ls -A "$out" 2>/dev/null)" ] && [ ! -f "$out/data/run.txt" ]; then
  echo "run.sh: $out exists and is not an earlier report: give another OUTDIR" >&2
  exit 2
fi
rm -rf "$out"
mkdir -p "$out/data"
data="$out/data"
start=$(date +%s)
{
  echo "start $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "quick $quick"
  echo "rounds $rounds"
  echo "nobs $nobs"
  echo "live $live"
  echo "policy_flags $policy_flags"
  echo "nproc $(nproc)"
  echo "load_before $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "commit $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)"
  echo "dirty $(git -C "$root" status --porcelain --untracked-files=no 2>/dev/null | wc -l)"
} >"$data/run.txt"

# The suite bench runs: its own programs, except BASE and GCIDLE, which run
# over a live heap of $live blocks (samples/paper/suite/).
suite="$data/suite"
mkdir -p "$suite"
cp "$root"/samples/bench-suite/*.b "$suite/"
for f in "$here"/suite/*.b; do
  sed "s/^LIVE: con [0-9]*;/LIVE: con $live;/" "$f" >"$suite/$(basename "$f")"
done

# bench_to FILE SUITE POLICY CPUS bench-args...: bench --all output into FILE.
bench_to() {
  local file=$1 dir=$2 policy=$3 cpus=$4
  shift 4
  mapfile -t opts < <(vmopts "$policy" "$cpus")
  "$bin/bench" --all --suite "$dir" "${opts[@]}" "$@" --out "$file"
}

echo "== BASE: $rounds rounds of $nobs observations (live heap $live blocks)" >&2
for ((r = 1; r <= rounds; r++)); do
  rr=$(printf '%02d' "$r")
  bench_to "$data/base-old-r$rr.obs" "$suite" old 1 -n "$nobs" -t BASE-busec
  bench_to "$data/base-fixed-r$rr.obs" "$suite" fixed 1 -n "$nobs" -t BASE-busec
  bench_to "$data/base-old2-r$rr.obs" "$suite" old all -n "$nobs" -t BASE-busec
  bench_to "$data/base-bareold-r$rr.obs" "$root/samples/bench-suite" old 1 -n "$nobs" -t BASE-busec
  bench_to "$data/base-barefixed-r$rr.obs" "$root/samples/bench-suite" fixed 1 -n "$nobs" -t BASE-busec
  bench_to "$data/builtin-r$rr.obs" "$suite" fixed 1 -n "$nobs" \
    -t BASE-microsec -t BASE-microsec-nogc -t BASE-nsec -t BASE-nsec-nogc
  printf '.' >&2
done
echo >&2

echo "== GCSCHED ($gcsched_n steps) and GCIDLE ($gcidle_n idle episodes), old policy, one processor" >&2
bench_to "$data/gcsched.obs" "$suite" old 1 -n "$gcsched_n" -t GCSCHED
bench_to "$data/gcidle.obs" "$suite" old 1 -n "$gcidle_n" -t GCIDLE
bench_to "$data/gcidle-bare.obs" "$root/samples/bench-suite" old 1 -n "$gcidle_n" -t GCIDLE

echo "== cost of the BASE loop (samples/paper/costbase.b), old and fixed policy, one processor" >&2
sed "s/^LIVE: con [0-9]*;/LIVE: con $live;/" "$here/costbase.b" >"$data/costbase.b"
for policy in old fixed; do
  mapfile -t opts < <(vmopts "$policy" 1)
  "$bin/cost" -f "$data/costbase.b" -s CostBase --hide-unexecuted "${opts[@]}" \
    --out "$data/cost-$policy.txt" >"$data/cost-$policy.out"
  "$bin/cost" --profile -f "$data/costbase.b" "${opts[@]}" \
    --out "$data/profile-$policy.txt" >"$data/profile-$policy.out"
done

echo "== cost of the loop: $cost_rounds rounds per policy (JSON: idle collections, sys->read)" >&2
for ((r = 1; r <= cost_rounds; r++)); do
  rr=$(printf '%02d' "$r")
  for policy in old fixed; do
    mapfile -t opts < <(vmopts "$policy" 1)
    "$bin/cost" --format json -f "$data/costbase.b" "${opts[@]}" \
      --out "$data/costjson-$policy-r$rr.json" >/dev/null
  done
done

{
  echo "load_after $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "measure_seconds $(($(date +%s) - start))"
} >>"$data/run.txt"

echo "== report" >&2
python3 "$here/report.py" --bin "$bin" --out "$out"
echo "total_seconds $(($(date +%s) - start))" >>"$data/run.txt"
echo "run.sh: wrote $out/report.md ($(($(date +%s) - start)) s)" >&2
