#!/usr/bin/env bash
# Does the plain run pay for the existence of the cost tool's probes?
# (issues `cost` and `perf`: "the plain run is not slowed by the probes'
# existence").
#
# Builds `dis` twice from this tree in one build directory (--build-dir,
# default build-probes): with probes (the normal build) and with
# -DDIS_PROBES=OFF (the interpreter's Count/Time/Sampled instantiations
# compiled out; only interp.cpp and cost_probe.cpp differ, so the second
# build recompiles just those), keeping the two binaries as dis-with-probes
# and dis-without-probes there. Then runs each classic program
# (perf/programs/*.b, compiled once to .dis) alternately with each, RUNS
# times each, and feeds the two samples of CPU time (user+system, or wall
# time with --wall) to bstat, which says whether a difference is proven at
# 95% confidence: as two independent samples (Student's t, as ministat),
# and as pairs (bstat --paired: the k-th runs of the two builds ran back to
# back, so a host whose speed drifts from one pair to the next moves both
# and drops out of their difference).
#
# Usage: perf/probe_existence.sh [--runs N] [--size default|tiny] [--wall]
#                                [--programs "fib sieve ..."] [--build-dir DIR]
#                                [--no-build]
set -euo pipefail

cd "$(dirname "$0")/.."
root=$(pwd)
runs=10
size=default
metric=cpu
programs="fib loop sieve strings bintrees nbody calls"
build=1
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs=$2; shift 2 ;;
    --size) size=$2; shift 2 ;;
    --wall) metric=wall; shift ;;
    --programs) programs=$2; shift 2 ;;
    --no-build) build=0; shift ;;
    --build-dir) build_dir=$2; shift 2 ;;
    -h|--help) sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "probe_existence.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done

build_dir=${build_dir:-$root/build-probes}
on=$build_dir/dis-with-probes
off=$build_dir/dis-without-probes
if [ "$build" = 1 ]; then
  for flag in OFF ON; do
    cmake -S "$root" -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DDIS_TESTS=OFF \
      -DDIS_PROBES="$flag" >/dev/null
    cmake --build "$build_dir" -j 2 --target dis limbo bstat >/dev/null
    if [ "$flag" = ON ]; then cp "$build_dir/bin/dis" "$on"; else cp "$build_dir/bin/dis" "$off"; fi
  done
fi
limbo=$build_dir/bin/limbo
bstat=$build_dir/bin/bstat
for b in "$on" "$off" "$limbo" "$bstat"; do
  [ -x "$b" ] || { echo "probe_existence.sh: $b is not built" >&2; exit 2; }
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The two builds run from paths of the same length: the size of argv moves
# the initial stack, and with it the alignment of everything on it.
mkdir "$work/with" "$work/sans"
cp "$on" "$work/with/dis"
cp "$off" "$work/sans/dis"

size_of() {
  python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["programs"][sys.argv[2]]["sizes"][sys.argv[3]])' \
    perf/programs/programs.json "$1" "$2"
}

# One timed run: prints seconds (CPU user+system, or wall).
run_once() {
  local dis=$1 prog=$2 arg=$3 t
  if [ "$metric" = wall ]; then
    TIMEFORMAT='%3R'
    t=$({ time "$dis" "$prog" "$arg" >/dev/null; } 2>&1)
    echo "$t"
  else
    TIMEFORMAT='%3U %3S'
    t=$({ time "$dis" "$prog" "$arg" >/dev/null; } 2>&1)
    awk '{ printf "%.3f\n", $1 + $2 }' <<<"$t"
  fi
}

echo "probe existence: $runs alternating runs per build, size $size, metric $metric (s)"
echo "with probes:    $on"
echo "without probes: $off (-DDIS_PROBES=OFF)"
if cmp -s "$on" "$off"; then
  echo "the two binaries are byte-identical (dis links none of the probe code):"
  echo "the runs below compare the host with itself, a check of this measurement"
fi
for name in $programs; do
  arg=$(size_of "$name" "$size")
  "$limbo" -o "$work/$name.dis" "perf/programs/$name.b"
  : >"$work/$name.on"
  : >"$work/$name.off"
  for ((i = 0; i < runs; i++)); do
    # Alternate which build goes first, so a drift in machine load cannot
    # favour one of them.
    if ((i % 2 == 0)); then
      run_once "$work/with/dis" "$work/$name.dis" "$arg" >>"$work/$name.on"
      run_once "$work/sans/dis" "$work/$name.dis" "$arg" >>"$work/$name.off"
    else
      run_once "$work/sans/dis" "$work/$name.dis" "$arg" >>"$work/$name.off"
      run_once "$work/with/dis" "$work/$name.dis" "$arg" >>"$work/$name.on"
    fi
  done
  echo
  echo "== $name $arg"
  cp "$work/$name.on" "$work/with-probes"
  cp "$work/$name.off" "$work/without-probes"
  (cd "$work" && "$bstat" --quiet -c 95 -w 72 --paired without-probes with-probes) || true
done
